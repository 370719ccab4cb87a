import type { BackoffPolicy } from '../agent/providers/retry.js';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { homedir } from 'node:os';
import { isLoopbackHost, type Config } from '../config.js';
import type { AppDeps } from '../deps.js';
import type { Clock, Logger } from '../ports/platform.js';
import { FsSessionStore } from '../adapters/storage/fs/fs-session-store.js';
import { FsProjectStore, FsSettingsStore, FsWorkspaceStore } from '../adapters/storage/fs/fs-stores.js';
import { MemorySessionStore } from '../adapters/storage/memory/memory-session-store.js';
import { MemoryProjectStore, MemorySettingsStore, MemoryWorkspaceStore } from '../adapters/storage/memory/memory-stores.js';
import { NodeWorkspaceFiles } from '../adapters/platform/node-workspace-files.js';
import { NodeFolderSuggestions } from '../adapters/platform/node-folder-suggestions.js';
import { NodeAttachmentStore } from '../adapters/platform/node-attachments.js';
import { NodeMediaFiles } from '../adapters/platform/node-media-files.js';
import { NodeCompressor } from '../adapters/platform/node-compression.js';
import { NodeAssetSource } from '../adapters/platform/node-assets.js';
import { NodeHermesHomes } from '../adapters/platform/node-hermes-homes.js';
import { NodeToolHost } from '../adapters/platform/node-tool-host.js';
import { FsRunJournal } from '../adapters/storage/fs/fs-run-journal.js';
import { MemoryRunJournal } from '../runs/journal.js';
import { RunRegistry } from '../runs/registry.js';
import { presenter } from '../http/redaction.js';
import { InteractionHub } from '../runs/interactions.js';
import { recoverInterruptedTurns } from '../runs/recovery.js';
import { BuiltinAgentRuntime, type BuiltinRuntimeOptions } from '../agent/builtin/runtime.js';
import { lookupAddresses } from '../adapters/platform/node-dns.js';
import { agentWithBackend } from '../agent/backend-choice.js';
import { ProcessRegistry } from '../agent/tools/process-registry.js';
import { GatewayAgentRuntime } from '../agent/gateway/runtime.js';
import { gatewayApiKey } from '../adapters/platform/node-gateway-key.js';
import { NodeHermesStateDb } from '../adapters/platform/node-hermes-state-db.js';
import { FsEmbedTokenStore } from '../adapters/storage/fs/fs-embed-tokens.js';
import { MemoryEmbedTokenStore } from '../adapters/storage/memory/memory-embed-tokens.js';
import { FsAuthStore } from '../adapters/storage/fs/fs-auth-store.js';
import { FsJsonDocument } from '../adapters/storage/fs/fs-json-document.js';
import { MemoryAuthStore } from '../adapters/storage/memory/memory-auth-store.js';
import { McpService } from '../agent/mcp/service.js';
import { McpConnections } from '../agent/mcp/connections.js';
import { NodeMcpConnector } from '../adapters/mcp/node-mcp-connector.js';
import { NodeLogFile, teeLogger } from '../adapters/platform/node-log-file.js';
import { redactingLogger } from '../http/redacting-logger.js';

declare const __APP_VERSION__: string | undefined;
const VERSION = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : 'dev';

/**
 * What a caller may put in place of the real thing: fakes and test-only knobs, never another
 * wiring. The server passes none.
 */
export interface NodeDepsOverrides {
  clock?: Clock;
  /** Who is connecting (the server asks the socket; `app.request` in tests has none). */
  clientAddress?: (c: Context) => string | undefined;
  /** The version reported by /health and settings (default: the build's). */
  version?: string;
  /** JSON bodies larger than this are refused with 413 (default: the app's). */
  maxJsonBytes?: number;
  /** How long finished runs stay in memory (0: replays come from the journal at once). */
  keepFinishedMs?: number;
  /** How long the builtin agent's clarify question waits for an answer. */
  clarifyTimeoutMs?: number;
  /** Model-call retry waits (tests shorten them; Retry-After is still honoured as sent). */
  backoff?: Partial<BackoffPolicy>;
  /** Scripted servers standing in for the hosted web search APIs (Tavily, Exa, Firecrawl, Brave): tests only. */
  webEndpoints?: BuiltinRuntimeOptions['webEndpoints'];
  /** MCP reconnect waits (tests shorten them). */
  mcp?: { reconnectBaseMs?: number; connectCooldownMs?: number };
  /** Added to stdio MCP servers' environment (the tests' leak-check marker). */
  mcpChildEnv?: Record<string, string>;
}

