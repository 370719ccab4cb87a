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
 * The home a session's turns work in: the profile it was made in (the browser's profile may have
 * changed since), or `default` for a session without one or whose profile was deleted.
 */
export async function sessionHome(deps: Pick<AppDeps, 'homes'>, session: { profile?: string | null | undefined }): Promise<HermesHome> {
  const name = typeof session.profile === 'string' && PROFILE_NAME.test(session.profile) ? session.profile : DEFAULT_PROFILE;
  return deps.homes.get(name).catch((err) => {
    if (err instanceof NotFound) return deps.homes.defaultHome;
    throw err;
  });
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

/** The agent's setup (wizard, Settings → Providers) for the browser's profile; undefined where the agent is configured elsewhere. */
export async function requestSetup(c: Context, deps: Pick<AppDeps, 'homes' | 'agent'>) {
  const runtime = deps.agent.runtime;
  if (!runtime.setup) return undefined;
  return runtime.setupFor?.(await requestHome(c, deps)) ?? runtime.setup;
}

/** The browser's profile's saved workspaces and last workspace. */
export async function requestWorkspaces(c: Context, deps: Pick<AppDeps, 'homes' | 'workspaces' | 'workspacesFor'>) {
  const home = await requestHome(c, deps);
  return home.profile !== DEFAULT_PROFILE && deps.workspacesFor ? deps.workspacesFor(home) : deps.workspaces;
}
