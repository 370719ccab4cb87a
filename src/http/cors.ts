import type { Context, MiddlewareHandler } from 'hono';
import type { AppDeps } from '../deps.js';
import type { EmbedTokenRecord } from '../ports/embed-token-store.js';
import type { EmbedTokens } from '../embed/tokens.js';
import type { AuthConfig } from '../config.js';
import { CROSS_ORIGIN_MESSAGE, isOwnOrigin } from './origin.js';

/** A foreign origin that is not on the embed allowlist: usually a reverse proxy that rewrites Host, or another site. */
export const NOT_ALLOWED = `${CROSS_ORIGIN_MESSAGE} To embed Hermes on another site, add that site to HERMES_WEBUI_EMBED_ORIGINS.`;
export const TOKEN_REQUIRED = 'A valid embed token is required';
export const ALLOW_METHODS = 'GET, POST, OPTIONS';
export const ALLOW_HEADERS = 'Authorization, Content-Type, Last-Event-ID';

/**
 * What an embed token may call, and whether the call names the session a session-bound token
 * is limited to. Everything else (settings, files, tokens, listing sessions…) is refused.
 */
const EMBED_ROUTES: Record<string, { methods: string[]; unboundOnly?: boolean; noSession?: boolean }> = {
  '/api/embed/whoami': { methods: ['GET'], noSession: true },
  '/api/models': { methods: ['GET'], noSession: true },
  '/api/session': { methods: ['GET'] },
  '/api/session/new': { methods: ['POST'], unboundOnly: true, noSession: true },
  '/api/session/update': { methods: ['POST'] },
  '/api/upload': { methods: ['POST'], unboundOnly: true, noSession: true },
  '/api/chat/start': { methods: ['POST'] },
  '/api/chat/stream': { methods: ['GET'] },
  '/api/chat/stream/status': { methods: ['GET'] },
  '/api/chat/cancel': { methods: ['POST'] },
  '/api/approval/pending': { methods: ['GET'] },
  '/api/approval/respond': { methods: ['POST'] },
  '/api/clarify/pending': { methods: ['GET'] },
  '/api/clarify/respond': { methods: ['POST'] },
};

/** The embed token a request carries: `Authorization: Bearer …`, or `?token=` (EventSource cannot set headers). */
export function requestToken(c: Context): string | null {
  const auth = c.req.header('Authorization');
  const m = auth ? /^Bearer\s+(\S+)$/i.exec(auth) : null;
  return m?.[1] ?? c.req.query('token') ?? null;
}

/** The token record an embedded request was let in with (absent for same-origin requests). */
export function embedGrant(c: Context): EmbedTokenRecord | undefined {
  return (c as unknown as { get(key: string): unknown }).get('embedGrant') as EmbedTokenRecord | undefined;
}

/** The session a request acts on: `session_id` in the query or JSON body, or a stream's session. */
async function targetSession(c: Context, deps: AppDeps): Promise<string | null> {
  let sessionId = c.req.query('session_id') ?? null;
  let streamId = c.req.query('stream_id') ?? null;
  if (c.req.method === 'POST' && (c.req.header('Content-Type') ?? '').includes('application/json')) {
    try {
      // Hono caches the body, so the route reads it again.
      const body = JSON.parse(await c.req.text()) as Record<string, unknown>;
      if (typeof body?.session_id === 'string') sessionId ??= body.session_id;
      if (typeof body?.stream_id === 'string') streamId ??= body.stream_id;
    } catch {
      /* the route answers malformed JSON */
    }
  }
  if (sessionId) return sessionId;
  if (streamId) {
    const live = deps.agent.registry.get(streamId);
    if (live) return live.sessionId;
    return (await deps.agent.registry.journal.read(streamId).catch(() => null))?.sessionId ?? null;
  }
  return null;
}

/**
 * Cross-origin embedding. Requests without an Origin header, or from this server's own origin,
 * pass untouched. A foreign origin must be in `HERMES_WEBUI_EMBED_ORIGINS` (else 403) and, for
 * the API, carry a valid embed token for that origin — and that session, if the token is
 * bound to one (else 401). Allowed answers name the origin (never `*`) and vary on it.
 * Refusals also name it, so the embedding page can read why it was refused.
 */
export function embedCors(deps: AppDeps, tokens: EmbedTokens | null, config: Pick<AuthConfig, 'trustForwardedHost' | 'allowedOrigins'>): MiddlewareHandler {
  const allowed = new Set(deps.embed?.origins ?? []);
  return async (c, next) => {
    const origin = c.req.header('Origin');
    if (!origin || c.req.header('Sec-Fetch-Site') === 'same-origin') return next();
    // This server's own pages (also behind a proxy, or an origin the operator allowed).
    if (isOwnOrigin(c, origin, config)) return next();

    const path = c.req.path;
    const isApi = path === '/api' || path.startsWith('/api/');
    // The element's bundle, and KaTeX's stylesheet and fonts it loads when a reply has math
    // (fonts are always fetched with CORS).
    const isEmbedAsset = path.startsWith('/embed/') || path.startsWith('/assets/katex/');
    const corsHeaders = (headers: Headers) => {
      headers.set('Access-Control-Allow-Origin', origin);
      headers.append('Vary', 'Origin');
    };
    const refuse = (status: 401 | 403, error: string) => {
      const res = c.json({ error }, status);
      // Readable refusals for API calls (not preflights: those must simply fail).
      if (isApi && c.req.method !== 'OPTIONS') corsHeaders(res.headers);
      res.headers.set('Cache-Control', 'no-store');
      return res;
    };

    // Other pages of the app (the shell, its assets) are not for embedding: leave them as they were.
    if (!isApi && !isEmbedAsset) return next();
    if (!allowed.has(origin)) return refuse(403, NOT_ALLOWED);

    if (c.req.method === 'OPTIONS') {
      // A preflight carries no credentials: the origin decides it; the real request shows its token.
      return new Response(null, {
        status: 204,
        headers: {
          'Access-Control-Allow-Origin': origin,
          'Access-Control-Allow-Methods': ALLOW_METHODS,
          'Access-Control-Allow-Headers': ALLOW_HEADERS,
          'Access-Control-Max-Age': '600',
          Vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers',
        },
      });
    }

    if (isApi) {
      // Tokens are made, listed and revoked only by the server's own pages (or loopback tools).
      if (path.startsWith('/api/embed/tokens')) return refuse(403, 'Embed tokens can only be managed from Hermes itself');
      const token = requestToken(c);
      const grant = token && tokens ? await tokens.verify(token, origin) : null;
      if (!grant) return refuse(401, TOKEN_REQUIRED);
      const route = EMBED_ROUTES[path];
      if (!route?.methods.includes(c.req.method)) return refuse(403, `An embed token cannot use ${c.req.method} ${path}`);
      if (grant.session_id) {
        if (route.unboundOnly) return refuse(403, 'This embed token is limited to one session');
        if (!route.noSession && (await targetSession(c, deps)) !== grant.session_id) return refuse(401, 'This embed token is not valid for that session');
      }
      (c as unknown as { set(key: string, value: unknown): void }).set('embedGrant', grant);
    }

    await next();
    let res = c.res;
    try {
      corsHeaders(res.headers);
    } catch {
      // Immutable headers (a fetched Response): copy it.
      res = new Response(res.body, res);
      corsHeaders(res.headers);
      c.res = res;
    }
  };
}
