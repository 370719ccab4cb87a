import type { ApiSession } from '../api/client.js';
import { offlineCache } from '../offline/cache.js';
import { ServerDraft, serverDraftText } from './server-draft.js';

/** How the session the composer serves changed in an update. */
export type DraftChange = 'same' | 'first' | 'switched' | 'adopted';

/**
 * The composer's text as each session's draft: kept by the offline cache (at once if still in its
 * write-ahead entry, else from IndexedDB a moment later; typing meanwhile wins), mirrored on the
 * session for other devices (server-draft.ts), and taken from there when this browser has none.
 */
export class ComposerDrafts {
  /** The session the text belongs to (undefined before the first update). */
  #bound: string | null | undefined = undefined;
  #server = new ServerDraft();
  /** A session whose browser copy had no draft: the server's is taken once the session is loaded. */
  #restoreFrom: string | null = null;

  constructor(private readonly host: { text: string; requestUpdate(): void }) {}

  /**
   * Follows the session the view names (`id`; `session` once loaded). On a switch the text becomes
   * that session's draft; `adopting` (the composer's own new session) keeps what is typed and
   * moves it there.
   */
  follow(id: string | null, session: ApiSession | null | undefined, adopting: boolean): DraftChange {
    this.#takeServer(session);
    if (id === this.#bound) return 'same';
    const first = this.#bound === undefined;
    this.#bound = id;
    if (adopting) {
      offlineCache.saveDraft(null, '');
      this.save(id, this.host.text);
      return 'adopted';
    }
    this.host.text = offlineCache.draftNow(id) ?? '';
    this.#restoreFrom = null;
    if (!this.host.text) {
      void offlineCache.draft(id).then((stored) => {
        if (this.#bound !== id || this.host.text) return;
        if (stored) this.host.text = stored;
        // Nothing in this browser: the draft typed on another device, once the session is here.
        else if (id) (this.#restoreFrom = id), this.host.requestUpdate();
      });
    }
    return first ? 'first' : 'switched';
  }

  /** The text typed for `id` (null: the new chat), kept here and mirrored to the server. */
  save(id: string | null, text: string): void {
    offlineCache.saveDraft(id, text);
    this.#server.schedule(id, text);
  }

  /** Sends a pending server save now (the composer leaves the page). */
  flush(): void {
    this.#server.flush();
  }

  #takeServer(session: ApiSession | null | undefined): void {
    const id = this.#restoreFrom;
    if (!id || session?.session_id !== id || this.#bound !== id) return;
    this.#restoreFrom = null;
    const text = serverDraftText(session);
    this.#server.known(id, text);
    if (text && !this.host.text) {
      this.host.text = text;
      offlineCache.saveDraft(id, text);
    }
  }
}
