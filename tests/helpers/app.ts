import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type AppDeps } from '../../src/app.js';
import type { Logger } from '../../src/ports/platform.js';
import { MemorySessionStore } from '../../src/adapters/storage/memory/memory-session-store.js';
import { MemoryProjectStore, MemorySettingsStore, MemoryWorkspaceStore } from '../../src/adapters/storage/memory/memory-stores.js';
import { FsSessionStore } from '../../src/adapters/storage/fs/fs-session-store.js';
import { FsProjectStore, FsSettingsStore, FsWorkspaceStore } from '../../src/adapters/storage/fs/fs-stores.js';
import { NodeWorkspaceFiles } from '../../src/adapters/platform/node-workspace-files.js';
import { NodeAttachmentStore } from '../../src/adapters/platform/node-attachments.js';
import { NodeAssetSource } from '../../src/adapters/platform/node-assets.js';
import { NodeAgentConfigSource } from '../../src/adapters/platform/node-agent-config.js';
import { NodeToolHost } from '../../src/adapters/platform/node-tool-host.js';
import { FsRunJournal } from '../../src/adapters/storage/fs/fs-run-journal.js';
import { MemoryRunJournal } from '../../src/runs/journal.js';
import { RunRegistry } from '../../src/runs/registry.js';
import { InteractionHub } from '../../src/runs/interactions.js';
import { BuiltinAgentRuntime } from '../../src/agent/builtin/runtime.js';
import type { AgentRuntime } from '../../src/agent/runtime.js';
import type { BackoffPolicy } from '../../src/agent/providers/retry.js';
import type { AgentSessionSource } from '../../src/ports/agent-sessions.js';
import { MemoryAuthStore } from '../../src/adapters/storage/memory/memory-auth-store.js';
import { FsAuthStore } from '../../src/adapters/storage/fs/fs-auth-store.js';
import type { AppOptions } from '../../src/deps.js';
import { SwitchingRuntime } from '../../src/agent/switching-runtime.js';
import { settingsBackendChoice } from '../../src/agent/backend-choice.js';
import { hashPassword } from '../../src/auth/password.js';

export interface TestLogger extends Logger {
  lines: Record<string, unknown>[];
  errors: Record<string, unknown>[];
}

export function memoryLogger(): TestLogger {
  const lines: Record<string, unknown>[] = [];
  const errors: Record<string, unknown>[] = [];
  return { lines, errors, info: (r) => lines.push(r), error: (r) => errors.push(r) };
}

export interface TestApp {
  app: ReturnType<typeof createApp>;
  deps: AppDeps;
  logger: TestLogger;
  /** A temp directory holding the state dir, the default workspace and public/. */
  dir: string;
  stateDir: string;
  workspace: string;
  /** `$HERMES_HOME` for the agent (config.yaml, .env, memories). */
  hermesHome: string;
  /** JSON request helper: returns status and parsed body. */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; res: Response }>;
  /** Stores `password` (cheaply hashed) as the settings password: auth is on from now. */
  setPassword(password: string): Promise<void>;
  /** Signs in and returns the `Cookie` header value and the session's CSRF token. */
  signIn(password: string): Promise<{ cookie: string; csrf: string }>;
  /** Creates a session and returns its id. */
  newSession(body?: Record<string, unknown>): Promise<string>;
  close(): Promise<void>;
}

/**
 * A real app over temp directories: memory stores by default, or the fs adapter with
 * `{ storage: 'fs' }`; files and uploads always use the real Node adapters.
 */
