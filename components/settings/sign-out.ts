import { api, ApiError } from '../api/client.js';
import { offlineCache } from '../offline/cache.js';

/** What signing out does, step by step; tests replace the parts they watch. */
export const signOutSteps = {
  logout: (): Promise<unknown> => api.logout(),
  /** The offline copy (sessions, transcripts, drafts, outbox) is this user's: it goes too. */
  wipe: (): Promise<void> => offlineCache.wipe(),
  navigate: (url: string): void => location.assign(url),
};

/**
 * Signs this browser out: the server ends the sign-in and clears the cookie, the offline cache
 * is wiped, and the page goes to /login. A 401 means the sign-in had already ended, which is
 * as good. Any other failure (the server unreachable) rejects, and nothing is wiped: the
 * cookie would still be valid, so the page would come straight back.
 */
export async function signOut(steps = signOutSteps): Promise<void> {
  try {
    await steps.logout();
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 401)) throw err;
  }
  await steps.wipe();
  steps.navigate('/login');
}
