import type { Logger } from '../../ports/platform.js';
import type { McpServerConfig } from './config.js';
import type { McpCallResult, McpConnection, McpConnector, McpToolInfo } from './types.js';
import { sanitizeMcpError } from './tools.js';

/** What status reads see of one server's connection; never a reason to start it. */
export interface McpRuntimeState {
  state: 'connected' | 'connecting' | 'failed' | 'idle';
  tools: McpToolInfo[];
  error: string | null;
}

interface Entry {
  home: string;
  config: McpServerConfig;
  conn: McpConnection | null;
  connecting: Promise<McpConnection> | null;
  error: string | null;
  /** Consecutive failed connects: the cooldown before the next attempt doubles with each. */
  failures: number;
  retryAt: number;
  /** Automatic reconnects left after the session dropped by itself. */
  reconnectsLeft: number;
  timer: ReturnType<typeof setTimeout> | null;
  closed: boolean;
}

export interface McpConnectionsOptions {
  connector: McpConnector;
  logger: Logger;
  /** Milliseconds since the epoch (tests move it). */
  nowMs?: () => number;
  /** The first reconnect wait after a dropped session, doubling per attempt (Hermes: 1 s, capped at 60 s). */
  reconnectBaseMs?: number;
  /** The cooldown after a failed connect, doubling per failure (Hermes: 30 s, capped at 600 s). */
  connectCooldownMs?: number;
}

const MAX_RECONNECTS = 5;

/**
 * The MCP connections of every profile, keyed by `(profile home, server name)`: a profile's
 * servers and tools are never seen from another. Turns start servers (`ensure`); status reads
 * (`state`) only look. A session that drops is reconnected with backoff, and a call that finds
 * its server gone tries once more at once.
 */
export class McpConnections {
  #entries = new Map<string, Entry>();
  #stopped = false;
  constructor(private readonly options: McpConnectionsOptions) {}

