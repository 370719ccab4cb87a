import { Hono, type Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import type { AuthService } from '../auth/auth-service.js';
import { jsonBody } from '../http/validate.js';
import { clientOf } from '../http/client.js';
import { authSession, secureRequest } from '../http/auth-guard.js';
import { TooManyRequests, Unauthorized } from '../ports/errors.js';

const LoginBody = z.object({ password: z.string({ error: 'password is required' }).max(1024, 'password is too long') });

export function tooManyAttempts(retryAfter: number): TooManyRequests {
  return new TooManyRequests(`Too many attempts. Try again in ${retryAfter} second${retryAfter === 1 ? '' : 's'}.`, retryAfter);
}

/** What GET /api/auth/status says (the incumbent's shape; no OIDC or passkeys here). */
export async function authStatus(c: Context, auth: AuthService) {
  const enabled = await auth.enabled();
  const token = authSession(c);
  return {
    auth_enabled: enabled,
    // With no password, every caller already has full access.
    logged_in: !enabled || !!token,
    password_auth_enabled: enabled,
    password_env_var: auth.passwordFromEnv,
    oidc_enabled: false,
    passwordless_enabled: false,
    passkeys_enabled: false,
    passkeys_count: 0,
    passkey_feature_flag: false,
    auth_disabled_acknowledged: false,
    session_ttl: auth.config.sessionTtlSeconds,
    // The page echoes it in X-Hermes-CSRF-Token on every state-changing request.
    ...(token ? { csrf_token: await auth.csrfToken(token) } : {}),
  };
}

/** `/api/auth/*`: sign in, sign out, and whether signing in is needed. */
export function authRoutes(deps: AppDeps, auth: AuthService) {
  const app = new Hono();

  app.get('/api/auth/status', async (c) => c.json(await authStatus(c, auth)));

  app.post('/api/auth/login', async (c) => {
    const { password } = await jsonBody(c, LoginBody);
    if (!(await auth.enabled())) return c.json({ ok: true, message: 'Auth not enabled' });
    const result = await auth.login(clientOf(c, deps).address, password);
    if (!result.ok) {
      if (result.reason === 'rate-limited') throw tooManyAttempts(result.retryAfter);
      throw new Unauthorized('Invalid password');
    }
    // A session from before this sign-in (another password, another user) ends here.
    const previous = await auth.verifySession(getCookie(c, auth.config.cookieName));
    if (previous) await auth.revokeSession(previous);
    c.header('Set-Cookie', auth.sessionCookie(result.cookieValue, secureRequest(c, auth.config)));
    return c.json({ ok: true });
  });

  app.post('/api/auth/logout', async (c) => {
    const secure = secureRequest(c, auth.config);
    if (!(await auth.enabled())) {
      c.header('Set-Cookie', auth.clearCookie(secure));
      return c.json({ ok: true });
    }
    const token = authSession(c);
    if (!token) throw new Unauthorized('Authentication required');
    await auth.revokeSession(token);
    c.header('Set-Cookie', auth.clearCookie(secure));
    return c.json({ ok: true });
  });

  return app;
}
