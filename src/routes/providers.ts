import { Hono } from 'hono';
import type { Context } from 'hono';
import { requestSetup } from '../http/request-home.js';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { jsonBody } from '../http/validate.js';
import { NotFound } from '../ports/errors.js';
import { requireSetupAllowed } from './onboarding.js';

const ProviderId = z.string().trim().min(1, 'provider is required').max(128);
const Key = z.string().min(1, 'api_key is required').max(4096);

const SelfHostedBody = z
  .object({
    name: z
      .string()
      .trim()
      .regex(/^[a-z0-9_-]{1,40}$/, 'name must be 1-40 lowercase letters, digits, - or _'),
    base_url: z.string().trim().min(1, 'base_url is required').max(2048),
    api_key: z.string().max(4096).optional(),
    models: z.array(z.string().trim().min(1).max(256)).max(500).optional(),
  })
  .strict();

/** Settings → Providers: configured providers with status; keys only ever leave masked. */
export function providerRoutes(deps: AppDeps) {
  const app = new Hono();
  // The browser's profile's providers.
  const setup = async (c: Context) => {
    const s = await requestSetup(c, deps);
    if (!s) throw new NotFound('This agent is configured outside Hermes WebUI');
    return s;
  };

  app.get('/api/providers', async (c) => c.json(await (await setup(c)).providers()));

  app.post('/api/providers', async (c) => {
    requireSetupAllowed(c, deps);
    const b = await jsonBody(c, z.object({ provider: ProviderId, api_key: Key }).strict());
    return c.json({ ok: true, provider: await (await setup(c)).saveKey(b.provider, b.api_key) });
  });

  app.post('/api/providers/delete', async (c) => {
    requireSetupAllowed(c, deps);
    const b = await jsonBody(c, z.object({ provider: ProviderId }).strict());
    await (await setup(c)).removeProvider(b.provider);
    return c.json({ ok: true });
  });

  app.post('/api/providers/self-hosted', async (c) => {
    requireSetupAllowed(c, deps);
    const b = await jsonBody(c, SelfHostedBody);
    return c.json({ ok: true, provider: await (await setup(c)).addCustomProvider(b) });
  });

  return app;
}
