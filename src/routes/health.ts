import { Hono } from 'hono';
import type { AppDeps } from '../deps.js';

/** `GET /health`: public liveness, with counts a dashboard can show. */
export function healthRoutes(deps: AppDeps) {
  const startedAt = deps.clock.now();
  return new Hono().get('/health', async (c) => {
    const page = await deps.sessions.list({ includeArchived: true, limit: 0 });
    const now = deps.clock.now();
    const active = deps.agent.registry.active;
    return c.json({
      status: 'ok',
      sessions: page.total,
      active_streams: active.reduce((n, r) => n + r.watcherCount, 0),
      active_runs: active.length,
      runs: active.map((r) => ({ stream_id: r.streamId, session_id: r.sessionId, started_at: r.startedAt, last_seq: r.lastSeq })),
      last_run_finished_at: deps.agent.registry.lastFinishedAt,
      server_started_at: startedAt,
      uptime_seconds: Math.round((now - startedAt) * 10) / 10,
      storage: deps.sessions.kind,
      version: deps.options.version,
    });
  });
}
