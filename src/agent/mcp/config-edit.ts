import { isAlias, isMap, isNode, isScalar, parseDocument, visit, type Document, type Node, type YAMLMap } from 'yaml';
import { ConfigSyntaxError } from '../config-edit.js';

/**
 * `mcp_servers` edits on config.yaml text with the yaml Document API: comments, unrelated keys
 * and `${VAR}` references survive (they are the stored text, never the substituted values); a
 * masked credential sent back keeps what is stored; YAML aliases are detached before a change so
 * an edit never reaches a sibling or a template; a file that does not parse is never rewritten.
 */

/** What the list sends instead of a credential, and what a form sends back unchanged. */
export const MASKED = '••••••';

export class McpEntryError extends Error {
  constructor(
    readonly kind: 'not_found' | 'invalid',
    message: string,
  ) {
    super(message);
    this.name = 'McpEntryError';
  }
}

export interface McpServerInput {
  url?: string;
  headers?: Record<string, string>;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  timeout?: number;
  connect_timeout?: number;
  enabled?: boolean;
}

function parse(text: string | null): Document {
  const doc = parseDocument(text ?? '', { merge: true });
  const err = doc.errors[0];
  if (err) {
    const at = err.linePos?.[0];
    throw new ConfigSyntaxError(`config.yaml is not valid YAML${at ? ` at line ${at.line}, column ${at.col}` : ''}: ${err.message.split('\n')[0]}`);
  }
  if (doc.contents !== null && !isMap(doc.contents)) throw new ConfigSyntaxError('config.yaml must be a mapping of keys (like "model:") at the top level');
  return doc;
}

function stripAnchors(node: Node): Node {
  visit(node, {
    Node(_, n) {
      if ('anchor' in n) delete (n as { anchor?: string }).anchor;
    },
  });
  if ('anchor' in node) delete (node as { anchor?: string }).anchor;
  return node;
}

/** A copy of what an alias points at, without anchors (a copy must not redefine one). */
function copyOf(doc: Document, node: unknown): Node {
  const target = isAlias(node) ? node.resolve(doc) : node;
  if (!isNode(target)) return doc.createNode(null);
  return stripAnchors(target.clone() as Node);
}

/** Whether a map has a `<<` merge key (such an entry is flattened to its merged value before a change). */
function hasMerge(map: YAMLMap): boolean {
  // With `merge: true` the key is a scalar holding a symbol; without, the plain string.
  return map.items.some((p) => isScalar(p.key) && (p.key.value === '<<' || typeof p.key.value === 'symbol'));
}

/**
 * Makes `node` safe to change: aliases inside it become copies, and aliases elsewhere that
 * point at an anchor inside it become copies of what they pointed at, so siblings keep their value.
 */
function detach(doc: Document, node: Node): void {
  const anchors = new Set<string>();
  visit(node, {
    Node(_, n) {
      const a = (n as { anchor?: string }).anchor;
      if (a) anchors.add(a);
    },
  });
  const own = (node as { anchor?: string }).anchor;
  if (own) anchors.add(own);
  visit(node, { Alias: (_, a) => copyOf(doc, a) });
  if (anchors.size) {
    visit(doc, {
      Node(_, n) {
        if (n === node) return visit.SKIP;
        return undefined;
      },
      Alias(_, a) {
        return anchors.has(a.source) ? copyOf(doc, a) : undefined;
      },
    });
  }
  stripAnchors(node);
}

/** `mcp_servers` as a mapping that may be changed (created when missing or empty). */
function serversMap(doc: Document, create: boolean): YAMLMap | null {
  let servers = doc.get('mcp_servers', true) as unknown;
  if (servers === undefined || servers === null || (isScalar(servers) && (servers.value === null || servers.value === ''))) {
    if (!create) return null;
    servers = doc.createNode({});
    doc.set('mcp_servers', servers);
  }
  if (isAlias(servers)) {
    servers = copyOf(doc, servers);
    doc.set('mcp_servers', servers);
  }
  if (!isMap(servers)) throw new ConfigSyntaxError('config.yaml: mcp_servers must be a mapping of server names');
  return servers;
}

