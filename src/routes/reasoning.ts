import type { Context } from 'hono';
import { Hono } from 'hono';
import { requestHome } from '../http/request-home.js';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { jsonBody, queryParams } from '../http/validate.js';
import { Conflict, NotFound } from '../ports/errors.js';
import { ConfigSyntaxError } from '../agent/config-edit.js';
import { REASONING_EFFORTS, type ReasoningEffort } from '../agent/reasoning.js';
import { reasoningStatus, setReasoningEffort, setShowReasoning } from '../agent/reasoning-config.js';

const Target = {
  model: z.string().trim().max(256).optional(),
  provider: z.string().trim().max(128).optional(),
  base_url: z.string().trim().max(2048).optional(),
};
const Query = z.object(Target);
const DISPLAY: Record<string, boolean> = { show: true, on: true, true: true, '1': true, hide: false, off: false, false: false, '0': false };
/** How Python's str() writes a JSON value, for the incumbent's "(got 'x')" texts. */
const pyStr = (v: unknown) => (typeof v === 'boolean' ? (v ? 'True' : 'False') : typeof v === 'string' ? v : JSON.stringify(v));
type Change = { display?: boolean; effort?: ReasoningEffort | null };
/**
 * The incumbent's body and texts: `display` (show|hide|on|off, and true/false/1/0) and `effort`
 * (`""` clears the override: the provider default). Both at once set both (the incumbent: display only).
 */
const Body = z
  .object({ ...Target, display: z.unknown().optional(), effort: z.unknown().optional() })
  .transform((b, ctx): z.infer<typeof Query> & { change: Change } => {
    const change: Change = {};
    if (b.display !== undefined && b.display !== null) {
      change.display = DISPLAY[pyStr(b.display).trim().toLowerCase()];
      if (change.display === undefined) {
        ctx.addIssue({ code: 'custom', message: `display must be show|hide|on|off (got '${pyStr(b.display)}')` });
        return z.NEVER;
      }
    }
    if (b.effort !== undefined && b.effort !== null) {
      const raw = b.effort ? pyStr(b.effort).trim().toLowerCase() : '';
      if (raw !== '' && !(REASONING_EFFORTS as readonly string[]).includes(raw)) {
        ctx.addIssue({ code: 'custom', message: `Unknown reasoning effort '${pyStr(b.effort)}'. Valid: ${REASONING_EFFORTS.join(', ')}.` });
        return z.NEVER;
      }
      change.effort = raw === '' ? null : (raw as ReasoningEffort);
    }
    if (change.display === undefined && !('effort' in change)) {
      ctx.addIssue({ code: 'custom', message: "reasoning: must supply 'display' or 'effort'" });
      return z.NEVER;
    }
    return { model: b.model, provider: b.provider, base_url: b.base_url, change };
  });

/**
 * `GET|POST /api/reasoning`: `display.show_reasoning` and `agent.reasoning_effort` in config.yaml,
 * the file the Hermes CLI reads too, so a choice made here holds in the terminal and for a
 * Hermes gateway backend alike. The answer is gated on the model in the query or body.
 */
export function reasoningRoutes(deps: AppDeps) {
  const app = new Hono();
  // The browser's profile's config.yaml.
  const source = async (c: Context) => {
    if (!deps.agentConfig) throw new NotFound('Reasoning settings are not available on this server (no config.yaml)');
    return (await requestHome(c, deps)).config;
  };
  const status = async (c: Context, target: { model?: string | undefined; provider?: string | undefined }) => {
    const config = await source(c);
    const { configYaml } = await config.readFiles();
    try {
      return reasoningStatus(configYaml, target);
    } catch (err) {
      if (err instanceof ConfigSyntaxError) throw new Conflict(`${err.message}. Fix ${config.paths.config} by hand.`);
      throw err;
    }
  };

  app.get('/api/reasoning', async (c) => c.json(await status(c, queryParams(c, Query))));

  app.post('/api/reasoning', async (c) => {
    const b = await jsonBody(c, Body);
    const config = await source(c);
    try {
      const change = b.change;
      await config.updateConfigYaml((text) => {
        let next = text;
        if (change.display !== undefined) next = setShowReasoning(next, change.display);
        if (change.effort !== undefined) next = setReasoningEffort(next, change.effort);
        return next ?? '';
      });
    } catch (err) {
      // A malformed file is never rewritten.
      if (err instanceof ConfigSyntaxError) throw new Conflict(`${err.message}. Fix ${config.paths.config} by hand (or move it aside); it was not changed.`);
      throw err;
    }
    return c.json(await status(c, b));
  });

  return app;
}
