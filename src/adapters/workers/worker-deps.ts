import type { Context } from 'hono';
import type { AppDeps } from '../../deps.js';
import type { Logger } from '../../ports/platform.js';
import { parseConfig } from '../../config.js';
import { BuiltinAgentRuntime } from '../../agent/builtin/runtime.js';
import { GatewayAgentRuntime } from '../../agent/gateway/runtime.js';
import { agentWithBackend } from '../../agent/backend-choice.js';
import { RunRegistry } from '../../runs/registry.js';
import { InteractionHub } from '../../runs/interactions.js';
import { AppEvents } from '../../runs/app-events.js';
import { withSessionChangeFeed } from '../../runs/session-change-feed.js';
import { MemoryRunJournal, type RunJournal } from '../../runs/journal.js';
import { D1SessionStore } from '../storage/d1/d1-session-store.js';
import { D1AuthStore, D1EmbedTokenStore, D1JsonDocument, D1ProjectStore, D1RunStreams, D1SettingsStore, D1WorkspaceStore } from '../storage/d1/d1-stores.js';
import type { D1Database } from '../storage/d1/d1-types.js';
import { D1ShareStore } from '../storage/d1/d1-shares.js';
import { WorkersAssetSource, type AssetsBinding } from './assets.js';
import { DocumentAgentConfigSource } from './document-config-source.js';
import { DocumentMemoryHost } from './memory-host.js';
import { DocumentHermesHomes } from './document-hermes-homes.js';
import { UnavailableAttachments, UnavailableWorkspaceFiles, UnavailableWorkspaceTransfer } from './unavailable-files.js';

/** What wrangler.toml binds, plus the deployment's variables and secrets. */
export interface WorkerEnv {
  DB: D1Database;
  SESSION_RUNS: DurableObjectNamespaceLike;
  ASSETS: AssetsBinding;
  [variable: string]: unknown;
}

export interface DurableObjectNamespaceLike {
  idFromName(name: string): unknown;
  get(id: unknown): { fetch(request: Request): Promise<Response> };
}

/** Where Hermes' home is said to be on Workers (memory files are named under it; nothing is on disk). */
const HERMES_HOME = '/hermes';
const WORKSPACE = '/workspace';

/** JSON lines to the Workers log (`wrangler tail`). */
export const consoleLogger: Logger = {
  info: (record) => console.log(JSON.stringify(record)),
  error: (record) => console.error(JSON.stringify({ level: 'error', ts: new Date().toISOString(), ...record })),
};

