import { Hono } from 'hono';
import type { AppDeps } from '../deps.js';

/** `GET /health`: public liveness, with counts a dashboard can show. */
export function healthRoutes(deps: AppDeps) {
  const startedAt = deps.clock.now();
  return new Hono().get('/health', async (c) => {
    const page = await deps.sessions.list({ includeArchived: true, limit: 0 });
    const now = deps.clock.now();
    return c.json({
      status: 'ok',
      sessions: page.total,
      active_streams: 0,
      active_runs: 0,
      runs: [],
      last_run_finished_at: null,
      server_started_at: startedAt,
      uptime_seconds: Math.round((now - startedAt) * 10) / 10,
      storage: deps.sessions.kind,
      version: deps.options.version,
    });
  });
}