/** The socket's address; undefined where the request came through no Node socket. */
function socketAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

/** One value per key, made on first use and kept (one store per profile home, so writes to a file are serialised). */
function keyedBy<A, V>(key: (arg: A) => string, make: (arg: A) => V): (arg: A) => V {
  const made = new Map<string, V>();
  return (arg) => {
    const k = key(arg);
    let value = made.get(k);
    if (!value) made.set(k, (value = make(arg)));
    return value;
  };
}

/**
 * The one place the Node dependencies are built from a configuration — by the server
 * (src/entry/node.ts) and by the tests (tests/helpers/app.ts), so tests run the wiring
 * production runs. The state directory and default workspace are created if missing, and
 * turns that were running when the process last died are closed before anything is served.
 *
 * `env` is the environment the agent sees (provider keys, `API_SERVER_KEY`): the server passes
 * its own, tests a made-up one.
 *
 * @example
 * const deps = await composeNodeDeps(parseConfig(process.env, { home }), { logger, env: process.env, publicDir });
 */
export async function composeNodeDeps(
  config: Config,
  parts: { logger: Logger; env: Record<string, string | undefined>; publicDir: string; overrides?: NodeDepsOverrides },
): Promise<AppDeps> {
  const { env, publicDir, overrides = {} } = parts;
  const clock = overrides.clock ?? { now: () => Date.now() / 1000 };
  const now = () => clock.now();
  await mkdir(config.stateDir, { recursive: true });
  // Every line also goes to <state dir>/logs/webui.log (GET /api/logs?file=webui), masked: a file outlives the terminal.
  await mkdir(join(config.stateDir, 'logs'), { recursive: true });
  const serverLog = new NodeLogFile(join(config.stateDir, 'logs', 'webui.log'), {
    ...config.serverLog,
    onError: (err) => parts.logger.error({ msg: 'writing the log file failed', error: String(err) }),
  });
  const logger = teeLogger(parts.logger, redactingLogger(serverLog));
  await mkdir(config.defaultWorkspace, { recursive: true });
  const files = new NodeWorkspaceFiles();
  const defaultWorkspace = await files.checkWorkspace(config.defaultWorkspace);
  const fs = config.storage === 'fs';
  const settings = fs ? new FsSettingsStore(config.stateDir, logger) : new MemorySettingsStore();
  const sessions = fs ? new FsSessionStore({ stateDir: config.stateDir, clock, logger }) : new MemorySessionStore(clock);
  await sessions.init();
  const journal = fs ? new FsRunJournal(config.stateDir, logger) : new MemoryRunJournal();
  // Turns that were running when the process last died are closed and marked before serving.
  await recoverInterruptedTurns({ sessions, journal, logger, now });
  const hub = new InteractionHub(now);
  // One HermesHome per profile home, so every write to one file goes through one lock.
  const homes = new NodeHermesHomes(config.hermesHome, env);
  const agentConfig = homes.defaultHome.config;
  const mcp = new McpService({
    hermesHome: config.hermesHome,
    filesFor: (home) => homes.homeAt(home).config,
    homeExists: async (home) => (await stat(home).catch(() => null))?.isDirectory() ?? false,
    connections: new McpConnections({ connector: new NodeMcpConnector(logger, overrides.mcpChildEnv ?? {}), logger, ...overrides.mcp }),
  });
  // Hermes' own sessions (CLI, Telegram …), read-only: the sidebar lists them, session_search searches them.
  const agentSessions = new NodeHermesStateDb(join(config.hermesHome, 'state.db'), logger);
  // Each profile's own state.db (Insights covers the request's profile).
  const stateDbs = new Map<string, NodeHermesStateDb>([[config.hermesHome, agentSessions]]);
  const agentSessionsFor = (home: { root: string }) => {
    let db = stateDbs.get(home.root);
    if (!db) stateDbs.set(home.root, (db = new NodeHermesStateDb(join(home.root, 'state.db'), logger)));
    return db;
  };
  // One journal write and one socket write per watcher for each event-loop turn's frames.
  const registry = new RunRegistry({
    journal,
    now,
    defer: (send) => void setImmediate(send),
    ...(overrides.keepFinishedMs !== undefined ? { keepFinishedMs: overrides.keepFinishedMs } : {}),
  });
  const host = new NodeToolHost();
  // One store: the upload route writes it, the builtin agent reads this turn's files from it.
  const attachments = new NodeAttachmentStore(config.stateDir);
  // Background processes outlive turns; session delete and shutdown stop them (deps.agent.processes).
  const processes = new ProcessRegistry(host);
  const builtin = new BuiltinAgentRuntime({
    config: agentConfig,
    mcp,
    host,
    processes,
    hub,
    hermesHome: config.hermesHome,
    logger,
    now,
    catalogCache: fs ? new FsJsonDocument(join(config.stateDir, 'models_cache.json'), logger) : undefined,
    catalogBudgetMs: config.modelsBudgetMs,
    sessions,
    agentSessions,
    agentSessionsFor,
    platform: process.platform,
    ...(overrides.clarifyTimeoutMs ? { clarifyTimeoutMs: overrides.clarifyTimeoutMs } : {}),
    ...(overrides.backoff ? { backoff: overrides.backoff } : {}),
    lookupHost: lookupAddresses,
    ...(overrides.webEndpoints ? { webEndpoints: overrides.webEndpoints } : {}),
    // delegate_task's children are sessions and runs like any other (openable, cancellable).
    childRuns: { sessions, registry, logger, presenter: () => presenter(settings) },
    attachments,
  });
  // A Hermes Agent's API server; its key is HERMES_WEBUI_GATEWAY_API_KEY (or one typed in the
  // wizard's probe), else Hermes' own API_SERVER_KEY.
  const gateway = (baseUrl: string, apiKey?: string) =>
    new GatewayAgentRuntime({
      baseUrl,
      apiKey: gatewayApiKey(config.hermesHome, apiKey || config.gateway.apiKey, env),
      hub,
      logger,
      now,
      readTimeoutMs: config.gateway.readTimeoutMs,
    });
  // HERMES_WEBUI_CHAT_BACKEND fixes who answers; unset, Settings (or the first-run wizard) choose.
  const { runtime, backend } = agentWithBackend(config, settings, builtin, gateway);
  return {
    agent: {
      runtime,
      backend,
      registry,
      hub,
      processes,
    },
    sessions,
    settings,
    homes,
    agentConfig,
    mcp,
    projects: fs ? new FsProjectStore(config.stateDir, logger) : new MemoryProjectStore(),
    workspaces: fs ? new FsWorkspaceStore(config.stateDir, logger) : new MemoryWorkspaceStore(),
    // A named profile's list lives in its home, where the incumbent keeps it (webui_state/).
    workspacesFor: keyedBy(
      (home) => home.root,
      (home) => (fs ? new FsWorkspaceStore(join(home.root, 'webui_state'), logger) : new MemoryWorkspaceStore()),
    ),
    files,
    // "Add folder…" completes under the user's home as well as the saved workspaces (as the incumbent).
    folders: new NodeFolderSuggestions(homedir()),
    attachments,
    media: new NodeMediaFiles({ stateDir: config.stateDir, hermesHome: config.hermesHome, extraRoots: config.mediaAllowedRoots }),
    assets: new NodeAssetSource(publicDir),
    // JSON answers by Accept-Encoding (brotli, else gzip).
    compression: new NodeCompressor(),
    embed: { origins: config.embedOrigins ?? [], tokens: fs ? new FsEmbedTokenStore(config.stateDir, logger) : new MemoryEmbedTokenStore() },
    auth: fs ? new FsAuthStore(config.stateDir, logger) : new MemoryAuthStore(),
    // Listed when show_cli_sessions is on.
    agentSessions,
    agentSessionsFor,
    clientAddress: overrides.clientAddress ?? socketAddress,
    clock,
    logger,
    serverLog,
    options: {
      defaultWorkspace,
      maxUploadBytes: config.maxUploadBytes,
      ...(overrides.maxJsonBytes !== undefined ? { maxJsonBytes: overrides.maxJsonBytes } : {}),
      version: overrides.version ?? VERSION,
      auth: { ...config.auth, publicBind: !isLoopbackHost(config.host) },
      onboarding: config.onboarding,
      machine: { platform: process.platform, homeDir: homedir() },
    },
  };
}
