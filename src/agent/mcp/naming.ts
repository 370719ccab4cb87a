/** Hermes' model-facing names and filters for MCP tools (tools/mcp_tool_schema.py). */

/** Every character outside `[A-Za-z0-9_]` becomes `_` (hyphens too), as Hermes does. */
export function sanitizeMcpName(value: string): string {
  return value.replace(/[^A-Za-z0-9_]/g, '_');
}

/** `mcp__<server>__<tool>`: the prefix Hermes registers native MCP tools under. */
export const MCP_TOOL_PREFIX = 'mcp__';

export function mcpToolName(server: string, tool: string): string {
  return `${MCP_TOOL_PREFIX}${sanitizeMcpName(server)}__${sanitizeMcpName(tool)}`;
}

/** fnmatch's case-sensitive glob (`*`, `?`, `[...]`) as a RegExp. */
function globRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === '*') re += '.*';
    else if (ch === '?') re += '.';
    else if (ch === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end === -1) {
        re += '\\[';
        continue;
      }
      let body = glob.slice(i + 1, end);
      if (body.startsWith('!')) body = `^${body.slice(1)}`;
      re += `[${body.replace(/\\/g, '\\\\')}]`;
      i = end;
    } else re += ch.replace(/[.+^${}()|\\/]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** Exact names match literally; entries with `*`, `?` or `[` are globs. */
export function matchesNameFilter(name: string, patterns: string[]): boolean {
  if (patterns.includes(name)) return true;
  return patterns.some((p) => /[*?[]/.test(p) && globRegExp(p).test(name));
}

/** `tools.include` is a whitelist (`[]` = nothing) and wins; else `tools.exclude` is a blacklist. */
export function toolPassesFilter(name: string, filter: { include: string[] | null; exclude: string[] }): boolean {
  if (filter.include) return matchesNameFilter(name, filter.include);
  return !matchesNameFilter(name, filter.exclude);
}

type Json = Record<string, unknown>;

function repair(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(repair);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) {
    if ((k === 'properties' || k === 'patternProperties') && v && typeof v === 'object' && !Array.isArray(v)) {
      out[k] = Object.fromEntries(Object.entries(v as Json).map(([name, s]) => [name, repair(s)]));
    } else {
      // Draft-07 `definitions` → `$defs` (Moonshot rejects the old form), never as a property name.
      out[k === 'definitions' ? '$defs' : k] = repair(v);
    }
  }
  if (typeof out.$ref === 'string' && out.$ref.startsWith('#/definitions/')) out.$ref = `#/$defs/${out.$ref.slice('#/definitions/'.length)}`;
  if (!out.type && ('properties' in out || 'required' in out)) out.type = 'object';
  if (out.type === 'object') {
    if (!out.properties || typeof out.properties !== 'object' || Array.isArray(out.properties)) out.properties = {};
    if (Array.isArray(out.required)) {
      // Gemini refuses a `required` name that has no property.
      const props = out.properties as Json;
      const valid = out.required.filter((r): r is string => typeof r === 'string' && r in props);
      if (valid.length) out.required = valid;
      else delete out.required;
    }
  }
  if (out.type === 'array' && !('items' in out) && !('prefixItems' in out)) out.items = {};
  return out;
}

/** An MCP input schema in a form every provider accepts; always an object schema at the top. */
export function normalizeInputSchema(schema: unknown): Json {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return { type: 'object', properties: {} };
  const out = repair(schema) as Json;
  if (out.type === 'object' && !('properties' in out)) out.properties = {};
  if (!out.type) return { type: 'object', properties: {}, ...out };
  return out;
}
