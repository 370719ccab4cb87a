import { LAST_ACTIVE_KEY } from '../../src/shared/canonical-session.js';

/**
 * The last session this browser had open (localStorage, the incumbent's key, every tab agrees):
 * boot restore's advisory requested id when the URL names none. Storage denied: nothing kept.
 */
export const lastActive = {
  get(): string | null {
    try {
      return localStorage.getItem(LAST_ACTIVE_KEY);
    } catch {
      return null;
    }
  },
  set(id: string): void {
    try {
      localStorage.setItem(LAST_ACTIVE_KEY, id);
    } catch {
      /* storage denied */
    }
  },
  /** Forgets `id` (or whatever is kept, without one): a new chat, a session that is gone. */
  forget(id?: string): void {
    try {
      if (id === undefined || localStorage.getItem(LAST_ACTIVE_KEY) === id) localStorage.removeItem(LAST_ACTIVE_KEY);
    } catch {
      /* storage denied */
    }
  },
};
