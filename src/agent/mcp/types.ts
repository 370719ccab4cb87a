import type { McpServerConfig } from './config.js';

/** One tool a connected MCP server offers, as its `tools/list` gave it. */
export interface McpToolInfo {
  name: string;
  description: string;
  inputSchema: unknown;
  /** `annotations.readOnlyHint === true`; anything else counts as write-capable. */
  readOnly: boolean;
}

export interface McpContentBlock {
  type: string;
  text?: string;
  [key: string]: unknown;
}

export interface McpCallResult {
  content: McpContentBlock[];
  isError: boolean;
  structuredContent?: unknown;
}

/** A live session with one MCP server. */
export interface McpConnection {
  readonly tools: McpToolInfo[];
  callTool(name: string, args: Record<string, unknown>, options: { timeoutMs: number; signal: AbortSignal }): Promise<McpCallResult>;
  /** Ends the session (a stdio server's process is stopped). */
  close(): Promise<void>;
  /** Called once when the session ends by itself (the process died, the HTTP session was dropped). */
  onClose(listener: (reason: string) => void): void;
}

/**
 * How the core reaches MCP servers. Node implements it with the official SDK (stdio and
 * streamable HTTP, src/adapters/mcp); a runtime without one offers no MCP tools.
 */
export interface McpConnector {
  /** Connects, initialises and lists tools within `timeoutMs`; rejects with a readable message. */
  connect(server: McpServerConfig, options: { timeoutMs: number; signal?: AbortSignal }): Promise<McpConnection>;
}
