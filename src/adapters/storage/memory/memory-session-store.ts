import type { Clock } from '../../../ports/platform.js';
import type { Session } from '../../../shared/session.js';
import { RowIndexedSessionStore } from '../session-store-base.js';

/**
 * The reference SessionStore: everything in a Map. Values are cloned on the way in and out,
 * so callers see the same copy semantics as a persistent adapter.
 *
 * @example
 * const store = new MemorySessionStore({ now: () => Date.now() / 1000 });
 */
export class MemorySessionStore extends RowIndexedSessionStore {
  readonly kind = 'memory';
  #sessions = new Map<string, Session>();

  constructor(clock: Clock) {
    super(clock);
  }

  async init(): Promise<void> {}
  async dispose(): Promise<void> {
    await this.locks.idle();
  }

  protected async load(id: string): Promise<Session | null> {
    return this.#sessions.get(id) ?? null;
  }

  protected async persist(session: Session): Promise<void> {
    this.#sessions.set(session.session_id, structuredClone(session));
  }

  protected async remove(id: string): Promise<boolean> {
    return this.#sessions.delete(id);
  }
}
