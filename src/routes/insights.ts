import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { queryParams } from '../http/validate.js';
import { requestHome } from '../http/request-home.js';
import { DEFAULT_PROFILE, type HermesHome } from '../ports/hermes-home.js';
import { resolveInsightsWindow } from '../domain/insights-period.js';
import { InsightsTally, usageCost, usageInt } from '../domain/insights.js';

/**
 * Every parameter is optional text: a bound that cannot be read serves the trailing window
 * (never a 400), as the period rules say. Other parameters (a cache buster) are ignored.
 */
const InsightsQuery = z
  .object({
    days: z.string().optional(),
    start: z.string().optional(),
    end: z.string().optional(),
    all_profiles: z.string().optional(),
  })
  .passthrough();

const TRUE = new Set(['1', 'true', 'yes', 'on']);

/**
 * `GET /api/insights?days=|start=&end=[&all_profiles=1]`: usage over one window (the incumbent's
 * shape plus `mode` and the effective days), from the WebUI session index and the profile's
 * state.db (Hermes' CLI, gateway, cron … sessions). The request's profile only, unless
 * `all_profiles=1`.
 */
export function insightsRoutes(deps: AppDeps) {
  const app = new Hono();
  app.get('/api/insights', async (c) => {
    const q = queryParams(c, InsightsQuery);
    const home = await requestHome(c, deps);
    const all = TRUE.has((q.all_profiles ?? '').toLowerCase());
    const window = resolveInsightsWindow(q, deps.clock.now());
    const tally = new InsightsTally(window);

    const { rows } = await deps.sessions.list({ includeArchived: true });
    const profile = home.profile;
    // A session on the configured default names no model: it counts under its profile's default.
    const defaults = new Map<string, string | null>();
    for (const r of rows) {
      // The incumbent's usage time: the last update, else the creation.
      const ts = r.updated_at || r.created_at || 0;
      if (!tally.admits(ts)) continue;
      if (!all && (r.profile || DEFAULT_PROFILE) !== profile) continue;
      let model = r.model;
      if (!model) {
        const owner = r.profile || DEFAULT_PROFILE;
        if (!defaults.has(owner)) defaults.set(owner, await configuredModel(owner === profile ? home : await deps.homes.get(owner).catch(() => null)));
        model = defaults.get(owner) ?? null;
      }
      tally.add(
        ts,
        model,
        usageInt(r.message_count),
        usageInt(r.input_tokens),
        usageInt(r.output_tokens),
        usageInt(r.cache_read_tokens),
        usageCost(r.estimated_cost),
      );
    }

    const homes: HermesHome[] = all ? await profileHomes(deps) : [home];
    let ours: Set<string> | null = null;
    for (const h of homes) {
      const source = deps.agentSessionsFor?.(h);
      if (!source?.usage) continue;
      for (const u of await source.usage(window)) {
        // A turn this WebUI drove through the gateway is in both stores: counted once, as ours.
        if (u.source === 'api_server') {
          ours ??= new Set(rows.map((r) => r.session_id));
          if (ours.has(u.session_id)) continue;
        }
        if (tally.admits(u.ts)) tally.add(u.ts, u.model, u.message_count, u.input_tokens, u.output_tokens, u.cache_read_tokens, u.cost);
      }
    }
    return c.json(tally.report());
  });
  return app;
}

/** The profile's `model.default` (null when unset or config.yaml cannot be read). */
async function configuredModel(home: HermesHome | null): Promise<string | null> {
  if (!home) return null;
  try {
    return (await home.config.load()).model.default || null;
  } catch {
    return null;
  }
}

/** Every profile's home (one that vanished meanwhile is skipped). */
async function profileHomes(deps: AppDeps): Promise<HermesHome[]> {
  const out: HermesHome[] = [];
  for (const name of await deps.homes.list()) {
    const home = await deps.homes.get(name).catch(() => null);
    if (home) out.push(home);
  }
  return out;
}