  #now() {
    return this.options.nowMs ? this.options.nowMs() : Date.now();
  }

  static key(home: string, name: string) {
    return `${home}\u0000${name}`;
  }

  /** Passive: what is known about a server of a profile, without starting anything. */
  state(home: string, server: McpServerConfig): McpRuntimeState {
    const e = this.#entries.get(McpConnections.key(home, server.name));
    if (!e || e.config.fingerprint !== server.fingerprint) return { state: 'idle', tools: [], error: null };
    if (e.conn) return { state: 'connected', tools: e.conn.tools, error: null };
    if (e.connecting) return { state: 'connecting', tools: [], error: null };
    return { state: e.error ? 'failed' : 'idle', tools: [], error: e.error };
  }

  /**
   * Closes what no longer matches the profile's config (removed, disabled or changed servers)
   * without starting anything: after an edit, and before a turn connects.
   */
  async sync(home: string, servers: McpServerConfig[]): Promise<void> {
    const wanted = new Map(servers.filter((s) => s.enabled).map((s) => [s.name, s]));
    const stale: Entry[] = [];
    for (const [key, e] of this.#entries) {
      if (e.home !== home) continue;
      const want = wanted.get(e.config.name);
      if (!want || want.fingerprint !== e.config.fingerprint) {
        this.#entries.delete(key);
        stale.push(e);
      } else {
        // Timeouts, filters and trust apply without reconnecting.
        e.config = want;
      }
    }
    await Promise.all(stale.map((e) => this.#dispose(e)));
  }

  /** Connects every enabled server of the profile (those in their cooldown are skipped) and returns them. */
  async ensure(home: string, servers: McpServerConfig[]): Promise<Array<{ config: McpServerConfig; conn: McpConnection }>> {
    await this.sync(home, servers);
    const enabled = servers.filter((s) => s.enabled);
    const results = await Promise.all(enabled.map(async (config) => ({ config, conn: await this.#connected(home, config, false).catch(() => null) })));
    return results.filter((r): r is { config: McpServerConfig; conn: McpConnection } => r.conn !== null);
  }

  /**
   * A tool call; a server found disconnected is connected again first (once, now). A call whose
   * session dropped under it is asked again only for a read-only tool: a write may have landed.
   */
  async call(home: string, server: string, tool: string, args: Record<string, unknown>, signal: AbortSignal, readOnly = false): Promise<McpCallResult> {
    const e = this.#entries.get(McpConnections.key(home, server));
    if (!e) throw new Error(`MCP server '${server}' is not connected`);
    const conn = await this.#connected(home, e.config, true);
    const options = { timeoutMs: e.config.timeoutSeconds * 1000, signal };
    try {
      return await conn.callTool(tool, args, options);
    } catch (err) {
      if (!readOnly || e.conn === conn || signal.aborted) throw err;
      const again = await this.#connected(home, e.config, true);
      return again.callTool(tool, args, options);
    }
  }

  #connected(home: string, config: McpServerConfig, force: boolean): Promise<McpConnection> {
    if (this.#stopped) return Promise.reject(new Error('MCP connections are shut down'));
    const key = McpConnections.key(home, config.name);
    let e = this.#entries.get(key);
    if (!e) {
      e = { home, config, conn: null, connecting: null, error: null, failures: 0, retryAt: 0, reconnectsLeft: MAX_RECONNECTS, timer: null, closed: false };
      this.#entries.set(key, e);
    }
    if (e.conn) return Promise.resolve(e.conn);
    const entry = e;
    // A call does not settle for a background reconnect that started while the server was down.
    if (e.connecting) return force ? e.connecting.catch(() => entry.conn ?? entry.connecting ?? this.#connect(entry)) : e.connecting;
    if (!force && e.failures > 0 && this.#now() < e.retryAt) return Promise.reject(new Error(e.error ?? 'connect cooldown'));
    return this.#connect(e);
  }

  #connect(e: Entry): Promise<McpConnection> {
    if (e.timer) clearTimeout(e.timer);
    e.timer = null;
    const attempt = this.options.connector.connect(e.config, { timeoutMs: e.config.connectTimeoutSeconds * 1000 }).then(
      (conn) => {
        e.connecting = null;
        if (e.closed || this.#stopped) {
          void conn.close().catch(() => {});
          throw new Error(`MCP server '${e.config.name}' was removed while connecting`);
        }
        e.conn = conn;
        e.error = null;
        e.failures = 0;
        e.reconnectsLeft = MAX_RECONNECTS;
        conn.onClose((reason) => this.#dropped(e, conn, reason));
        this.options.logger.info({ msg: 'mcp server connected', server: e.config.name, transport: e.config.transport, tools: conn.tools.length });
        return conn;
      },
      (err: unknown) => {
        e.connecting = null;
        e.failures += 1;
        // Shown in the list and to the model: no credential from a URL or a header survives.
        e.error = sanitizeMcpError(String((err as Error)?.message ?? err));
        const base = this.options.connectCooldownMs ?? 30_000;
        e.retryAt = this.#now() + Math.min(base * 2 ** (e.failures - 1), 20 * base);
        this.options.logger.info({ msg: 'mcp server failed to connect', server: e.config.name, error: e.error });
        throw new Error(`MCP server '${e.config.name}' could not connect: ${e.error}`);
      },
    );
    e.connecting = attempt;
    return attempt;
  }

  /** The session ended by itself: forget it and reconnect with backoff, a few times. */
  #dropped(e: Entry, conn: McpConnection, reason: string) {
    if (e.conn !== conn) return;
    e.conn = null;
    e.error = sanitizeMcpError(`disconnected: ${reason}`);
    if (e.closed || this.#stopped || e.reconnectsLeft <= 0) return;
    const attempt = MAX_RECONNECTS - e.reconnectsLeft;
    e.reconnectsLeft -= 1;
    const base = this.options.reconnectBaseMs ?? 1000;
    const wait = Math.min(base * 2 ** attempt, 60 * base);
    this.options.logger.info({ msg: 'mcp server dropped; reconnecting', server: e.config.name, reason, wait_ms: wait });
    e.timer = setTimeout(() => {
      e.timer = null;
      if (!e.conn && !e.connecting && !e.closed && !this.#stopped) this.#connect(e).catch(() => {});
    }, wait);
    (e.timer as { unref?: () => void }).unref?.();
  }

  async #dispose(e: Entry) {
    e.closed = true;
    if (e.timer) clearTimeout(e.timer);
    e.timer = null;
    const conn = e.conn ?? (await e.connecting?.catch(() => null)) ?? null;
    e.conn = null;
    await conn?.close().catch(() => {});
  }

  /** Stops every server of every profile (server shutdown, tests). */
  async shutdown(): Promise<void> {
    this.#stopped = true;
    const all = [...this.#entries.values()];
    this.#entries.clear();
    await Promise.all(all.map((e) => this.#dispose(e)));
  }
}
