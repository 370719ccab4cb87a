import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { BadRequest, NotAvailable } from '../ports/errors.js';
import { jsonBody } from '../http/validate.js';
import { requestHome } from '../http/request-home.js';
import type { SavedPrompt } from '../ports/saved-prompts.js';

/** The incumbent's limits. */
export const MAX_SAVED_PROMPTS = 200;
export const MAX_PROMPT_CHARS = 8000;
const LABEL_FROM_TEXT = 60;

export const PROMPTS_UNAVAILABLE =
  'Saved prompts are not available on this deployment: they live in a file of the Hermes home, and Cloudflare Workers has no file system.';

/** Python's `str(body.get(k) or "").strip()`: absent, null, false, 0 and "" are empty. */
const loose = z
  .unknown()
  .optional()
  .transform((v) => (v === undefined || v === null || v === false || v === 0 || v === '' ? '' : String(v)).trim());
const SaveBody = z.object({ text: loose, label: loose });
const DeleteBody = z.object({ id: loose });

/** Code points, as Python counts and slices. */
const chars = (s: string) => Array.from(s);

/**
 * `GET|POST|DELETE /api/prompts`: the profile's saved prompts (≤200, each ≤8,000 characters),
 * in `<profile home>/webui/saved_prompts.json` as the incumbent keeps them.
 */
export function promptRoutes(deps: AppDeps) {
  const app = new Hono();
  const store = () => {
    if (!deps.prompts) throw new NotAvailable(PROMPTS_UNAVAILABLE);
    return deps.prompts;
  };

  app.get('/api/prompts', async (c) => {
    const prompts = store();
    return c.json({ prompts: await prompts.list((await requestHome(c, deps)).root) });
  });

  app.post('/api/prompts', async (c) => {
    const prompts = store();
    const b = await jsonBody(c, SaveBody);
    if (!b.text) throw new BadRequest('text is required');
    if (chars(b.text).length > MAX_PROMPT_CHARS) throw new BadRequest(`text too long (max ${MAX_PROMPT_CHARS} chars)`);
    const prompt: SavedPrompt = {
      id: crypto.randomUUID().replace(/-/g, '').slice(0, 12),
      label: b.label || chars(b.text).slice(0, LABEL_FROM_TEXT).join(''),
      text: b.text,
      created_at: deps.clock.now(),
    };
    await prompts.change((await requestHome(c, deps)).root, (list) => {
      if (list.length >= MAX_SAVED_PROMPTS) throw new BadRequest(`saved prompts limit reached (max ${MAX_SAVED_PROMPTS})`);
      return [...list, prompt];
    });
    return c.json({ ok: true, prompt });
  });

  app.delete('/api/prompts', async (c) => {
    const prompts = store();
    const b = await jsonBody(c, DeleteBody);
    if (!b.id) throw new BadRequest('id is required');
    await prompts.change((await requestHome(c, deps)).root, (list) => list.filter((p) => p.id !== b.id));
    return c.json({ ok: true });
  });

  return app;
}
