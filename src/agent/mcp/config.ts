import { parse as parseYaml } from 'yaml';
import { parseDotenv } from '../config.js';

/** One `mcp_servers.<name>` entry as Hermes reads it, after `${VAR}` substitution. */
export interface McpServerConfig {
  name: string;
  transport: 'stdio' | 'http' | 'invalid';
  command: string | null;
  args: string[];
  env: Record<string, string>;
  url: string | null;
  headers: Record<string, string>;
  /** Seconds per tool call (`timeout`, Hermes' default 300). */
  timeoutSeconds: number;
  /** Seconds for the first connection (`connect_timeout`, default 60). */
  connectTimeoutSeconds: number;
  enabled: boolean;
  /** `tools.include`: null when absent (everything); an empty list registers nothing. */
  include: string[] | null;
  exclude: string[];
  /** `trust: untrusted` asks before every call of a tool not marked read-only. */
  trust: 'full' | 'untrusted';
  /** `supports_parallel_tool_calls`: the server's tools may run side by side (default off). */
  parallelSafe: boolean;
  /** Everything that decides the connection: a change means reconnecting. */
  fingerprint: string;
}

export const DEFAULT_TOOL_TIMEOUT_S = 300;
export const DEFAULT_CONNECT_TIMEOUT_S = 60;

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off']);

/** Hermes' boolean reading: absent, null or unreadable keeps the default; YAML 0/1 are numbers. */
export function boolish(value: unknown, fallback: boolean): boolean {
  if (value === null || value === undefined) return fallback;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') {
    const s = value.trim().toLowerCase();
    if (TRUE_WORDS.has(s)) return true;
    if (FALSE_WORDS.has(s)) return false;
  }
  return fallback;
}

function positive(value: unknown, fallback: number): number {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : fallback;
}

/** `${VAR}` / `${env:VAR}` from `.env` over the process environment; unknown names become ''. */
function substitute(value: unknown, env: Record<string, string>): unknown {
  if (typeof value === 'string') return value.replace(/\$\{(?:env:)?\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}/g, (_, k: string) => env[k] ?? '');
  if (Array.isArray(value)) return value.map((v) => substitute(v, env));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, env)]));
  return value;
}

function stringMap(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) if (v !== null && v !== undefined && typeof v !== 'object') out[k] = String(v);
  return out;
}

/** Hermes' argv coercion: a list; a JSON-looking string decoded; any other string shell-split. */
export function coerceArgs(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.map(String);
  if (typeof value !== 'string') return [String(value)];
  const text = value.trim();
  if (!text) return [];
  if (text.startsWith('[')) {
    try {
      const parsed = JSON.parse(text) as unknown;
      if (Array.isArray(parsed)) return parsed.map(String);
    } catch {
      // Not JSON: read as words below.
    }
  }
  return shellWords(text);
}

function shellWords(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | null = null;
  let has = false;
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = null;
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      has = true;
    } else if (/\s/.test(ch)) {
      if (has || cur) out.push(cur);
      cur = '';
      has = false;
    } else {
      cur += ch;
    }
  }
  if (has || cur) out.push(cur);
  return out;
}

function nameList(value: unknown): string[] | null {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.map(String);
  return null;
}

/** One entry (already substituted). A non-mapping entry, or one with neither url nor command, is `invalid`. */
export function readServer(name: string, raw: unknown, defaultTimeoutSeconds = DEFAULT_TOOL_TIMEOUT_S): McpServerConfig {
  const cfg = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : null;
  const url = cfg && typeof cfg.url === 'string' && cfg.url.trim() ? cfg.url.trim() : null;
  const command = cfg && !url && cfg.command !== undefined && cfg.command !== null && String(cfg.command).trim() ? String(cfg.command).trim() : null;
  const transport = url ? 'http' : command ? 'stdio' : 'invalid';
  const tools = cfg?.tools && typeof cfg.tools === 'object' ? (cfg.tools as Record<string, unknown>) : {};
  const trust = cfg?.trust === undefined || cfg?.trust === null ? 'full' : String(cfg.trust).trim().toLowerCase() === 'full' ? 'full' : 'untrusted';
  const server: Omit<McpServerConfig, 'fingerprint'> = {
    name,
    transport,
    command,
    args: cfg && command ? coerceArgs(cfg.args) : [],
    env: cfg && command ? stringMap(cfg.env) : {},
    url,
    headers: cfg && url ? stringMap(cfg.headers) : {},
    timeoutSeconds: positive(cfg?.timeout, defaultTimeoutSeconds),
    connectTimeoutSeconds: positive(cfg?.connect_timeout, DEFAULT_CONNECT_TIMEOUT_S),
    enabled: transport !== 'invalid' && boolish(cfg?.enabled, true),
    include: nameList(tools.include),
    exclude: nameList(tools.exclude) ?? [],
    trust,
    parallelSafe: boolish(cfg?.supports_parallel_tool_calls, false),
  };
  const { command: c, args, env, url: u, headers, connectTimeoutSeconds } = server;
  return { ...server, fingerprint: JSON.stringify([transport, c, args, env, u, headers, connectTimeoutSeconds]) };
}

export interface McpServersRead {
  servers: McpServerConfig[];
  /** The raw (unsubstituted) entries, for the list's display of `${VAR}` references as written. */
  raw: Record<string, unknown>;
}

/**
 * `mcp_servers` of a config.yaml text, in file order. A file that does not parse, or a
 * non-mapping `mcp_servers`, reads as no servers (status reads must not fail on it; writes refuse).
 *
 * @example
 * readMcpServers('mcp_servers:\n  fs:\n    command: npx\n', null, {}).servers[0].transport // 'stdio'
 */
export function readMcpServers(configYaml: string | null, dotenv: string | null, processEnv: Record<string, string | undefined>): McpServersRead {
  let doc: unknown;
  try {
    doc = configYaml ? parseYaml(configYaml, { merge: true }) : null;
  } catch {
    return { servers: [], raw: {} };
  }
  const section = doc && typeof doc === 'object' ? (doc as Record<string, unknown>).mcp_servers : null;
  if (!section || typeof section !== 'object' || Array.isArray(section)) return { servers: [], raw: {} };
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(processEnv)) if (typeof v === 'string') env[k] = v;
  Object.assign(env, dotenv ? parseDotenv(dotenv) : {});
  const raw = section as Record<string, unknown>;
  // `mcp.client: false` turns the MCP client off; `mcp.stdio_servers: false` only local processes.
  const switches = (doc as Record<string, unknown>).mcp;
  const sw = switches && typeof switches === 'object' ? (switches as Record<string, unknown>) : {};
  const client = boolish(sw.client, true);
  const stdio = boolish(sw.stdio_servers, true);
  // A server's own `timeout`, else `timeouts.mcp.tool_call`, else 300 s.
  const timeouts = (doc as Record<string, unknown>).timeouts as { mcp?: { tool_call?: unknown } } | undefined;
  const toolTimeout = positive(timeouts?.mcp?.tool_call, DEFAULT_TOOL_TIMEOUT_S);
  const servers = Object.entries(raw).map(([name, entry]) => {
    const server = readServer(name, substitute(entry, env), toolTimeout);
    if (!client || (server.transport === 'stdio' && !stdio)) server.enabled = false;
    return server;
  });
  return { servers, raw };
}
