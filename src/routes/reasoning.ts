import type { Context } from 'hono';
import { Hono } from 'hono';
import { requestHome } from '../http/request-home.js';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { jsonBody, queryParams } from '../http/validate.js';
import { Conflict, NotFound } from '../ports/errors.js';
import { ConfigSyntaxError } from '../agent/config-edit.js';
import { REASONING_EFFORTS } from '../agent/reasoning.js';
import { reasoningStatus, setReasoningEffort, setShowReasoning } from '../agent/reasoning-config.js';

const Target = {
  model: z.string().trim().max(256).optional(),
  provider: z.string().trim().max(128).optional(),
  base_url: z.string().trim().max(2048).optional(),
};
const Query = z.object(Target);
const DISPLAY: Record<string, boolean> = { show: true, on: true, true: true, '1': true, hide: false, off: false, false: false, '0': false };
const Body = z
  .object({
    ...Target,
    display: z
      .union([z.string(), z.boolean()])
      .transform((v) => String(v).trim().toLowerCase())
      .refine((v) => v in DISPLAY, 'display must be show|hide|on|off')
      .optional(),
    // '' clears the override (the provider default), as in the incumbent.
    effort: z
      .string()
      .transform((v) => v.trim().toLowerCase())
      .refine(
        (v) => v === '' || (REASONING_EFFORTS as readonly string[]).includes(v),
        `effort must be one of ${REASONING_EFFORTS.join(', ')} (or "" for the default)`,
      )
      .optional(),
  })
  .refine((b) => b.display !== undefined || b.effort !== undefined, "reasoning: must supply 'display' or 'effort'");

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
      await config.updateConfigYaml((text) => {
        let next = text;
        if (b.display !== undefined) next = setShowReasoning(next, DISPLAY[b.display]!);
        if (b.effort !== undefined) next = setReasoningEffort(next, b.effort === '' ? null : (b.effort as (typeof REASONING_EFFORTS)[number]));
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
