import type { Context, MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import type { AuthService } from '../auth/auth-service.js';
import type { AuthConfig } from '../config.js';
import { embedGrant } from './cors.js';
import { CROSS_ORIGIN_MESSAGE, requestSource } from './origin.js';

/** API paths anyone may call: signing in, and asking whether one must. */
const PUBLIC_API = new Set(['/api/auth/login', '/api/auth/status']);
/** A share link's snapshot is public by design; making and stopping links is not. */
const SHARE_READ = /^\/api\/share\/(?!create$|revoke$)[^/]+$/;
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
export const CSRF_HEADERS = ['X-Hermes-CSRF-Token', 'X-CSRF-Token'];
export const AUTH_REQUIRED = 'Authentication required';
export const SESSION_EXPIRED = 'Session expired - reload the page';

/** What a path is, for the sign-in rule: the API, an app page, or part of the public build. */
function kindOf(path: string, method: string): 'api' | 'page' | 'public' {
  if (path === '/api' || path.startsWith('/api/'))
    return PUBLIC_API.has(path) || ((method === 'GET' || method === 'HEAD') && SHARE_READ.test(path)) ? 'public' : 'api';
  if (path === '/' || path === '/index.html' || path.startsWith('/session/')) return 'page';
  // /login, /health, /sw.js, the manifest, icons, hashed assets, the embed bundle, /share/<token>.
  return 'public';
}

/** The signed-in session token of this request (set by authGuard), if any. */
export function authSession(c: Context): string | undefined {
  return (c as unknown as { get(key: string): unknown }).get('authSession') as string | undefined;
}

/** True when the request runs with auth on (set by authGuard). */
export function authEnabled(c: Context): boolean {
  return (c as unknown as { get(key: string): unknown }).get('authEnabled') === true;
}

/** `/login?next=<path?query>`: the whole target percent-encoded, so its own `&` and `?` survive. */
export function loginRedirect(c: Context): string {
  const url = new URL(c.req.url);
  return `/login?next=${encodeURIComponent(url.pathname + url.search)}`;
}

/**
 * The two gates every request passes, after embed CORS:
 * 1. Same-origin: a state-changing request from another origin (by Origin, Referer or
 *    Sec-Fetch-Site) is refused with 403. Embed tokens are the only cross-origin way in.
 * 2. Sign-in (when a password is set): the API answers 401 JSON and pages redirect to /login;
 *    a browser's state-changing request must also carry the session's CSRF token header.
 */
export function authGuard(auth: AuthService, config: AuthConfig): MiddlewareHandler {
  return async (c, next) => {
    const grant = embedGrant(c);
    const unsafe = UNSAFE_METHODS.has(c.req.method);
    const source = unsafe && !grant ? requestSource(c, config) : 'unknown';
    if (source === 'foreign') return c.json({ error: CROSS_ORIGIN_MESSAGE }, 403);

    const enabled = await auth.enabled();
    const vars = c as unknown as { set(key: string, value: unknown): void };
    vars.set('authEnabled', enabled);
    // An embed token is its own credential, checked by embedCors.
    if (!enabled || grant) return next();

    const token = await auth.verifySession(getCookie(c, auth.config.cookieName));
    if (token) vars.set('authSession', token);
    const kind = kindOf(c.req.path, c.req.method);
    if (kind === 'public') return next();
    if (!token) {
      if (kind === 'api') return c.json({ error: AUTH_REQUIRED }, 401);
      return c.redirect(loginRedirect(c), 302);
    }
    // Browsers prove the request comes from a page that read the token; tools (no Origin,
    // Referer or Sec-Fetch-Site) cannot be tricked into sending the cookie from a foreign page.
    if (unsafe && source === 'own') {
      const given = CSRF_HEADERS.map((h) => c.req.header(h)).find(Boolean);
      if (!(await auth.checkCsrf(token, given))) return c.json({ error: SESSION_EXPIRED }, 403);
    }
    return next();
  };
}

/** Whether the session cookie should be `Secure`: forced by config, TLS, or a trusted proxy's word. */
export function secureRequest(c: Context, config: AuthConfig): boolean {
  if (config.secureCookies !== undefined) return config.secureCookies;
  if (new URL(c.req.url).protocol === 'https:') return true;
  return config.trustForwardedProto && c.req.header('X-Forwarded-Proto')?.split(',')[0]?.trim() === 'https';
}
