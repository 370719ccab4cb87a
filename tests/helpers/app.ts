import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type AppDeps } from '../../src/app.js';
import type { Logger } from '../../src/ports/platform.js';
import type { AppOptions } from '../../src/deps.js';
import { parseConfig } from '../../src/config.js';
import { composeNodeDeps } from '../../src/entry/node-deps.js';
import type { NodeDepsOverrides } from '../../src/entry/node-deps.js';
import type { BackoffPolicy } from '../../src/agent/providers/retry.js';
import { hashPassword } from '../../src/auth/password.js';
import { trackedEnv } from './processes.js';
import { testDatabase } from './postgres.js';

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
  /** With `storage: 'postgres'`: the database it uses (give it to another app: a restart, a second instance). */
  databaseUrl?: string;
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

/** Password, cookie and origin rules as the environment the server reads states them. */
function authEnv(auth: AppOptions['auth'] = {}): Record<string, string> {
  const env: Record<string, string> = {};
  if (auth.password !== undefined) env.HERMES_WEBUI_PASSWORD = auth.password;
  if (auth.sessionTtlSeconds !== undefined) env.HERMES_WEBUI_SESSION_TTL = String(auth.sessionTtlSeconds);
  if (auth.cookieName !== undefined) env.HERMES_WEBUI_COOKIE_NAME = auth.cookieName;
  if (auth.secureCookies !== undefined) env.HERMES_WEBUI_SECURE = String(auth.secureCookies);
  if (auth.trustForwardedProto !== undefined) env.HERMES_WEBUI_TRUST_FORWARDED_PROTO = String(auth.trustForwardedProto);
  if (auth.trustForwardedHost !== undefined) env.HERMES_WEBUI_TRUST_FORWARDED_HOST = String(auth.trustForwardedHost);
  if (auth.trustForwardedFor !== undefined) env.HERMES_WEBUI_TRUST_FORWARDED_FOR = String(auth.trustForwardedFor);
  if (auth.allowedOrigins !== undefined) env.HERMES_WEBUI_ALLOWED_ORIGINS = auth.allowedOrigins.join(',');
  // The server counts as public when it listens on a non-loopback address (nothing is bound here).
  if (auth.publicBind) env.HERMES_WEBUI_HOST = '0.0.0.0';
  return env;
}

/**
 * A real app over temp directories, wired as the server wires it: a Config parsed from a test
 * environment and the production composition root (composeNodeDeps). Memory stores by default,
 * the fs adapter with `{ storage: 'fs' }`, or Postgres with `{ storage: 'postgres' }` (a fresh
 * database dropped on close, or `databaseUrl`'s, kept: a restart, a second instance); the backend is switchable unless `env` sets
 * HERMES_WEBUI_CHAT_BACKEND. Only fakes and test knobs are overridden (logger, client address,
 * version, limits and timeouts).
 */
