import { DurableObject } from 'cloudflare:workers';
import type { Hono } from 'hono';
import { createApp } from '../app.js';
import { buildWorkerDeps, consoleLogger, type WorkerEnv } from '../adapters/workers/worker-deps.js';
import { DoRunJournal } from '../adapters/workers/do-run-journal.js';
import { applyMigrations } from '../adapters/storage/d1/migrations.js';
import { D1RunStreams, D1SettingsStore } from '../adapters/storage/d1/d1-stores.js';
import type { AppDeps } from '../deps.js';
import { recoverInterruptedTurn } from '../runs/recovery.js';

/** Storage keys of turns this object started (`active:<stream id>` → session id). */
const ACTIVE_PREFIX = 'active:';

/** While a turn runs, the Durable Object wakes itself this often, so it is never idle long enough to be evicted. */
const HEARTBEAT_MS = 10_000;

let migrated: Promise<void> | null = null;
/** Once per isolate: the D1 schema the app needs (the same files `wrangler d1 migrations apply` uses). */
function ready(env: WorkerEnv): Promise<void> {
  migrated ??= applyMigrations(env.DB).catch((err) => {
    migrated = null;
    throw err;
  });
  return migrated;
}

let front: { env: WorkerEnv; app: Hono } | null = null;

const OPEN_REFUSED =
  'Hermes WebUI on Workers needs a password before it serves anything: run `npx wrangler secret put HERMES_WEBUI_PASSWORD` ' +
  '(locally: HERMES_WEBUI_PASSWORD=… in .dev.vars). A Worker is reachable from the whole internet. ' +
  'If something in front of it already authenticates (Cloudflare Access), set HERMES_WEBUI_ALLOW_NO_PASSWORD=1.';

let passwordCheck: { at: number; ok: boolean } | null = null;
/** A Worker is public: like a non-loopback bind on Node, it refuses to run without a password. */
async function hasPassword(env: WorkerEnv): Promise<boolean> {
  if (typeof env.HERMES_WEBUI_PASSWORD === 'string' && env.HERMES_WEBUI_PASSWORD.trim()) return true;
  if (env.HERMES_WEBUI_ALLOW_NO_PASSWORD === '1' || env.HERMES_WEBUI_ALLOW_NO_PASSWORD === 'true') return true;
  if (passwordCheck?.ok && Date.now() - passwordCheck.at < 5000) return true;
  const stored = await new D1SettingsStore(env.DB).read().catch(() => ({}) as Record<string, unknown>);
  const ok = typeof stored.password_hash === 'string' && !!stored.password_hash;
  passwordCheck = { at: Date.now(), ok };
  return ok;
}

/** The Worker: the whole API and the front end; run requests go to the session's Durable Object. */
export default {
  async fetch(request: Request, env: WorkerEnv, ctx: { waitUntil(p: Promise<unknown>): void }): Promise<Response> {
    await ready(env);
    if (new URL(request.url).pathname !== '/health' && !(await hasPassword(env))) {
      return new Response(JSON.stringify({ error: OPEN_REFUSED }), {
        status: 503,
        headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
      });
    }
    if (!front || front.env !== env) front = { env, app: createApp(buildWorkerDeps(env, { kind: 'front' })) };
    return front.app.fetch(request, env, ctx as never);
  },
};

/**
 * One per session (`idFromName(session_id)`): owns that session's runs. It starts the builtin
 * agent's turn, journals every event in its own storage, serves the chat stream to any number of
 * watchers with the same ids and Last-Event-ID resume as on Node, answers approvals, clarify and
 * cancel, and keeps going when every watcher has left (the turn is held by ctx.waitUntil and an
 * alarm heartbeat, not by a request).
 */
export class SessionRuns extends DurableObject<WorkerEnv> {
  #deps: AppDeps;
  #app: Hono;
  #streams: D1RunStreams;

  constructor(ctx: DurableObjectState, env: WorkerEnv) {
    super(ctx, env);
    this.#deps = buildWorkerDeps(env, {
      kind: 'runs',
      journal: new DoRunJournal(ctx.storage as never),
      background: (work) => {
        ctx.waitUntil(work);
        void ctx.storage.setAlarm(Date.now() + HEARTBEAT_MS);
      },
    });
    this.#app = createApp(this.#deps);
    this.#streams = new D1RunStreams(env.DB);
    // A previous instance of this object may have died mid-turn (a deploy, a crash): close those
    // turns before answering anything, as the Node server does at start.
    void ctx.blockConcurrencyWhile(() => this.#recover());
  }

  async #recover(): Promise<void> {
    await ready(this.env);
    const storage = this.ctx.storage as unknown as { list<T>(o: { prefix: string }): Promise<Map<string, T>>; delete(keys: string[]): Promise<number> };
    const started = await storage.list<string>({ prefix: ACTIVE_PREFIX });
    for (const [key, sessionId] of started) {
      const d = this.#deps;
      await recoverInterruptedTurn(
        { sessions: d.sessions, journal: d.agent.registry.journal, logger: d.logger, now: () => d.clock.now() },
        sessionId,
        key.slice(ACTIVE_PREFIX.length),
      );
    }
    if (started.size) await storage.delete([...started.keys()]);
  }

  override async fetch(request: Request): Promise<Response> {
    await ready(this.env);
    const res = await this.#app.fetch(request, this.env);
    const url = new URL(request.url);
    if (request.method === 'POST' && url.pathname === '/api/chat/start' && res.ok) {
      // The front Worker finds this object again from the stream id alone (GET /api/chat/stream).
      const body = (await res
        .clone()
        .json()
        .catch(() => null)) as { stream_id?: string; session_id?: string } | null;
      if (body?.stream_id && body.session_id) {
        // Remembered until this object next starts: if it dies mid-turn, that start closes the turn.
        await (this.ctx.storage as unknown as { put(k: string, v: string): Promise<void> }).put(ACTIVE_PREFIX + body.stream_id, body.session_id);
        await this.#streams.put(body.stream_id, body.session_id);
      }
    }
    return res;
  }

  override async alarm(): Promise<void> {
    if (this.#deps.agent.registry.active.length > 0) {
      await this.ctx.storage.setAlarm(Date.now() + HEARTBEAT_MS);
      return;
    }
    // Every turn this instance started has ended: nothing is left to recover.
    const storage = this.ctx.storage as unknown as { list<T>(o: { prefix: string }): Promise<Map<string, T>>; delete(keys: string[]): Promise<number> };
    const started = await storage.list<string>({ prefix: ACTIVE_PREFIX });
    if (started.size) await storage.delete([...started.keys()]);
    consoleLogger.info({ msg: 'session runs idle' });
  }
}

interface DurableObjectState {
  storage: { setAlarm(at: number): Promise<void> } & Record<string, unknown>;
  waitUntil(work: Promise<unknown>): void;
  blockConcurrencyWhile<T>(work: () => Promise<T>): Promise<T>;
}
