import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { AppDeps } from '../deps.js';
import { NotFound } from '../ports/errors.js';
import { DEFAULT_PROFILE, PROFILE_NAME, type HermesHome } from '../ports/hermes-home.js';

/** The browser's chosen profile (the incumbent's cookie name). */
export const PROFILE_COOKIE = 'hermes_profile';

const resolved = new WeakMap<Request, Promise<HermesHome>>();

/** The profile name the request's cookie carries; `default` when it carries none or a malformed one. */
export function cookieProfile(c: Context): string {
  const value = getCookie(c, PROFILE_COOKIE) ?? '';
  // A signed value is `<name>.<signature>`; names never contain a dot.
  const name = value.split('.')[0] ?? '';
  return PROFILE_NAME.test(name) ? name : DEFAULT_PROFILE;
}

/**
 * The Hermes home this request works in: the browser's profile, or `default` when that profile
 * was deleted meanwhile. Resolved once per request; routes pass it down to what they call.
 */
export function requestHome(c: Context, deps: Pick<AppDeps, 'homes'>): Promise<HermesHome> {
  let home = resolved.get(c.req.raw);
  if (!home) {
    const name = cookieProfile(c);
    home = deps.homes.get(name).catch((err) => {
      if (err instanceof NotFound) return deps.homes.defaultHome;
      throw err;
    });
    resolved.set(c.req.raw, home);
  }
  return home;
}