export async function makeTestApp(
  options: {
    storage?: 'memory' | 'fs' | 'postgres';
    /** With `storage: 'postgres'`: this database (another app's, see `databaseUrl` on TestApp) instead of a fresh one; the caller drops it. */
    databaseUrl?: string;
    maxUploadBytes?: number;
    maxJsonBytes?: number;
    /** Written to `$HERMES_HOME/config.yaml`. */
    configYaml?: string;
    /** Provider keys and the like the agent sees (the test process's own environment never leaks in). */
    agentEnv?: Record<string, string>;
    /** More of the server's environment (HERMES_WEBUI_*), on top of what the other options say. */
    env?: Record<string, string>;
    clarifyTimeoutMs?: number;
    /** Model-call retry waits (default: a few ms, so a retried failure costs a test nothing; Retry-After is still honoured as sent). */
    backoff?: Partial<BackoffPolicy>;
    /** How long finished runs stay in memory (0: replays come from the journal at once). */
    keepFinishedMs?: number;
    /** The task scheduler's knobs (tick period, lease length, timer). */
    scheduler?: NodeDepsOverrides['scheduler'];
    /** Password, cookie and origin rules (as HERMES_WEBUI_* variables). */
    auth?: AppOptions['auth'];
    /** The socket address requests seem to come from (default 127.0.0.1). */
    clientAddress?: string;
    /** How long GET /api/models waits for provider probes (default 500 ms here). */
    catalogBudgetMs?: number;
    onboarding?: AppOptions['onboarding'];
    /** Scripted servers in place of the hosted web APIs (Tavily, Exa, Firecrawl, Brave). */
    webEndpoints?: NodeDepsOverrides['webEndpoints'];
    /** Use this directory (e.g. a second app over the first one's state: a restart); the caller removes it. */
    dir?: string;
    /** MCP reconnect waits (default: a few ms). */
    mcp?: { reconnectBaseMs?: number; connectCooldownMs?: number };
    /** Stores (and a cluster) shared with other in-process instances: tests of several instances. */
    sharedStorage?: NodeDepsOverrides['storage'];
    /** Run lease TTL, renewal and takeover periods. */
    runLease?: NodeDepsOverrides['runLease'];
    /** The embedded terminal's idle grace, sweep and heartbeat periods, engine. */
    terminal?: Omit<NonNullable<NodeDepsOverrides['terminal']>, 'childEnv'>;
  } = {},
): Promise<TestApp> {
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), 'hermes-test-')));
  const stateDir = join(dir, 'state');
  const publicDir = join(dir, 'public');
  await mkdir(publicDir, { recursive: true });
  const hermesHome = join(dir, 'hermes');
  await mkdir(hermesHome, { recursive: true });
  if (options.configYaml !== undefined) await writeFile(join(hermesHome, 'config.yaml'), options.configYaml);
  // A database of its own unless given one; dropped on close (or here, if the app never starts).
  const database = options.storage === 'postgres' && !options.databaseUrl ? await testDatabase() : null;
  const databaseUrl = options.databaseUrl ?? database?.url;
  const env: Record<string, string> = {
    HERMES_HOME: hermesHome,
    HERMES_WEBUI_STATE_DIR: stateDir,
    HERMES_WEBUI_DEFAULT_WORKSPACE: join(dir, 'workspace'),
    HERMES_WEBUI_STORAGE: options.storage ?? 'memory',
    ...(options.storage === 'postgres' ? { HERMES_WEBUI_DATABASE_URL: databaseUrl! } : {}),
    HERMES_WEBUI_MAX_UPLOAD_MB: String((options.maxUploadBytes ?? 20 * 1024 * 1024) / (1024 * 1024)),
    HERMES_WEBUI_MODELS_REBUILD_BUDGET: String((options.catalogBudgetMs ?? 500) / 1000),
    ...(options.onboarding?.skip ? { HERMES_WEBUI_SKIP_ONBOARDING: '1' } : {}),
    ...(options.onboarding?.open ? { HERMES_WEBUI_ONBOARDING_OPEN: '1' } : {}),
    ...authEnv(options.auth),
    ...options.agentEnv,
    ...options.env,
  };
  const logger = memoryLogger();
  let deps: AppDeps;
  try {
    deps = await composeNodeDeps(parseConfig(env, { home: dir }), {
      logger,
      env,
      publicDir,
      overrides: {
        clientAddress: () => options.clientAddress ?? '127.0.0.1',
        version: 'test',
        ...(options.maxJsonBytes ? { maxJsonBytes: options.maxJsonBytes } : {}),
        ...(options.keepFinishedMs !== undefined ? { keepFinishedMs: options.keepFinishedMs } : {}),
        ...(options.scheduler ? { scheduler: options.scheduler } : {}),
        ...(options.clarifyTimeoutMs ? { clarifyTimeoutMs: options.clarifyTimeoutMs } : {}),
        backoff: options.backoff ?? { baseDelayMs: 5, maxDelayMs: 20 },
        ...(options.webEndpoints ? { webEndpoints: options.webEndpoints } : {}),
        // MCP servers the agent starts carry the leak check's marker.
        mcpChildEnv: trackedEnv(),
        mcp: options.mcp ?? { reconnectBaseMs: 50, connectCooldownMs: 50 },
        ...(options.sharedStorage ? { storage: options.sharedStorage } : {}),
        ...(options.runLease ? { runLease: options.runLease } : {}),
        // Shells the terminal starts carry the leak check's marker too, and a home of their own:
        // the machine's ~/.bashrc (pyenv rehash and its lock, killed mid-way) stays out of tests.
        terminal: { ...options.terminal, childEnv: { ...trackedEnv(), HOME: dir } },
      },
    });
  } catch (err) {
    await database?.drop();
    throw err;
  }
  const workspace = deps.options.defaultWorkspace;
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
    ...(databaseUrl ? { databaseUrl } : {}),
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
      await deps.agent.processes?.stopAll();
      await deps.terminals?.closeAll();
      await deps.mcp?.shutdown();
      await deps.sessions.dispose();
      // Stops run lease renewals and the takeover sweep (several instances), then the storage.
      await deps.closeStorage?.();
      await database?.drop();
      // Lines still queued for webui.log are written before the folder goes.
      await deps.serverLog?.flush();
      if (!options.dir) await rm(dir, { recursive: true, force: true });
    },
  };
  return result;
}