/** The string variables of `env` (bindings are objects). */
export function variables(env: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/**
 * The app's ports on Workers: D1 for sessions, settings, auth and the rest; the builtin agent
 * with the tools that need no machine (todo, memory kept in D1, clarify); the assets binding for
 * the front end. `role` says where the deps are used: the front Worker forwards run requests to
 * the session's Durable Object; the Durable Object (`runs`) owns them, with its storage as the
 * run journal.
 */
export function buildWorkerDeps(
  env: WorkerEnv,
  role: { kind: 'front' } | { kind: 'runs'; journal: RunJournal; background: (work: Promise<unknown>) => void },
): AppDeps {
  const vars = variables(env);
  const config = parseConfig(vars, { home: '/' });
  const clock = { now: () => Date.now() / 1000 };
  const now = clock.now;
  const db = env.DB;
  const docs = (name: string) => new D1JsonDocument(db, name);
  const settings = new D1SettingsStore(db);
  // One isolate's events: each Durable Object hears its own session's runs (no cross-isolate bus here).
  const events = new AppEvents((err) => consoleLogger.error({ msg: 'an event listener failed', error: String(err) }));
  const hub = new InteractionHub(now, events);
  // HERMES_WEBUI_CHAT_BACKEND=gateway: a Hermes Agent elsewhere answers (its key is a secret).
  const gatewayKey = config.gateway.apiKey ?? vars.API_SERVER_KEY ?? null;
  const gateway = (baseUrl: string, apiKey?: string) =>
    new GatewayAgentRuntime({
      baseUrl,
      apiKey: async () => apiKey || gatewayKey,
      hub,
      logger: consoleLogger,
      now,
      readTimeoutMs: config.gateway.readTimeoutMs,
    });
  // The list's changes are told on this isolate's bus.
  const sessions = withSessionChangeFeed(new D1SessionStore(db, clock), events);
  const agentConfig = new DocumentAgentConfigSource(docs('config.yaml'), vars);
  const homes = new DocumentHermesHomes(HERMES_HOME, agentConfig, docs);
  const builtin = new BuiltinAgentRuntime({
    config: agentConfig,
    host: new DocumentMemoryHost(HERMES_HOME, docs),
    // session_search reads this deployment's sessions through D1 (there is no state.db here). The web
    // tools need only fetch; offered when config.yaml names a web backend (no DNS here: web_extract judges literal addresses only).
    toolNames: ['web_search', 'web_extract', 'todo', 'memory', 'clarify', 'session_search'],
    sessions,
    hub,
    hermesHome: HERMES_HOME,
    logger: consoleLogger,
    now,
    catalogCache: docs('models_cache.json'),
    catalogBudgetMs: config.modelsBudgetMs,
  });
  // HERMES_WEBUI_CHAT_BACKEND fixes who answers; unset, Settings choose (as on Node).
  const { runtime, backend } = agentWithBackend(config, settings, builtin, gateway);
  const streams = new D1RunStreams(db);
  const journal = role.kind === 'runs' ? role.journal : new MemoryRunJournal();
  const deps: AppDeps = {
    agent: { runtime, backend, registry: new RunRegistry({ journal, now, events }), hub },
    events,
    sessions,
    settings,
    homes,
    projects: new D1ProjectStore(db),
    workspaces: new D1WorkspaceStore(db),
    files: new UnavailableWorkspaceFiles(),
    transfer: new UnavailableWorkspaceTransfer(),
    attachments: new UnavailableAttachments(),
    assets: new WorkersAssetSource(env.ASSETS),
    // No `compression`: Cloudflare's edge compresses JSON for the client by its Accept-Encoding.
    embed: { origins: config.embedOrigins ?? [], tokens: new D1EmbedTokenStore(db) },
    auth: new D1AuthStore(db),
    // Share links: the snapshot is built from the session in D1; no file is read (there are none here).
    shares: new D1ShareStore(db, consoleLogger),
    clientAddress: (c: Context) => c.req.header('CF-Connecting-IP') ?? undefined,
    clock,
    logger: consoleLogger,
    options: {
      defaultWorkspace: vars.HERMES_WEBUI_DEFAULT_WORKSPACE || WORKSPACE,
      maxUploadBytes: config.maxUploadBytes,
      version: typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : 'dev',
      // A Worker is always reachable from the internet: it never counts as loopback.
      auth: { ...config.auth, publicBind: true },
      onboarding: config.onboarding,
      features: { files: false, uploads: false, terminal: false },
    },
  };
  if (role.kind === 'runs') deps.background = role.background;
  else deps.forwardRun = (c) => forwardToSessionRuns(c, env, streams);
  return deps;
}

declare const __APP_VERSION__: string | undefined;

/** The session a run request is about: `session_id` in the query or JSON body, or its stream's. */
async function sessionOf(c: Context, streams: D1RunStreams): Promise<string | null> {
  let sessionId = c.req.query('session_id') ?? null;
  let streamId = c.req.query('stream_id') ?? null;
  if (c.req.method === 'POST') {
    try {
      const body = JSON.parse(await c.req.text()) as Record<string, unknown>;
      if (typeof body?.session_id === 'string') sessionId ??= body.session_id;
      if (typeof body?.stream_id === 'string') streamId ??= body.stream_id;
    } catch {
      /* the Durable Object's app answers malformed JSON; without a session id it is answered here */
    }
  }
  if (sessionId) return sessionId;
  return streamId ? streams.sessionOf(streamId) : null;
}

/** Hands the request to the session's Durable Object (same URL, headers and body). */
async function forwardToSessionRuns(c: Context, env: WorkerEnv, streams: D1RunStreams): Promise<Response | null> {
  const sessionId = await sessionOf(c, streams);
  if (!sessionId || !/^[A-Za-z0-9_-]{1,64}$/.test(sessionId)) return null;
  const stub = env.SESSION_RUNS.get(env.SESSION_RUNS.idFromName(sessionId));
  const init: RequestInit = { method: c.req.method, headers: c.req.raw.headers };
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') init.body = await c.req.text();
  const res = await stub.fetch(new Request(c.req.url, init));
  // A fetched response's headers are immutable; the app's middleware still adds its own.
  return new Response(res.body, res);
}
