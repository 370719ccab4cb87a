import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { BadRequest, NotFound } from '../ports/errors.js';
import { jsonBody } from '../http/validate.js';
import { embedGrant } from '../http/cors.js';
import { MAX_TTL_SECONDS, normaliseOrigin, type EmbedTokens } from '../embed/tokens.js';
import { SessionId } from './session-common.js';

const MintBody = z.object({
  origin: z.string({ error: 'origin is required' }).max(300),
  session_id: SessionId.nullable().optional(),
  ttl_seconds: z
    .number({ error: 'ttl_seconds must be a number' })
    .int('ttl_seconds must be a whole number')
    .min(60, 'ttl_seconds must be at least 60')
    .max(MAX_TTL_SECONDS, `ttl_seconds must be at most ${MAX_TTL_SECONDS}`)
    .optional(),
});
const RevokeBody = z.object({ id: z.string({ error: 'id is required' }).max(64) });

/**
 * Embed tokens for <hermes-chat> on other origins. Managing them is refused to foreign
 * origins by the CORS middleware; `whoami` lets an embedded element check its token.
 */
export function embedRoutes(deps: AppDeps, tokens: EmbedTokens | null) {
  const app = new Hono();
  const origins = deps.embed?.origins ?? [];
  const need = () => {
    if (!tokens) throw new NotFound('Embedding is not configured on this server');
    return tokens;
  };

  app.post('/api/embed/tokens', async (c) => {
    const t = need();
    const b = await jsonBody(c, MintBody);
    const origin = normaliseOrigin(b.origin);
    if (!origin) throw new BadRequest('origin must be an http(s) origin such as https://example.com');
    if (!origins.includes(origin)) throw new BadRequest(`${origin} is not in HERMES_WEBUI_EMBED_ORIGINS`);
    if (b.session_id && !(await deps.sessions.get(b.session_id).catch(() => null))) throw new NotFound('Session not found');
    const minted = await t.mint({ origin, session_id: b.session_id ?? null, ...(b.ttl_seconds !== undefined ? { ttl_seconds: b.ttl_seconds } : {}) });
    return c.json({ token: minted.token, id: minted.id, origin, session_id: b.session_id ?? null, expires_at: minted.expires_at });
  });

  app.get('/api/embed/tokens', async (c) => c.json({ origins, tokens: tokens ? await tokens.list() : [] }));

  app.post('/api/embed/tokens/revoke', async (c) => {
    const b = await jsonBody(c, RevokeBody);
    if (!(await need().revoke(b.id))) throw new NotFound('Embed token not found');
    return c.json({ ok: true, id: b.id });
  });

  app.get('/api/embed/whoami', async (c) => {
    const grant = embedGrant(c);
    if (!grant) return c.json({ embedded: false });
    return c.json({ embedded: true, id: grant.id, origin: grant.origin, session_id: grant.session_id, expires_at: grant.expires_at });
  });

  return app;
}
