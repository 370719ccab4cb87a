import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { AppDeps } from '../deps.js';
import { hmacHex, timingSafeEqual } from '../auth/crypto.js';
import { NotFound } from '../ports/errors.js';
import { DEFAULT_PROFILE, PROFILE_NAME, type HermesHome } from '../ports/hermes-home.js';
import { authEnabled, authSession } from './auth-guard.js';

/** The browser's chosen profile (the incumbent's cookie name). */
export const PROFILE_COOKIE = 'hermes_profile';
const COOKIE_MAX_AGE = 365 * 86400;

type CookieDeps = Pick<AppDeps, 'auth'>;

const resolved = new WeakMap<Request, Promise<HermesHome>>();

/** The incumbent's binding: HMAC of `profile:<session token>:<name>` with the sign-in key. */
async function signature(deps: CookieDeps, token: string, name: string): Promise<string> {
  return hmacHex(await deps.auth.key('signing'), `profile:${token}:${name}`);
}

/**
 * The profile name the request's cookie carries; `default` when it carries none, a malformed
 * one, or (with a password set) one whose signature is not this sign-in's.
 */
export async function cookieProfile(c: Context, deps: CookieDeps): Promise<string> {
  const value = getCookie(c, PROFILE_COOKIE) ?? '';
  const dot = value.lastIndexOf('.');
  // A signed value is `<name>.<signature>`; names never contain a dot.
  const name = dot === -1 ? value : value.slice(0, dot);
  if (!PROFILE_NAME.test(name)) return DEFAULT_PROFILE;
  if (!authEnabled(c)) return name;
  const token = authSession(c);
  if (!token || dot === -1) return DEFAULT_PROFILE;
  return timingSafeEqual(value.slice(dot + 1), await signature(deps, token, name)) ? name : DEFAULT_PROFILE;
}

/** `Set-Cookie` for choosing `name`: HttpOnly, Lax, Secure over https, signed when a password is set. */
export async function profileCookie(c: Context, deps: CookieDeps, name: string, secure: boolean): Promise<string> {
  const token = authEnabled(c) ? authSession(c) : undefined;
  const value = token ? `${name}.${await signature(deps, token, name)}` : name;
  return `${PROFILE_COOKIE}=${value}; HttpOnly; SameSite=Lax; Path=/; Max-Age=${COOKIE_MAX_AGE}${secure ? '; Secure' : ''}`;
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
export function requestHome(c: Context, deps: Pick<AppDeps, 'homes' | 'auth'>): Promise<HermesHome> {
  let home = resolved.get(c.req.raw);
  if (!home) {
    home = cookieProfile(c, deps).then((name) =>
      deps.homes.get(name).catch((err) => {
        if (err instanceof NotFound) return deps.homes.defaultHome;
        throw err;
      }),
    );
    resolved.set(c.req.raw, home);
  }
  return home;
}

/** The agent's setup (wizard, Settings → Providers) for the browser's profile; undefined where the agent is configured elsewhere. */
export async function requestSetup(c: Context, deps: Pick<AppDeps, 'homes' | 'auth' | 'agent'>) {
  const runtime = deps.agent.runtime;
  if (!runtime.setup) return undefined;
  return runtime.setupFor?.(await requestHome(c, deps)) ?? runtime.setup;
}

/** A profile's saved workspaces and last workspace. */
export function workspacesOf(deps: Pick<AppDeps, 'workspaces' | 'workspacesFor'>, home: HermesHome) {
  return home.profile !== DEFAULT_PROFILE && deps.workspacesFor ? deps.workspacesFor(home) : deps.workspaces;
}

/** The browser's profile's saved workspaces and last workspace. */
export async function requestWorkspaces(c: Context, deps: Pick<AppDeps, 'homes' | 'auth' | 'workspaces' | 'workspacesFor'>) {
  return workspacesOf(deps, await requestHome(c, deps));
}
