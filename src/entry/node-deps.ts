import type { BackoffPolicy } from '../agent/providers/retry.js';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { homedir, hostname } from 'node:os';
import { isLoopbackHost, type Config } from '../config.js';
import type { AppDeps } from '../deps.js';
import type { Clock, Logger } from '../ports/platform.js';
import { NodeWorkspaceFiles } from '../adapters/platform/node-workspace-files.js';
import { NodeSavedPrompts } from '../adapters/platform/node-saved-prompts.js';
import { NodeSystemHealth } from '../adapters/platform/node-system-health.js';
import { NodeWorkspaceTransfer } from '../adapters/platform/node-workspace-transfer.js';
import { NodeFolderSuggestions } from '../adapters/platform/node-folder-suggestions.js';
import { NodeAttachmentStore } from '../adapters/platform/node-attachments.js';
import { NodeMediaFiles } from '../adapters/platform/node-media-files.js';
import { NodeCompressor } from '../adapters/platform/node-compression.js';
import { NodeAssetSource } from '../adapters/platform/node-assets.js';
import { NodeHermesHomes } from '../adapters/platform/node-hermes-homes.js';
import { NodePrefillIo } from '../adapters/platform/node-prefill.js';
import { NodeGitRunner } from '../adapters/platform/node-git.js';
import { NodeWorkspaceSnapshots } from '../adapters/platform/node-workspace-snapshots.js';
import { NodeToolHost } from '../adapters/platform/node-tool-host.js';
import { NodePtyHost } from '../adapters/platform/node-pty-host.js';
import { TerminalRegistry } from '../terminal/registry.js';
import { RunRegistry } from '../runs/registry.js';
import { presenter } from '../http/redaction.js';
import { InteractionHub } from '../runs/interactions.js';
import { AppEvents } from '../runs/app-events.js';
import { withSessionChangeFeed } from '../runs/session-change-feed.js';
import { relayAppEvents } from '../runs/cluster-relay.js';
import { LocalCronService } from '../domain/cron/local-cron-service.js';
import { TaskScheduler, type SchedulerTimer } from '../runs/task-scheduler.js';
import { taskRunner } from '../runs/task-run.js';
import { ScheduledTasks, profileNextRunAt } from '../runs/scheduled-tasks.js';
import { BuiltinAgentRuntime, type BuiltinRuntimeOptions } from '../agent/builtin/runtime.js';
import { lookupAddresses } from '../adapters/platform/node-dns.js';
import { agentWithBackend } from '../agent/backend-choice.js';
import { ProcessRegistry } from '../agent/tools/process-registry.js';
import { GatewayAgentRuntime } from '../agent/gateway/runtime.js';
import { GatewayJobsApi } from '../agent/gateway/gateway-jobs.js';
import { GatewayHttp } from '../agent/gateway/http.js';
import { withGatewayJobs } from '../domain/cron/gateway-cron-service.js';
import { gatewayApiKey } from '../adapters/platform/node-gateway-key.js';
import { NodeHermesStateDb } from '../adapters/platform/node-hermes-state-db.js';
import { McpService } from '../agent/mcp/service.js';
import { McpConnections } from '../agent/mcp/connections.js';
import { NodeMcpConnector } from '../adapters/mcp/node-mcp-connector.js';
import { NodeLogFile, teeLogger } from '../adapters/platform/node-log-file.js';
import { redactingLogger } from '../http/redacting-logger.js';
import { composeNodePush } from './node-push.js';
import { composeNodeStorage, type NodeStorage } from './node-storage.js';
import { joinRunCluster, runOwnershipFor, type RunLeaseTimings } from './node-run-ownership.js';
import { recoverNodeTurns } from './node-resume.js';

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
  /** The task scheduler's tick period, lease length and timer (tests drive them). */
  scheduler?: { tickMs?: number; leaseTtlMs?: number; timer?: SchedulerTimer };
  /** Run lease TTL, renewal and takeover periods (tests of several instances shorten them). */
  runLease?: RunLeaseTimings;
  /**
   * Stores shared by several in-process instances (tests of run ownership, with a cluster
   * between them) in place of the ones `config.storage` names.
   */
  storage?: NodeStorage;
  /**
   * The embedded terminal's knobs: idle grace and sweep period (ms), heartbeat period, the
   * engine (`script`: the util-linux fallback), and what its shells' environment also carries
   * (the tests' leak-check marker).
   */
  terminal?: { idleMs?: number; reapEveryMs?: number; heartbeatMs?: number; engine?: 'auto' | 'script'; childEnv?: Record<string, string> };
}

