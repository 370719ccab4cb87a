import { DEFAULT_CONNECT_TIMEOUT_S, DEFAULT_TOOL_TIMEOUT_S, boolish, coerceArgs } from './config.js';
import { MASKED } from './config-edit.js';
import type { McpRuntimeState } from './connections.js';
import { mcpToolName } from './naming.js';
import type { McpToolInfo } from './types.js';

const SENSITIVE = ['auth', 'token', 'key', 'secret', 'password', 'credential'];

/** The incumbent's masking: a string under a key naming a credential becomes `••••••`. */
export function maskSecrets(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const lower = k.toLowerCase();
    if (typeof v === 'string' && SENSITIVE.some((s) => lower.includes(s))) out[k] = MASKED;
    else if (v && typeof v === 'object' && !Array.isArray(v)) out[k] = maskSecrets(v);
    else out[k] = v;
  }
  return out;
}

export type McpServerStatus = 'active' | 'configured' | 'disabled' | 'invalid_config' | 'connecting' | 'failed';

export interface McpServerSummary {
  name: string;
  transport: 'stdio' | 'http' | 'invalid';
  url?: string;
  headers?: unknown;
  command?: string;
  args?: string[];
  env?: unknown;
  timeout: number;
  /** The entry sets its own `timeout` (else `timeout` is inherited); this project's addition. */
  timeout_set: boolean;
  connect_timeout: number;
  enabled: boolean;
  active: boolean;
  status: McpServerStatus;
  tool_count: number | null;
  error?: string;
}

/**
 * One server as `GET /api/mcp/servers` lists it, in the incumbent's shape: from the entry as
 * written (`${VAR}` references shown as such, credentials masked) and what the connection knows.
 * `connecting` and `failed` (with `error`) are this project's additions.
 */
export function serverSummary(
  name: string,
  raw: unknown,
  runtime: McpRuntimeState | null,
  enabled?: boolean,
  /** The tool-call timeout the agent applies (entry, else `timeouts.mcp.tool_call`, else 300 s). */
  timeoutSeconds?: number,
): McpServerSummary {
  const cfg = raw && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : null;
  const num = (v: unknown, d: number) => (typeof v === 'number' && Number.isFinite(v) ? v : d);
  if (!cfg)
    return {
      name,
      transport: 'invalid',
      timeout: DEFAULT_TOOL_TIMEOUT_S,
      timeout_set: false,
      connect_timeout: DEFAULT_CONNECT_TIMEOUT_S,
      enabled: false,
      active: false,
      status: 'invalid_config',
      tool_count: null,
    };
  const out: McpServerSummary = {
    name,
    transport: 'invalid',
    timeout: timeoutSeconds ?? num(cfg.timeout, DEFAULT_TOOL_TIMEOUT_S),
    timeout_set: cfg.timeout !== undefined && cfg.timeout !== null,
    connect_timeout: num(cfg.connect_timeout, DEFAULT_CONNECT_TIMEOUT_S),
    // What the agent decides (with `mcp.client` / `mcp.stdio_servers`), else the entry's own flag.
    enabled: enabled ?? boolish(cfg.enabled, true),
    active: false,
    status: 'configured',
    tool_count: null,
  };
  if ('url' in cfg) {
    out.transport = 'http';
    out.url = String(cfg.url ?? '');
    if ('headers' in cfg) out.headers = maskSecrets(cfg.headers);
  } else if ('command' in cfg) {
    out.transport = 'stdio';
    out.command = String(cfg.command ?? '');
    try {
      out.args = coerceArgs(cfg.args);
    } catch {
      out.args = [];
    }
    if ('env' in cfg) out.env = maskSecrets(cfg.env);
  }
  if (out.transport === 'invalid') {
    out.enabled = false;
    out.status = 'invalid_config';
    return out;
  }
  if (!out.enabled) {
    out.status = 'disabled';
    return out;
  }
  if (runtime?.state === 'connected') {
    out.active = true;
    out.status = 'active';
    out.tool_count = runtime.tools.length;
  } else if (runtime?.state === 'connecting') out.status = 'connecting';
  else if (runtime?.state === 'failed') {
    out.status = 'failed';
    if (runtime.error) out.error = runtime.error;
  }
  return out;
}

const SCHEMA_ROWS = 12;

function schemaType(node: unknown): string {
  if (!node || typeof node !== 'object') return 'unknown';
  const n = node as Record<string, unknown>;
  if (Array.isArray(n.type)) return n.type.filter(Boolean).join('/');
  if (typeof n.type === 'string' && n.type) return n.type;
  for (const k of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(n[k]) && (n[k] as unknown[]).length) return k;
  return 'enum' in n ? 'enum' : 'unknown';
}

/** Parameter hints without defaults, examples or enums (the incumbent's schema_summary). */
export function schemaSummary(schema: unknown): Array<{ name: string; type: string; required: boolean; description: string }> {
  const s = schema && typeof schema === 'object' ? (schema as Record<string, unknown>) : {};
  const props = s.properties && typeof s.properties === 'object' ? (s.properties as Record<string, unknown>) : {};
  const required = new Set(Array.isArray(s.required) ? s.required : []);
  return Object.entries(props)
    .slice(0, SCHEMA_ROWS)
    .map(([name, p]) => {
      const d = p && typeof p === 'object' ? (p as Record<string, unknown>).description : '';
      return { name, type: schemaType(p), required: required.has(name), description: typeof d === 'string' ? cut(d, 180) : '' };
    });
}

function cut(text: string, limit: number) {
  const t = text.trim();
  return t.length > limit ? `${t.slice(0, limit - 1).trimEnd()}…` : t;
}

/** One row of `GET /api/mcp/tools`. `tool_name` (the name the model calls) is this project's addition. */
export function toolSummary(server: McpServerSummary, tool: McpToolInfo) {
  return {
    name: tool.name,
    tool_name: mcpToolName(server.name, tool.name),
    server: server.name,
    description: cut(tool.description, 360),
    active: server.active,
    enabled: server.enabled,
    status: server.status,
    schema_summary: schemaSummary(tool.inputSchema),
  };
}
