import { Hono } from 'hono';
import type { Context } from 'hono';
import { requestSetup } from '../http/request-home.js';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import type { ProviderRow } from '../agent/setup.js';
import { jsonBody, parseWith } from '../http/validate.js';
import { BadRequest, NotFound } from '../ports/errors.js';
import { modelCatalog } from './models.js';
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

/** Ours: a named OpenAI-compatible endpoint (custom_providers in config.yaml). */
const CustomBody = z.object({
  name: z
    .string()
    .trim()
    .regex(/^[a-z0-9_-]{1,40}$/, 'name must be 1-40 lowercase letters, digits, - or _'),
  base_url: z.string().trim().min(1, 'base_url is required').max(2048),
  api_key: z.string().max(4096).optional(),
  models: z.array(z.string().trim().min(1).max(256)).max(500).optional(),
});

const SELF_HOSTED = ['ollama', 'lmstudio'];
/** The incumbent's: a self-hosted preset (Ollama, LM Studio) made the active provider, with its texts. */
const PresetBody = z
  .object({
    provider: z.string().max(128),
    model: z.string().max(256).optional(),
    base_url: z.string().max(2048).optional(),
    api_key: z.string().max(4096).optional(),
    activate: z.unknown().optional(),
  })
  .transform((b, ctx) => {
    const fail = (message: string) => {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    };
    const provider = b.provider.trim().toLowerCase();
    const model = (b.model ?? '').trim();
    const baseUrl = (b.base_url ?? '').trim().replace(/\/+$/, '');
    if (!SELF_HOSTED.includes(provider)) return fail(`unsupported self-hosted provider: ${provider}`);
    if (!model) return fail('model is required');
    if (!baseUrl) return fail('base_url is required for this provider');
    if (!/^https?:\/\//i.test(baseUrl)) return fail('base_url must start with http:// or https://');
    // Saving a preset without making it the active provider has no place to go here (yet).
    if (b.activate !== undefined && b.activate !== null && !b.activate)
      return fail('activate: false is not supported; the provider is saved as the active one');
    return { provider: provider as 'ollama' | 'lmstudio', model, base_url: baseUrl, api_key: b.api_key?.trim() || undefined };
  });

/** The incumbent's key checks and texts, before anything is written. */
function checkKeyText(key: string): void {
  if (/[\r\n]/.test(key)) throw new BadRequest('API key must not contain newline characters.');
  if (key.length < 8) throw new BadRequest('API key appears too short.');
}

/** Where the key comes from, in the incumbent's words (this server keeps keys in .env or config.yaml). */
const keySource = (row: ProviderRow) => (!row.key_set ? 'none' : row.kind === 'custom' && !row.key_env ? 'config_yaml' : 'env_file');

/** The incumbent's names for a row's facts, beside ours: its Providers panel and scripts read them. */
function withIncumbentFields(row: ProviderRow, models: Array<{ id: string; label: string }> = []) {
  return {
    ...row,
    models,
    key_source: keySource(row),
    is_plugin_provider: false,
    display_name: row.label,
    has_key: row.key_set,
    configurable: row.kind !== 'custom' && row.key_env !== null,
    is_self_hosted: row.kind === 'local',
    is_custom: row.kind === 'custom',
    is_oauth: false,
    auth_error: row.error ?? null,
    models_total: row.models_count ?? models.length,
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

  /** A provider this server can keep a key for; the incumbent's text for one it cannot. */
  const known = async (c: Context, id: string) => {
    const s = await setup(c);
    const row = (await s.providers()).providers.find((p) => p.id.toLowerCase() === id);
    const option = (await s.status()).providers.find((p) => p.id === id);
    if (!row && !option?.key_env && !id.startsWith('custom:')) {
      throw new BadRequest(`Cannot configure API key for '${id}'. This provider does not have a known env var mapping.`);
    }
    return { s, label: row?.label ?? option?.label ?? id };
  };

  const removed = async (c: Context, id: string) => {
    const { s, label } = await known(c, id);
    await s.removeProvider(id);
    return c.json({ ok: true, provider: id, display_name: label, action: 'removed' });
  };

  app.get('/api/providers', async (c) => {
    const list = await (await setup(c)).providers();
    // Each provider's models, as the model picker has them (its cards list them).
    const groups = (await modelCatalog(c, deps)).groups;
    const modelsOf = (id: string) =>
      groups.filter((g) => g.provider.toLowerCase() === id.toLowerCase()).flatMap((g) => g.models.map((m) => ({ id: m.id, label: m.label })));
    return c.json({ ...list, providers: list.providers.map((row) => withIncumbentFields(row, modelsOf(row.id))) });
  });

  app.post('/api/providers', async (c) => {
    requireSetupAllowed(c, deps);
    const b = await jsonBody(c, z.object({ provider: ProviderId, api_key: Key }));
    const key = b.api_key?.trim();
    if (!key) return removed(c, b.provider);
    checkKeyText(key);
    const { s } = await known(c, b.provider);
    const row = await s.saveKey(b.provider, key);
    // The incumbent's answer ({provider: id, display_name, action}); `row` is the updated row our panel shows.
    return c.json({ ok: true, provider: row.id, display_name: row.label, action: 'updated', row: withIncumbentFields(row) });
  });

  app.post('/api/providers/delete', async (c) => {
    requireSetupAllowed(c, deps);
    const b = await jsonBody(c, z.object({ provider: ProviderId }));
    return removed(c, b.provider);
  });

  app.post('/api/providers/self-hosted', async (c) => {
    requireSetupAllowed(c, deps);
    const raw = await jsonBody(c, z.record(z.string(), z.unknown()));
    // The incumbent's body names a preset (`provider`); ours names a new endpoint (`name`).
    if (raw.name === undefined && raw.provider !== undefined) {
      const b = parseWith(PresetBody, raw);
      await (await setup(c)).apply(b);
      return c.json({ ok: true, provider: b.provider, base_url: b.base_url, model: b.model });
    }
    const b = parseWith(CustomBody, raw);
    return c.json({ ok: true, provider: await (await setup(c)).addCustomProvider(b) });
  });

  return app;
}
