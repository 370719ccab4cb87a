import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerConfig } from '../../agent/mcp/config.js';
import type { McpCallResult, McpConnection, McpConnector, McpToolInfo } from '../../agent/mcp/types.js';
import type { Logger } from '../../ports/platform.js';

const CLIENT_INFO = { name: 'hermes-webui', version: '1' };
/** Hermes' cap on `nextCursor` pages, so a server that always returns a cursor cannot spin us. */
const MAX_LIST_PAGES = 50;

/** The message with fetch's hidden cause (`fetch failed` alone says nothing). */
function describe(err: unknown): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  const text = String(e?.message ?? err);
  const cause = e?.cause?.code ?? e?.cause?.message;
  return cause && !text.includes(cause) ? `${text} (${cause})` : text;
}

/** A transport failure (the process or the HTTP session is gone), as opposed to the tool's own error. */
function isTransportError(err: unknown): boolean {
  const text = String((err as Error)?.message ?? err);
  return /fetch failed|ECONNREFUSED|ECONNRESET|EPIPE|socket hang up|Not connected|Connection closed|Session not found|HTTP 404/i.test(text);
}

class SdkConnection implements McpConnection {
  #listeners: Array<(reason: string) => void> = [];
  #closedReason: string | null = null;
  #closing = false;

  constructor(
    private readonly client: Client,
    private readonly transport: Transport,
    readonly tools: McpToolInfo[],
  ) {
    client.onclose = () => this.#ended('the connection closed');
  }

  #ended(reason: string) {
    if (this.#closedReason !== null || this.#closing) return;
    this.#closedReason = reason;
    for (const l of this.#listeners.splice(0)) l(reason);
  }

  onClose(listener: (reason: string) => void) {
    if (this.#closedReason !== null) listener(this.#closedReason);
    else this.#listeners.push(listener);
  }

  async callTool(name: string, args: Record<string, unknown>, options: { timeoutMs: number; signal: AbortSignal }): Promise<McpCallResult> {
    // The SDK never removes the abort listener it adds per request: give it a signal of its own
    // per call (freed with the call) rather than the turn's, which would collect one per call.
    const call = new AbortController();
    const abort = () => call.abort(options.signal.reason);
    if (options.signal.aborted) abort();
    else options.signal.addEventListener('abort', abort, { once: true });
    try {
      const result = await this.client.callTool({ name, arguments: args }, undefined, { timeout: options.timeoutMs, signal: call.signal });
      return {
        content: Array.isArray(result.content) ? (result.content as McpCallResult['content']) : [],
        isError: result.isError === true,
        ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
      };
    } catch (err) {
      // An HTTP server that went away says so only when asked: end the session so the next call reconnects.
      if (isTransportError(err)) {
        this.#ended(describe(err));
        void this.transport.close().catch(() => {});
      }
      throw err;
    } finally {
      options.signal.removeEventListener('abort', abort);
    }
  }

  async close() {
    this.#closing = true;
    const http = this.transport instanceof StreamableHTTPClientTransport ? this.transport : null;
    // A polite DELETE for the HTTP session; a server that is gone is not waited for long.
    if (http) await Promise.race([http.terminateSession().catch(() => {}), new Promise((r) => setTimeout(r, 500))]);
    await this.client.close().catch(() => {});
  }
}

async function listAllTools(client: Client, timeoutMs: number): Promise<McpToolInfo[]> {
  const out: McpToolInfo[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const res = await client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs });
    for (const t of res.tools) {
      out.push({ name: t.name, description: t.description ?? '', inputSchema: t.inputSchema, readOnly: t.annotations?.readOnlyHint === true });
    }
    cursor = typeof res.nextCursor === 'string' && res.nextCursor ? res.nextCursor : undefined;
    if (!cursor) break;
  }
  return out;
}

/**
 * MCP servers through the official SDK: stdio servers as child processes (the SDK's safe
 * default environment plus the entry's `env`; stderr goes to the log, not the terminal), HTTP
 * servers over streamable HTTP with the entry's `headers`.
 */
export class NodeMcpConnector implements McpConnector {
  constructor(
    private readonly logger: Logger,
    /** Added to every stdio server's environment (tests pass the leak check's marker). */
    private readonly extraEnv: Record<string, string> = {},
  ) {}

  async connect(server: McpServerConfig, options: { timeoutMs: number; signal?: AbortSignal }): Promise<McpConnection> {
    // After an HTTP server restarts, fetch's pool may still hold its old keep-alive sockets: each
    // failed request drops one, so a socket error is asked again a couple of times.
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#connectOnce(server, options);
      } catch (err) {
        if (server.transport !== 'http' || attempt >= 2 || !/UND_ERR_SOCKET|ECONNRESET|other side closed/.test(String((err as Error).message))) throw err;
      }
    }
  }

  async #connectOnce(server: McpServerConfig, options: { timeoutMs: number; signal?: AbortSignal }): Promise<McpConnection> {
    let transport: Transport;
    if (server.transport === 'stdio' && server.command) {
      const stdio = new StdioClientTransport({
        command: server.command,
        args: server.args,
        env: { ...getDefaultEnvironment(), ...this.extraEnv, ...server.env },
        stderr: 'pipe',
      });
      stdio.stderr?.on('data', (chunk: Buffer) => {
        const line = chunk.toString('utf8').trim();
        if (line) this.logger.info({ msg: 'mcp server stderr', server: server.name, line: line.slice(0, 500) });
      });
      transport = stdio;
    } else if (server.transport === 'http' && server.url) {
      let url: URL;
      try {
        url = new URL(server.url);
      } catch {
        throw new Error(`invalid url ${server.url}`);
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('url must be http(s)');
      transport = new StreamableHTTPClientTransport(url, { requestInit: { headers: server.headers } });
    } else {
      throw new Error('neither url nor command is configured');
    }
    const client = new Client(CLIENT_INFO, { capabilities: {} });
    try {
      await client.connect(transport, { timeout: options.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) });
      const tools = await listAllTools(client, options.timeoutMs);
      return new SdkConnection(client, transport, tools);
    } catch (err) {
      await client.close().catch(() => {});
      await transport.close().catch(() => {});
      throw new Error(describe(err));
    }
  }
}
