import { Hono } from 'hono';
import type { Context } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { queryParams } from '../http/validate.js';
import { requestHome } from '../http/request-home.js';
import { DEFAULT_PROFILE } from '../ports/hermes-home.js';
import { activeEndpoint, KNOWN } from '../agent/providers/resolve.js';
import type { AgentConfig } from '../agent/config.js';
import { providerLabel } from '../agent/catalog/catalog.js';
import { guardedFetch } from '../http/guarded-fetch.js';
import { costDays } from '../domain/cost-history.js';

/** The incumbent's timeout for the quota call. */
const QUOTA_TIMEOUT_MS = 3_000;

const UsageQuery = z.object({ provider: z.string().max(128).optional(), days: z.string().optional(), refresh: z.string().optional() }).passthrough();

/** `days` as the incumbent reads it: an integer clamped to 1–365, anything else 7. */
export function windowDays(raw: string | undefined): number {
  const n = Number.parseInt((raw ?? '7').trim() || '7', 10);
  return Number.isNaN(n) ? 7 : Math.max(1, Math.min(n, 365));
}

/** The incumbent's `_quota_number`: numbers and numeric text, else null. */
function quotaNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() && Number.isFinite(Number(v))) return Number(v);
  return null;
}

async function loadConfig(c: Context, deps: AppDeps): Promise<AgentConfig | null> {
  return (await requestHome(c, deps)).config.load().catch(() => null);
}

/**
 * `GET /api/provider/cost-history?provider=&days=` and `GET /api/provider/quota?provider=`, in the
 * incumbent's shapes. Cost history comes from the spend this server recorded on its sessions
 * (what Insights counts), for any provider; quota asks OpenRouter's key endpoint, the one
 * provider whose API reports it.
 */
export function providerUsageRoutes(deps: AppDeps) {
  const app = new Hono();

  app.get('/api/provider/cost-history', async (c) => {
    const q = queryParams(c, UsageQuery);
    const provider = (q.provider ?? '').trim().toLowerCase();
    if (!provider) {
      return c.json({ ok: false, provider: null, status: 'missing_provider', message: 'Provider parameter is required.  Use ?provider=openrouter' });
    }
    const days = windowDays(q.days);
    const home = await requestHome(c, deps);
    const config = await loadConfig(c, deps);
    // A session that names no provider ran on the profile's configured one.
    const configured = config ? (activeEndpoint(config)?.id ?? null) : null;
    const { rows } = await deps.sessions.list({ includeArchived: true });
    const spends: [number, number][] = [];
    for (const r of rows) {
      if ((r.profile || DEFAULT_PROFILE) !== home.profile) continue;
      if ((r.model_provider?.toLowerCase() || configured) !== provider) continue;
      // Insights' usage time: the last update, else the creation.
      if (typeof r.estimated_cost === 'number') spends.push([r.updated_at || r.created_at, r.estimated_cost]);
    }
    const settings = await deps.settings.read();
    const budget = typeof settings.provider_cost_budget === 'number' ? settings.provider_cost_budget : null;
    return c.json({
      ok: true,
      provider,
      display_name: providerLabel(provider),
      supported: true,
      status: 'available',
      window_days: days,
      snapshots: costDays(spends, days, deps.clock.now()),
      limit: null,
      label: 'Session spend',
      monthly_budget: budget,
      message: `${providerLabel(provider)} cost history loaded from this server's session usage.`,
    });
  });

  app.get('/api/provider/quota', async (c) => {
    const q = queryParams(c, UsageQuery);
    const config = await loadConfig(c, deps);
    const active = config ? activeEndpoint(config) : null;
    const provider = ((q.provider ?? '').trim() || active?.id || '').toLowerCase();
    if (!provider) {
      return c.json({
        ok: false,
        provider: null,
        display_name: null,
        supported: false,
        status: 'unavailable',
        quota: null,
        message: 'No active provider is configured.',
      });
    }
    const display_name = providerLabel(provider);
    const base = { provider, display_name };
    if (provider !== 'openrouter') {
      return c.json({
        ok: false,
        ...base,
        supported: false,
        status: 'unsupported',
        quota: null,
        message: `Quota status is not available for ${display_name}. Only OpenRouter reports a key's credit over its API.`,
      });
    }
    // The configured OpenRouter endpoint when it is the active provider (a proxy, a test server), else OpenRouter's.
    const onIt = active?.id === 'openrouter';
    const apiKey = (onIt ? active?.apiKey : null) ?? config?.env.OPENROUTER_API_KEY ?? null;
    if (!apiKey) {
      return c.json({
        ok: false,
        ...base,
        supported: true,
        status: 'no_key',
        quota: null,
        message: 'OpenRouter quota status needs an OPENROUTER_API_KEY configured on the server.',
      });
    }
    const root = (onIt && active ? active.baseUrl : KNOWN.openrouter!.baseUrl).replace(/\/+$/, '');
    const unavailable = {
      ok: false,
      ...base,
      supported: true,
      status: 'unavailable',
      quota: null,
      message: 'OpenRouter quota status is temporarily unavailable.',
    };
    try {
      const res = await guardedFetch(`${root}/key`, {
        headers: { Authorization: `Bearer ${apiKey}`, Accept: 'application/json' },
        timeoutMs: QUOTA_TIMEOUT_MS,
      });
      if (res.status === 401 || res.status === 403) {
        return c.json({ ...unavailable, status: 'invalid_key', message: 'OpenRouter rejected the configured API key.' });
      }
      if (res.status !== 200) return c.json(unavailable);
      const payload = res.json() as Record<string, unknown> | null;
      const data = (payload && typeof payload.data === 'object' && payload.data ? payload.data : (payload ?? {})) as Record<string, unknown>;
      const quota = { limit_remaining: quotaNumber(data.limit_remaining), usage: quotaNumber(data.usage), limit: quotaNumber(data.limit) };
      return c.json({
        ok: true,
        ...base,
        supported: true,
        status: 'available',
        label: 'OpenRouter credits',
        quota,
        message: 'OpenRouter quota status loaded.',
      });
    } catch {
      return c.json(unavailable);
    }
  });

  return app;
}
