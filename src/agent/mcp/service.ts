import { BadRequest, Conflict, NotFound } from '../../ports/errors.js';
import { ConfigSyntaxError } from '../config-edit.js';
import type { Tool } from '../tools/types.js';
import { readMcpServers, type McpServersRead } from './config.js';
import { McpEntryError, removeMcpServer, setMcpServerEnabled, upsertMcpServer, type McpServerInput } from './config-edit.js';
import type { McpConnections } from './connections.js';
import { serverSummary, toolSummary, type McpServerSummary } from './summary.js';
import { serverTools } from './tools.js';
import { toolPassesFilter } from './naming.js';

/** A profile home's config.yaml and .env (an AgentConfigSource is one). */
export interface McpConfigFiles {
  readFiles(): Promise<{ configYaml: string | null; dotenv: string | null }>;
  /** One locked read-change-write at a time per file, replaced atomically. */
  updateConfigYaml(change: (text: string | null) => string): Promise<void>;
  readonly processEnv: Record<string, string | undefined>;
}

export interface McpServiceOptions {
  hermesHome: string;
  /** The files of a profile home; the same object for the same home, so its writes are serialised. */
  filesFor(home: string): McpConfigFiles;
  /** Null where no MCP client runs (Workers): servers are listed and edited, never connected. */
  connections: McpConnections | null;
  /** Whether a profile's home exists (Hermes creates profiles; this never does). */
  homeExists(home: string): Promise<boolean>;
}

const PROFILE = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/**
 * MCP for the routes and the builtin agent, per Hermes profile: `default` is `$HERMES_HOME`,
 * another profile is the full Hermes home `$HERMES_HOME/profiles/<name>`. Reads never start a
 * server; edits close a connection whose entry changed, and the next turn connects again.
 */
export class McpService {
  constructor(private readonly options: McpServiceOptions) {}

  /** The home of an existing profile: 400 for a name Hermes would not create, 404 for a missing one. */
  async #existingHome(profile: string | null | undefined): Promise<string> {
    const home = this.home(profile);
    if (home !== this.options.hermesHome && !(await this.options.homeExists(home))) throw new NotFound(`Profile '${profile?.trim()}' not found`);
    return home;
  }

  /** The profile's home, or 400 for a name Hermes would not create. */
  home(profile: string | null | undefined): string {
    const name = profile?.trim() || 'default';
    if (name === 'default') return this.options.hermesHome;
    if (!PROFILE.test(name)) throw new BadRequest('profile must be 1-64 lowercase letters, digits, - or _');
    return `${this.options.hermesHome.replace(/\/+$/, '')}/profiles/${name}`;
  }

  async #read(home: string): Promise<McpServersRead> {
    const files = this.options.filesFor(home);
    const { configYaml, dotenv } = await files.readFiles();
    return readMcpServers(configYaml, dotenv, files.processEnv);
  }

  async #summaries(home: string): Promise<McpServerSummary[]> {
    const { servers, raw } = await this.#read(home);
    const c = this.options.connections;
    return servers.map((s) => serverSummary(s.name, raw[s.name], c ? c.state(home, s) : null, s.enabled, s.timeoutSeconds));
  }

  async servers(profile?: string | null) {
    return { servers: await this.#summaries(await this.#existingHome(profile)), toggle_supported: true, reload_required: false };
  }

  async tools(profile?: string | null) {
    const home = await this.#existingHome(profile);
    const { servers, raw } = await this.#read(home);
    const c = this.options.connections;
    const rows: Array<ReturnType<typeof toolSummary>> = [];
    const unavailable: string[] = [];
    for (const s of servers) {
      const runtime = c ? c.state(home, s) : null;
      const summary = serverSummary(s.name, raw[s.name], runtime, s.enabled, s.timeoutSeconds);
      if (summary.enabled && !summary.active) unavailable.push(s.name);
      if (!summary.active || !runtime) continue;
      for (const t of runtime.tools) if (toolPassesFilter(t.name, s)) rows.push(toolSummary(summary, t));
    }
    rows.sort((a, b) => a.server.localeCompare(b.server) || a.name.localeCompare(b.name));
    return {
      tools: rows,
      total: rows.length,
      source: rows.length ? 'mcp_runtime_status' : 'none',
      inventory_scope: 'already_known_runtime_only',
      unavailable_servers: unavailable,
    };
  }

  async #edit(profile: string | null | undefined, change: (text: string | null) => string): Promise<string> {
    const home = await this.#existingHome(profile);
    try {
      await this.options.filesFor(home).updateConfigYaml(change);
    } catch (err) {
      if (err instanceof ConfigSyntaxError) throw new Conflict(err.message);
      if (err instanceof McpEntryError) throw err.kind === 'not_found' ? new NotFound(err.message) : new BadRequest(err.message);
      throw err;
    }
    // What changed is reconnected by the next turn; what went away stops now.
    const { servers } = await this.#read(home);
    await this.options.connections?.sync(home, servers);
    return home;
  }

  async upsert(profile: string | null | undefined, name: string, input: McpServerInput) {
    const home = await this.#edit(profile, (text) => upsertMcpServer(text, name, input));
    const summary = (await this.#summaries(home)).find((s) => s.name === name);
    return { ok: true, server: summary };
  }

  async setEnabled(profile: string | null | undefined, name: string, enabled: boolean) {
    await this.#edit(profile, (text) => setMcpServerEnabled(text, name, enabled));
    return { ok: true, name, enabled };
  }

  async remove(profile: string | null | undefined, name: string) {
    await this.#edit(profile, (text) => removeMcpServer(text, name));
    return { ok: true, deleted: name };
  }

  /** A turn's MCP tools: connects the profile's enabled servers (skipping those in their cooldown). */
  async toolsForTurn(profile: string | null | undefined): Promise<Tool[]> {
    const c = this.options.connections;
    if (!c) return [];
    let home: string;
    try {
      home = await this.#existingHome(profile);
    } catch {
      return [];
    }
    const { servers } = await this.#read(home);
    if (!servers.length) return [];
    const live = await c.ensure(home, servers);
    return live.flatMap(({ config, conn }) => serverTools(config, conn, { connections: c, home }));
  }

  shutdown(): Promise<void> {
    return this.options.connections?.shutdown() ?? Promise.resolve();
  }
}