export async function makeTestApp(
  options: {
    storage?: 'memory' | 'fs';
    maxUploadBytes?: number;
    maxJsonBytes?: number;
    /** Written to `$HERMES_HOME/config.yaml`. */
    configYaml?: string;
    /** The environment the agent sees (never the test process's own). */
    agentEnv?: Record<string, string>;
    clarifyTimeoutMs?: number;
    /** Model-call retry waits (default: a few ms, so a retried failure costs a test nothing; Retry-After is still honoured as sent). */
    backoff?: Partial<BackoffPolicy>;
    /** How long finished runs stay in memory (0: replays come from the journal at once). */
    keepFinishedMs?: number;
    /** Password, cookie and origin rules. */
    auth?: AppOptions['auth'];
    /** The socket address requests seem to come from (default 127.0.0.1). */
    clientAddress?: string;
    /** How long GET /api/models waits for provider probes (default 500 ms here). */
    catalogBudgetMs?: number;
    onboarding?: AppOptions['onboarding'];
    /** Another agent runtime instead of the builtin one (e.g. the gateway runtime), built over the app's hub. */
    runtime?: (ctx: { hub: InteractionHub; logger: TestLogger; now: () => number; hermesHome: string }) => AgentRuntime;
    /** Wraps the agent as the Node server does: Settings choose the builtin agent or a gateway (built here). */
    switching?: (ctx: { hub: InteractionHub; logger: TestLogger; now: () => number; baseUrl: string; apiKey: string | undefined }) => AgentRuntime;
    /** The agent's own sessions (e.g. a state.db reader over `$HERMES_HOME/state.db`). */
    agentSessions?: (ctx: { hermesHome: string; logger: TestLogger }) => AgentSessionSource;
  } = {},
): Promise<TestApp> {
  const dir = await mkdtemp(join(tmpdir(), 'hermes-test-'));
  const stateDir = join(dir, 'state');
  const workspace = join(dir, 'workspace');
  const publicDir = join(dir, 'public');
  await mkdir(stateDir, { recursive: true });
  await mkdir(workspace, { recursive: true });
  await mkdir(publicDir, { recursive: true });
  const hermesHome = join(dir, 'hermes');
  await mkdir(hermesHome, { recursive: true });
  if (options.configYaml !== undefined) await writeFile(join(hermesHome, 'config.yaml'), options.configYaml);
  const clock = { now: () => Date.now() / 1000 };
  const logger = memoryLogger();
  const fs = options.storage === 'fs';
  const sessions = fs ? new FsSessionStore({ stateDir, clock, logger }) : new MemorySessionStore(clock);
  await sessions.init();
  const now = () => clock.now();
  const hub = new InteractionHub(now);
  const journal = fs ? new FsRunJournal(stateDir, logger) : new MemoryRunJournal();
  const settingsStore = fs ? new FsSettingsStore(stateDir, logger) : new MemorySettingsStore();
  const inner: AgentRuntime = options.runtime ? options.runtime({ hub, logger, now, hermesHome }) : new BuiltinAgentRuntime({
    config: new NodeAgentConfigSource(hermesHome, options.agentEnv ?? {}),
    host: new NodeToolHost(),
    hub,
    hermesHome,
    logger,
    now,
    catalogBudgetMs: options.catalogBudgetMs ?? 500,
    backoff: options.backoff ?? { baseDelayMs: 5, maxDelayMs: 20 },
    ...(options.clarifyTimeoutMs ? { clarifyTimeoutMs: options.clarifyTimeoutMs } : {}),
  });
  const gatewayFactory = options.switching;
  const runtime: AgentRuntime = gatewayFactory
    ? new SwitchingRuntime(inner, (baseUrl, apiKey) => gatewayFactory({ hub, logger, now, baseUrl, apiKey }), settingsBackendChoice(settingsStore, {}))
    : inner;
  const deps: AppDeps = {
    agent: { runtime, registry: new RunRegistry({ journal, now, ...(options.keepFinishedMs !== undefined ? { keepFinishedMs: options.keepFinishedMs } : {}) }), hub },
    sessions,
    settings: settingsStore,
    projects: fs ? new FsProjectStore(stateDir, logger) : new MemoryProjectStore(),
    workspaces: fs ? new FsWorkspaceStore(stateDir, logger) : new MemoryWorkspaceStore(),
    files: new NodeWorkspaceFiles(),
    attachments: new NodeAttachmentStore(stateDir),
    assets: new NodeAssetSource(publicDir),
    auth: fs ? new FsAuthStore(stateDir, logger) : new MemoryAuthStore(),
    ...(options.agentSessions ? { agentSessions: options.agentSessions({ hermesHome, logger }) } : {}),
    clientAddress: () => options.clientAddress ?? '127.0.0.1',
    clock,
    logger,
    options: {
      ...(options.auth ? { auth: options.auth } : {}),
      ...(options.onboarding ? { onboarding: options.onboarding } : {}),
      defaultWorkspace: workspace,
      maxUploadBytes: options.maxUploadBytes ?? 20 * 1024 * 1024,
      ...(options.maxJsonBytes ? { maxJsonBytes: options.maxJsonBytes } : {}),
      version: 'test',
    },
  };
  const app = createApp(deps);
  const call: TestApp['call'] = async (method, path, body, headers = {}) => {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      init.headers = { 'Content-Type': 'application/json', ...headers };
    }
    const res = await result.app.request(path, init);
    const text = await res.clone().text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed, res };
  };
  const result: TestApp = {
    app,
    deps,
    logger,
    dir,
    stateDir,
    workspace,
    hermesHome,
    call,
    async setPassword(password) {
      const stored = await deps.settings.read();
      // A few iterations keep tests quick; the stored iteration count is what verification uses.
      await deps.settings.write({ ...stored, password_hash: await hashPassword(password, 1000) });
    },
    async signIn(password) {
      const r = await call('POST', '/api/auth/login', { password });
      if (r.status !== 200) throw new Error(`login failed: ${r.status} ${JSON.stringify(r.body)}`);
      const cookie = (r.res.headers.get('Set-Cookie') ?? '').split(';')[0]!;
      const status = await call('GET', '/api/auth/status', undefined, { Cookie: cookie });
      return { cookie, csrf: status.body.csrf_token };
    },
    async newSession(body = {}) {
      const r = await call('POST', '/api/session/new', body);
      if (r.status !== 200) throw new Error(`session/new failed: ${JSON.stringify(r.body)}`);
      return r.body.session.session_id as string;
    },
    async close() {
      deps.agent.registry.abortAll('test finished');
      await sessions.dispose();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return result;
}
