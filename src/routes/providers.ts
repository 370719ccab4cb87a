import { Hono } from 'hono';
import type { Context } from 'hono';
import { requestSetup } from '../http/request-home.js';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import type { ProviderRow } from '../agent/setup.js';
import { jsonBody } from '../http/validate.js';
import { NotFound } from '../ports/errors.js';
import { requireSetupAllowed } from './onboarding.js';

// The incumbent lower-cases ids; custom providers are matched without case anyway.
const ProviderId = z
  .string({ error: 'provider is required' })
  .trim()
  .min(1, 'provider is required')
  .max(128)
  .transform((p) => p.toLowerCase());
/** An empty or null key removes it, as the incumbent's `set_provider_key(id, None)`. */
const Key = z.string().max(4096).nullish();

const SelfHostedBody = z.object({
  name: z
    .string()
    .trim()
    .regex(/^[a-z0-9_-]{1,40}$/, 'name must be 1-40 lowercase letters, digits, - or _'),
  base_url: z.string().trim().min(1, 'base_url is required').max(2048),
  api_key: z.string().max(4096).optional(),
  models: z.array(z.string().trim().min(1).max(256)).max(500).optional(),
});

/** The incumbent's names for a row's facts, beside ours: its Providers panel and scripts read them. */
function withIncumbentFields(row: ProviderRow) {
  return {
    ...row,
    display_name: row.label,
    has_key: row.key_set,
    configurable: row.kind !== 'custom' && row.key_env !== null,
    is_self_hosted: row.kind === 'local',
    is_custom: row.kind === 'custom',
    is_oauth: false,
    auth_error: row.error ?? null,
    models_total: row.models_count ?? 0,
  };
}

/** Settings → Providers: configured providers with status; keys only ever leave masked. */
export function providerRoutes(deps: AppDeps) {
  const app = new Hono();
  // The browser's profile's providers.
  const setup = async (c: Context) => {
    const s = await requestSetup(c, deps);
    if (!s) throw new NotFound('This agent is configured outside Hermes WebUI');
    return s;
  };

  app.get('/api/providers', async (c) => {
    const list = await (await setup(c)).providers();
    return c.json({ ...list, providers: list.providers.map(withIncumbentFields) });
  });

  app.post('/api/providers', async (c) => {
    requireSetupAllowed(c, deps);
    const b = await jsonBody(c, z.object({ provider: ProviderId, api_key: Key }));
    const s = await setup(c);
    const key = b.api_key?.trim();
    if (!key) {
      await s.removeProvider(b.provider);
      return c.json({ ok: true, provider: b.provider, display_name: b.provider, action: 'removed' });
    }
    const row = await s.saveKey(b.provider, key);
    // The incumbent's answer ({provider: id, display_name, action}); `row` is the updated row our panel shows.
    return c.json({ ok: true, provider: row.id, display_name: row.label, action: 'updated', row: withIncumbentFields(row) });
  });

  app.post('/api/providers/delete', async (c) => {
    requireSetupAllowed(c, deps);
    const b = await jsonBody(c, z.object({ provider: ProviderId }));
    await (await setup(c)).removeProvider(b.provider);
    return c.json({ ok: true, provider: b.provider, display_name: b.provider, action: 'removed' });
  });

  app.post('/api/providers/self-hosted', async (c) => {
    requireSetupAllowed(c, deps);
    const b = await jsonBody(c, SelfHostedBody);
    return c.json({ ok: true, provider: await (await setup(c)).addCustomProvider(b) });
  });

  return app;
}