/** Node's timers, unref'd: a pending tick never holds the process open. */
const nodeTimer: SchedulerTimer = {
  set(fn, ms) {
    const t = setTimeout(fn, ms);
    t.unref();
    return t;
  },
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** The socket's address; undefined where the request came through no Node socket. */
function socketAddress(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

/**
 * The one place the Node dependencies are built from a configuration — by the server
 * (src/entry/node.ts) and by the tests (tests/helpers/app.ts), so tests run the wiring
 * production runs. The state directory and default workspace are created if missing, and
 * turns that were running when the process last died carry on or are closed (node-resume.ts)
 * before anything is served.
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
  const files = new NodeWorkspaceFiles(env.HOME || homedir());
  const defaultWorkspace = await files.checkWorkspace(config.defaultWorkspace);
  const instanceId = config.instanceId ?? `${hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
  const storage = overrides.storage ?? (await composeNodeStorage(config, { logger, clock, instanceId }));
  const { settings, journal } = storage;
  const events = new AppEvents((err) => logger.error({ msg: 'an event listener failed', error: String(err) }));
  // Every change of the session list is told on the bus (live sync, notifications).
  const sessions = withSessionChangeFeed(storage.sessions, events);
  // Several instances: what happens here is told there, and theirs shown here (never pushed twice).
  if (storage.cluster) relayAppEvents(events, storage.cluster);
  await sessions.init();
  const hub = new InteractionHub(now, events);
  // One HermesHome per profile home, so every write to one file goes through one lock.
  // HERMES_CONFIG_PATH moves the default profile's config.yaml (read and written there).
  const homes = new NodeHermesHomes(config.hermesHome, env, config.hermesConfigPath);
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
    events,
    defer: (send) => void setImmediate(send),
    ownership: runOwnershipFor(storage.cluster, storage.leases, logger, overrides.runLease),
    ...(overrides.keepFinishedMs !== undefined ? { keepFinishedMs: overrides.keepFinishedMs } : {}),
  });
  const host = new NodeToolHost();
  const git = new NodeGitRunner(env);
  // What each turn changed in its workspace: git's object store in a repository (a scratch index
  // per workspace under the state dir, never the user's), a stat walk with a content cache elsewhere.
  const changes = { snapshots: new NodeWorkspaceSnapshots({ git, scratchDir: join(config.stateDir, 'snapshot_index') }), store: storage.turnChanges };
  // One store: the upload route writes it, the builtin agent reads this turn's files from it.
  const attachments = new NodeAttachmentStore(config.stateDir);
  // Background processes outlive turns; session delete and shutdown stop them (deps.agent.processes).
  const processes = new ProcessRegistry(host);
  // Browser-turn prefill (HERMES_WEBUI_PREFILL_* over config.yaml's keys), for either backend.
  const prefill = { env: config.prefill, io: new NodePrefillIo(env), homeDir: homedir() };
  const builtin = new BuiltinAgentRuntime({
    config: agentConfig,
    mcp,
    host,
    processes,
    hub,
    hermesHome: config.hermesHome,
    logger,
    now,
    catalogCache: storage.catalogCache,
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
    prefill,
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
      prefill: { ...prefill, config: agentConfig },
    });
  // HERMES_WEBUI_CHAT_BACKEND fixes who answers; unset, Settings (or the first-run wizard) choose.
  const { runtime, backend } = agentWithBackend(config, settings, builtin, gateway);
  // Scheduled tasks: each profile's cron/jobs.json, run here by the built-in agent unless the
  // gateway answers chat turns (its own ticker runs them) or HERMES_WEBUI_SCHEDULER=off.
  // The cron code counts milliseconds; deps.clock counts seconds.
  const cronJobs = new LocalCronService({ now: () => clock.now() * 1000 });
  const gatewayRuns = async () => (await backend.current()).backend === 'gateway';
  const scheduler =
    config.scheduler === 'off'
      ? null
      : new TaskScheduler({
          homes,
          storeFor: (home) => cronJobs.storeFor(home),
          // A lease per job run, shared by every server on this storage: two never run one job twice.
          leases: storage.leases,
          owner: instanceId,
          now: () => clock.now() * 1000,
          timer: overrides.scheduler?.timer ?? nodeTimer,
          nextRunAt: profileNextRunAt,
          runTask: taskRunner({
            sessions,
            registry,
            runtime: builtin,
            logger,
            now,
            workspace: defaultWorkspace,
            presenter: () => presenter(settings),
            changes,
          }),
          events,
          logger,
          active: async () => !(await gatewayRuns()),
          ...(overrides.scheduler?.tickMs !== undefined ? { tickMs: overrides.scheduler.tickMs } : {}),
          ...(overrides.scheduler?.leaseTtlMs !== undefined ? { leaseTtlMs: overrides.scheduler.leaseTtlMs } : {}),
        });
  // Web Push: approvals, questions, finished turns and tasks reach subscribed browsers.
  const push = composeNodePush(config, { logger, events, sessions, settings, store: storage.pushStore });
  const deps: AppDeps = {
    agent: {
      runtime,
      backend,
      registry,
      hub,
      processes,
    },
    events,
    push,
    cron: new ScheduledTasks((home) => cronJobs.storeFor(home), scheduler, gatewayRuns),
    sessions,
    settings,
    homes,
    agentConfig,
    mcp,
    projects: storage.projects,
    workspaces: storage.workspaces,
    workspacesFor: storage.workspacesFor,
    files,
    transfer: new NodeWorkspaceTransfer(config.stateDir, config.transfer),
    // "Add folder…" completes under the user's home as well as the saved workspaces (as the incumbent).
    folders: new NodeFolderSuggestions(homedir()),
    attachments,
    media: new NodeMediaFiles({ stateDir: config.stateDir, hermesHome: config.hermesHome, extraRoots: config.mediaAllowedRoots }),
    assets: new NodeAssetSource(publicDir),
    // JSON answers by Accept-Encoding (brotli, else gzip).
    compression: new NodeCompressor(),
    embed: { origins: config.embedOrigins ?? [], tokens: storage.embedTokens },
    shares: storage.shares,
    prompts: new NodeSavedPrompts(),
    systemHealth: new NodeSystemHealth(),
    auth: storage.auth,
    // Listed when show_cli_sessions is on.
    agentSessions,
    agentSessionsFor,
    clientAddress: overrides.clientAddress ?? socketAddress,
    ...(storage.cluster ? { cluster: storage.cluster } : {}),
    // The git panel and turn change records (scrubbed environment, no prompts, timeouts).
    git,
    changes,
    // The terminal panel's shells: the server's environment without provider keys or secrets.
    terminals: new TerminalRegistry({
      host: new NodePtyHost({ extraEnv: overrides.terminal?.childEnv ?? {}, engine: overrides.terminal?.engine ?? 'auto' }),
      ...(overrides.terminal?.idleMs !== undefined ? { idleMs: overrides.terminal.idleMs } : {}),
      ...(overrides.terminal?.reapEveryMs !== undefined ? { reapEveryMs: overrides.terminal.reapEveryMs } : {}),
      ...(overrides.terminal?.heartbeatMs !== undefined ? { heartbeatMs: overrides.terminal.heartbeatMs } : {}),
    }),
    closeStorage: storage.close,
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
      gitDestructive: config.gitDestructive,
      machine: { platform: process.platform, homeDir: homedir() },
    },
  };
  // With the gateway as chat backend Hermes' own ticker runs the jobs: its jobs API (when offered) replaces local scheduling.
  if (deps.cron) deps.cron = withGatewayJobs(deps.cron, { backend, api: (baseUrl) => gatewayJobsApi(baseUrl, config, env) });
  // One process: turns that were running when it last died carry on (or are closed) before serving.
  // Several instances: only the turns nobody holds, by the takeover sweep (joinRunCluster).
  await recoverNodeTurns(deps, config, builtin, { atStart: !storage.cluster });
  if (storage.cluster) {
    const cluster = storage.cluster;
    const leave = await joinRunCluster(deps, {
      cluster,
      registry,
      sessions,
      logger,
      now,
      ...(deps.agent.resumeTurn ? { takeOver: deps.agent.resumeTurn } : {}),
      ...(overrides.runLease?.takeoverMs !== undefined ? { takeoverMs: overrides.runLease.takeoverMs } : {}),
    });
    deps.closeStorage = async () => {
      leave();
      await storage.close();
    };
  }
  return deps;
}

function gatewayJobsApi(baseUrl: string, config: Config, env: Record<string, string | undefined>): GatewayJobsApi {
  return new GatewayJobsApi(new GatewayHttp({ baseUrl, apiKey: gatewayApiKey(config.hermesHome, config.gateway.apiKey, env) }));
}
