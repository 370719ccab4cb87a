import { request } from './client.js';

/** One row of GET /api/mcp/servers (credentials arrive masked as `••••••`). */
export interface McpServerRow {
  name: string;
  transport: 'stdio' | 'http' | 'invalid';
  url?: string;
  headers?: Record<string, string>;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  /** The tool-call timeout the agent applies; `timeout_set`: the entry sets it (else inherited). */
  timeout: number;
  timeout_set?: boolean;
  connect_timeout: number;
  enabled: boolean;
  active: boolean;
  status: 'active' | 'configured' | 'disabled' | 'invalid_config' | 'connecting' | 'failed';
  tool_count: number | null;
  error?: string;
}

/** PUT /api/mcp/servers/<name>: `url` (HTTP) or `command` (stdio); masked values sent back keep the stored ones. */
export interface McpServerInput {
  url?: string;
  headers?: Record<string, string>;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  timeout?: number;
}

/** Settings → MCP servers: config.yaml `mcp_servers` with each one's status (a read never starts a server). */
export const mcpApi = {
  servers: () => request<{ servers: McpServerRow[]; toggle_supported: boolean; reload_required: boolean }>('GET', '/api/mcp/servers'),
  save: (name: string, body: McpServerInput) => request<{ ok: true; server: McpServerRow }>('PUT', `/api/mcp/servers/${encodeURIComponent(name)}`, body),
  setEnabled: (name: string, enabled: boolean) =>
    request<{ ok: true; name: string; enabled: boolean }>('PATCH', `/api/mcp/servers/${encodeURIComponent(name)}`, { enabled }),
  remove: (name: string) => request<{ ok: true; deleted: string }>('DELETE', `/api/mcp/servers/${encodeURIComponent(name)}`),
};
