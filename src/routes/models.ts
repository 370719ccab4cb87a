import { Hono, type Context } from 'hono';
import { requestHome } from '../http/request-home.js';
import type { AppDeps } from '../deps.js';
import { z } from 'zod';
import { BadRequest } from '../ports/errors.js';
import { jsonBody } from '../http/validate.js';
import type { Catalog } from '../agent/runtime.js';
import { parseAgentConfig } from '../agent/config.js';

const DefaultModelBody = z.object({
  model: z.string({ error: 'model is required' }).trim().min(1, 'model is required').max(256),
  provider: z.string().max(128).nullish(),
});

/** The catalog as the incumbent shapes it, plus a flat `models` list older clients read. */
function present(catalog: Catalog, error?: string) {
  const models = catalog.groups.flatMap((g) => g.models.map((m) => ({ id: m.id, label: m.label, provider: g.provider })));
  return { ...catalog, models, ...(error ? { error } : {}) };
}

const EMPTY: Catalog = { active_provider: null, default_model: null, groups: [], fetched_at: null, stale: false };

/** The answer of GET /api/models (also the `models` block of the onboarding status). */
export async function modelCatalog(c: Context, deps: AppDeps, refresh = false) {
  const runtime = deps.agent.runtime;
  if (!runtime.models) return present(EMPTY);
  try {
    return present(await runtime.models({ refresh, home: await requestHome(c, deps) }));
  } catch (err) {
    if (!(err instanceof BadRequest)) throw err;
    return present(EMPTY, err.message);
  }
}

/**
 * `GET /api/models`: what the model picker offers, grouped by provider: the configuration's
 * models and each configured endpoint's live list, within a time budget (see
 * ModelCatalogService). No model configured is an answer (no groups); a config.yaml that does
 * not parse is reported in `error` so the picker can say why it is empty.
 */
export function modelRoutes(deps: AppDeps) {
  const app = new Hono();

  const catalog = async (c: Context, refresh: boolean) => c.json(await modelCatalog(c, deps, refresh));

  app.get('/api/models', (c) => catalog(c, false));
  app.post('/api/models/refresh', (c) => catalog(c, true));

  // The incumbent's path: makes a model the default for new turns (model.default in config.yaml).
  app.post('/api/default-model', async (c) => {
    const b = await jsonBody(c, DefaultModelBody);
    const runtime = deps.agent.runtime;
    if (!runtime.setDefaultModel) throw new BadRequest('This agent cannot change its default model');
    const home = await requestHome(c, deps);
    await runtime.setDefaultModel(b.model.trim(), home);
    // The incumbent's `{ok, model, provider}` (the provider config.yaml names now); `default_model` is ours.
    const { configYaml, dotenv } = await home.config.readFiles();
    const provider = parseAgentConfig({ configYaml, dotenv, env: {} }).model.provider;
    return c.json({ ok: true, model: b.model.trim(), provider, default_model: b.model.trim() });
  });

  return app;
}