/** The entry `name`, detached and flattened, ready to change; null when absent. */
function entryFor(doc: Document, servers: YAMLMap, name: string): YAMLMap | null {
  let entry = servers.get(name, true) as unknown;
  if (entry === undefined) return null;
  if (isAlias(entry)) {
    entry = copyOf(doc, entry);
    servers.set(name, entry);
  }
  if (!isMap(entry)) throw new McpEntryError('invalid', `MCP server '${name}' has invalid config`);
  if (hasMerge(entry)) {
    entry = doc.createNode(entry.toJS(doc));
    servers.set(name, entry);
  }
  detach(doc, entry as YAMLMap);
  return entry as YAMLMap;
}

/** Sets a map of strings key by key: a masked value keeps the stored one; keys not sent go. */
function setStringMap(doc: Document, entry: YAMLMap, key: string, values: Record<string, string>): void {
  const map = entry.get(key, true) as unknown;
  if (!isMap(map)) {
    const fresh: Record<string, string> = {};
    for (const [k, v] of Object.entries(values)) if (v !== MASKED) fresh[k] = v;
    if (Object.keys(fresh).length) entry.set(key, doc.createNode(fresh));
    else entry.delete(key);
    return;
  }
  const m = map as YAMLMap;
  for (const pair of [...m.items]) {
    const k = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    if (!(k in values)) m.delete(pair.key);
  }
  for (const [k, v] of Object.entries(values)) {
    if (v === MASKED && m.has(k)) continue;
    if (v === MASKED) continue;
    const current = m.get(k, true);
    if (isScalar(current) && current.value === v) continue;
    m.set(k, v);
  }
  if (!m.items.length) entry.delete(key);
}

/**
 * Adds or updates `mcp_servers.<name>`. The transport sent (url, else command) replaces the
 * other's keys; headers/env/args sent replace the stored ones (masked values keep theirs), and
 * keys not sent (`tools`, `trust`, `sampling`, comments …) stay as written.
 *
 * @example
 * upsertMcpServer('mcp_servers: {}\n', 'fs', { command: 'npx', args: ['-y', 'server-fs'] })
 */
export function upsertMcpServer(text: string | null, name: string, input: McpServerInput): string {
  const doc = parse(text);
  const servers = serversMap(doc, true)!;
  let entry = entryFor(doc, servers, name);
  if (!entry) {
    entry = doc.createNode({}) as YAMLMap;
    servers.set(name, entry);
  }
  if (input.url) {
    entry.set('url', input.url);
    for (const k of ['command', 'args', 'env']) entry.delete(k);
    if (input.headers) setStringMap(doc, entry, 'headers', input.headers);
  } else if (input.command) {
    entry.set('command', input.command);
    for (const k of ['url', 'headers']) entry.delete(k);
    if (input.args) {
      const current = entry.get('args');
      if (JSON.stringify((current as { toJSON?: () => unknown })?.toJSON?.() ?? current) !== JSON.stringify(input.args)) {
        if (input.args.length) entry.set('args', doc.createNode(input.args));
        else entry.delete('args');
      }
    }
    if (input.env) setStringMap(doc, entry, 'env', input.env);
  }
  if (input.timeout !== undefined) entry.set('timeout', input.timeout);
  if (input.connect_timeout !== undefined) entry.set('connect_timeout', input.connect_timeout);
  if (input.enabled !== undefined) entry.set('enabled', input.enabled);
  return String(doc);
}

/** Sets `enabled`; a missing server or a non-mapping entry is an McpEntryError. */
export function setMcpServerEnabled(text: string | null, name: string, enabled: boolean): string {
  const doc = parse(text);
  const servers = serversMap(doc, false);
  const entry = servers ? entryFor(doc, servers, name) : null;
  if (!entry) throw new McpEntryError('not_found', `MCP server '${name}' not found`);
  const current = entry.get('enabled', true);
  if (isScalar(current) && current.value === enabled) return text ?? '';
  entry.set('enabled', enabled);
  return String(doc);
}

/** Removes `mcp_servers.<name>`; a missing server is an McpEntryError. */
export function removeMcpServer(text: string | null, name: string): string {
  const doc = parse(text);
  const servers = serversMap(doc, false);
  if (!servers?.has(name)) throw new McpEntryError('not_found', `MCP server '${name}' not found`);
  // Something else may alias into the entry being removed: give it its own copy first.
  const entry = servers.get(name, true);
  if (isNode(entry) && !isAlias(entry)) detach(doc, entry);
  servers.delete(name);
  return String(doc);
}
