import { Hono } from 'hono';
import type { AppDeps } from '../deps.js';
import { z } from 'zod';
import { BadRequest } from '../ports/errors.js';
import { jsonBody } from '../http/validate.js';

const DefaultModelBody = z.object({ model: z.string().trim().min(1, 'model must not be empty').max(256) });

interface ModelOption {
  id: string;
  label: string;
  provider: string;
}

/** `custom:<name>:<model>` reads as its model; other ids as they are. */
function labelFor(id: string): string {
  const m = /^custom:[^:]*:(.+)$/.exec(id);
  return m ? m[1]! : id;
}

/**
 * `GET /api/models`: what the model picker offers, from the agent's configuration. No model
 * configured is an answer (empty list), not an error; a config.yaml that does not parse is
 * reported in `error` so the picker can say why it is empty.
 */
export function modelRoutes(deps: AppDeps) {
  const app = new Hono();

  app.get('/api/models', async (c) => {
    const runtime = deps.agent.runtime;
    let catalog = { default: null as string | null, provider: null as string | null, models: [] as Array<{ id: string; provider: string }> };
    let error: string | undefined;
    try {
      if (runtime.models) catalog = await runtime.models();
    } catch (err) {
      if (!(err instanceof BadRequest)) throw err;
      error = err.message;
    }
    const models: ModelOption[] = catalog.models.map((m) => ({ id: m.id, label: labelFor(m.id), provider: m.provider }));
    const groups: Array<{ provider: string; models: ModelOption[] }> = [];
    for (const m of models) {
      const group = groups.find((g) => g.provider === m.provider);
      if (group) group.models.push(m);
      else groups.push({ provider: m.provider, models: [m] });
    }
    return c.json({ default_model: catalog.default, active_provider: catalog.provider, models, groups, ...(error ? { error } : {}) });
  });

  // The incumbent's path: makes a model the default for new turns (model.default in config.yaml).
  app.post('/api/default-model', async (c) => {
    const b = await jsonBody(c, DefaultModelBody);
    const runtime = deps.agent.runtime;
    if (!runtime.setDefaultModel) throw new BadRequest('This agent cannot change its default model');
    await runtime.setDefaultModel(b.model.trim());
    return c.json({ ok: true, default_model: b.model.trim() });
  });

  return app;
}
