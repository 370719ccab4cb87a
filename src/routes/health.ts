import { Hono, type MiddlewareHandler } from 'hono';
import type { AppDeps } from '../deps.js';
import { queryFlag, queryParams } from '../http/validate.js';
import { z } from 'zod';

const HealthQuery = z.object({ deep: queryFlag });

/** The incumbent's `accept_loop` block: requests this process has taken, and when the last came. */
export function acceptLoopCounter(deps: Pick<AppDeps, 'clock'>) {
  const state = { requests_total: 0, last_request_at: 0 };
  const count: MiddlewareHandler = async (_c, next) => {
    state.requests_total++;
    state.last_request_at = Math.round(deps.clock.now() * 1000) / 1000;
    await next();
  };
  return { count, snapshot: () => ({ ...state }) };
}

/**
 * `GET /health`: public liveness, with counts a dashboard can show (the incumbent's fields;
 * `storage` and `version` are ours). `?deep=1` also times a read of the session store and
 * answers 503 `degraded` when it fails, as the incumbent's deep checks do.
 *
 * `GET /api/health/agent`: the incumbent's `{alive, checked_at, details, gateway_chat}`. With the
 * built-in agent there is no separate gateway process: `alive: null`, reason
 * `gateway_not_configured` (its clients show no banner then).
 */
export function healthRoutes(deps: AppDeps, acceptLoop: ReturnType<typeof acceptLoopCounter>) {
  const startedAt = deps.clock.now();
  const app = new Hono();
  app.get('/health', async (c) => {
    const q = queryParams(c, HealthQuery);
    const t0 = deps.clock.now();
    let storage: Record<string, unknown> = { status: 'ok' };
    let total = 0;
    try {
      total = (await deps.sessions.list({ includeArchived: true, limit: 0 })).total;
    } catch (err) {
      // Without ?deep the incumbent never touches storage; here the count needs it, so a failure shows either way.
      storage = { status: 'error', error: err instanceof Error ? err.name : 'Error' };
    }
    storage.ms = Math.round((deps.clock.now() - t0) * 10000) / 10;
    const now = deps.clock.now();
    const active = deps.agent.registry.active;
    const healthy = storage.status === 'ok';
    const body = {
      status: healthy ? 'ok' : 'degraded',
      sessions: total,
      active_streams: active.reduce((n, r) => n + r.watcherCount, 0),
      active_runs: active.length,
      runs: active.map((r) => ({ stream_id: r.streamId, session_id: r.sessionId, started_at: r.startedAt, last_seq: r.lastSeq })),
      last_run_finished_at: deps.agent.registry.lastFinishedAt,
      server_started_at: startedAt,
      uptime_seconds: Math.round((now - startedAt) * 10) / 10,
      accept_loop: acceptLoop.snapshot(),
      ...(q.deep ? { checks: { session_store: { ...storage, kind: deps.sessions.kind } } } : {}),
      storage: deps.sessions.kind,
      version: deps.options.version,
    };
    return c.json(body, healthy ? 200 : 503);
  });

  app.get('/api/health/agent', async (c) => {
    const choice = await deps.agent.backend.current();
    const checked_at = new Date(deps.clock.now() * 1000).toISOString();
    const gateway_chat = { enabled: choice.backend === 'gateway', backend: choice.backend, base_url_configured: choice.backend === 'gateway' };
    const runtime = deps.agent.runtime;
    if (choice.backend !== 'gateway' || !runtime.describe) {
      return c.json({ alive: null, checked_at, details: { state: 'unknown', reason: 'gateway_not_configured', runtime: 'builtin' }, gateway_chat });
    }
    const info = await runtime.describe({ refresh: false });
    const details = info.reachable
      ? { state: 'alive', path: info.path, ...(info.version ? { version: info.version } : {}) }
      : { state: 'down', reason: 'gateway_unreachable', ...(info.error ? { error: info.error } : {}) };
    return c.json({ alive: info.reachable, checked_at, details, gateway_chat });
  });
  return app;
}
