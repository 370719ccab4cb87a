import type { Logger } from '../../ports/platform.js';
import type { InteractionHub } from '../../runs/interactions.js';
import type { AgentConfigSource } from '../config-source.js';
import type { CatalogCache } from '../catalog/catalog.js';
import type { BackoffPolicy } from '../providers/retry.js';
import type { ProcessRegistry } from '../tools/process-registry.js';
import type { Tool, ToolHost, WebToolContext } from '../tools/types.js';
import type { AgentSessionSearch } from '../../ports/agent-sessions.js';
import type { SessionStore } from '../../ports/session-store.js';
import type { ChildRunDeps } from './subagents.js';
import type { AttachmentReader } from './attachment-content.js';
import type { TurnPrefillSource } from '../prefill-turn.js';

/** What the builtin agent is built from (the composition root passes the runtime's adapters). */
export interface BuiltinRuntimeOptions {
  config: AgentConfigSource;
  /** The machine the tools act on; null where there is none (Workers): only host-free tools then. */
  host: ToolHost | null;
  hub: InteractionHub;
  hermesHome: string;
  logger: Logger;
  now: () => number;
  fetch?: typeof fetch;
  /** Overrides of the model-call retry waits (tests make them short); the count is config.yaml's `agent.api_max_retries`. */
  backoff?: Partial<BackoffPolicy>;
  /** How long a clarifying question waits for an answer. */
  clarifyTimeoutMs?: number;
  /** Where the model catalog's last probes are kept (`models_cache.json`); memory when absent. */
  catalogCache?: CatalogCache;
  /** How long GET /api/models waits for provider probes (default 4 s). */
  catalogBudgetMs?: number;
  /**
   * The tools offered to the model (default: all with a host, else the host-free ones). Workers
   * pass `todo`, `memory` and `clarify`, with a host that only keeps memory files.
   */
  toolNames?: string[];
  /** This server's sessions, for session_search. */
  sessions?: SessionStore;
  /** Hermes' state.db, for session_search (Node). */
  agentSessions?: AgentSessionSearch;
  /** A profile home's own state.db (session_search in a profile's session searches that profile's). */
  agentSessionsFor?: (home: { root: string }) => AgentSessionSearch;
  /** `process.platform` where known: skills' `platforms` filter (default linux). */
  platform?: string;
  /** Resolves host names for web_extract's address checks (Node: dns); literal addresses only without. */
  lookupHost?: WebToolContext['lookup'];
  /** Test seam: scripted servers in place of the hosted web APIs (NodeDepsOverrides.webEndpoints). */
  webEndpoints?: WebToolContext['endpoints'];
  /** Where delegate_task's children run as sessions and runs of their own; without it the tool is not offered. */
  childRuns?: ChildRunDeps;
  /** Background processes (`terminal` background:true, `process`); absent where the host cannot spawn. */
  processes?: ProcessRegistry;
  /** The configured MCP servers' tools for a session's profile (connecting them); absent: none. */
  mcp?: { toolsForTurn(profile: string | null): Promise<Tool[]> };
  /** The session's uploads, read when a turn's model request is built (images, inlined text files). */
  attachments?: AttachmentReader;
  /** Browser-turn prefill context (src/agent/prefill-turn.ts); absent: none. */
  prefill?: TurnPrefillSource;
}

export class MemoryCatalogCache implements CatalogCache {
  #value: unknown = null;
  async read() {
    return this.#value;
  }
  async write(value: unknown) {
    this.#value = value;
  }
}

export function webSeams(o: BuiltinRuntimeOptions): Omit<WebToolContext, 'config'> {
  return { ...(o.lookupHost ? { lookup: o.lookupHost } : {}), ...(o.webEndpoints ? { endpoints: o.webEndpoints } : {}) };
}

/** Stands in for a missing host; the tools that need one are not offered, so this never runs. */
export const unavailableHost: ToolHost = {
  homeDir: '/',
  exec: async () => ({ output: 'No shell on this runtime', exitCode: null, timedOut: false, truncated: false }),
  readText: async () => null,
  writeText: async () => {
    throw new Error('No file system on this runtime');
  },
  stat: async () => null,
  search: async () => ({ matches: [], total: 0, truncated: false, engine: 'js' }),
};
