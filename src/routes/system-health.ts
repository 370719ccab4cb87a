import { Hono } from 'hono';
import type { AppDeps } from '../deps.js';
import { NotAvailable } from '../ports/errors.js';

export const SYSTEM_HEALTH_UNAVAILABLE = 'Host metrics are not available on this deployment: Cloudflare Workers has no machine of its own to measure.';

/** The incumbent's epoch → ISO 8601 with `+00:00`, as Python's `datetime.isoformat()` writes it. */
function isoUtc(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace('Z', '+00:00');
}

/**
 * `GET /api/system/health`: the incumbent's system panel payload — CPU, memory and disk of the
 * host, `status` ok / partial / unavailable, and `webui_runtime`. Of the runtime only the streams
 * count is known here (the incumbent's session and model caches do not exist): the rest say
 * `available: false`.
 */
export function systemHealthRoutes(deps: AppDeps) {
  const app = new Hono();
  app.get('/api/system/health', async (c) => {
    if (!deps.systemHealth) throw new NotAvailable(SYSTEM_HEALTH_UNAVAILABLE);
    const reading = await deps.systemHealth.read();
    const available = !!(reading.cpu || reading.memory || reading.disk);
    const errors = reading.errors;
    return c.json({
      status: available && !errors.length ? 'ok' : available ? 'partial' : 'unavailable',
      available,
      checked_at: isoUtc(deps.clock.now()),
      cpu: reading.cpu,
      memory: reading.memory,
      disk: reading.disk,
      webui_runtime: {
        sessions: { available: false, resident: 0, cap: 0 },
        streams: {
          available: true,
          active: deps.agent.registry.active.length,
          agent_instances: 0,
          subscribers: 0,
          offline_buffered_events: 0,
          offline_dropped_events: 0,
          subscriber_dropped_events: 0,
          unavailable_channels: 0,
        },
        session_list_cache: { available: false, entries: 0, inflight_rebuilds: 0, cap: 0 },
        models_cache: { available: false, groups: 0, models: 0, age_seconds: null },
      },
      errors,
    });
  });
  return app;
}
