import { request } from '../api/client.js';

/** The incumbent's composer debounce: one save after typing pauses. */
export const DRAFT_DEBOUNCE_MS = 400;

/**
 * The composer's draft on the server (`composer_draft`, POST /api/session/draft), so another
 * device opening the session finds it. The browser's own copy (offline cache) stays the first
 * source; this only mirrors it, debounced, and a failed save is dropped (the next keystroke sends
 * the whole text again).
 */
export class ServerDraft {
  #timer: ReturnType<typeof setTimeout> | null = null;
  #pending: { sessionId: string; text: string } | null = null;
  /** The last text the server holds per session, so an unchanged draft is not sent again. */
  #sent = new Map<string, string>();

  constructor(private readonly delayMs = DRAFT_DEBOUNCE_MS) {}

  /** What the server said the session's draft is (read from the session answer). */
  known(sessionId: string, text: string): void {
    this.#sent.set(sessionId, text);
  }

  schedule(sessionId: string | null, text: string): void {
    if (!sessionId) return;
    // Another session's pending save goes out now: it must not be lost to the switch.
    if (this.#pending && this.#pending.sessionId !== sessionId) this.flush();
    this.#pending = { sessionId, text };
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.flush(), this.delayMs);
  }

  flush(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const p = this.#pending;
    this.#pending = null;
    if (!p || (this.#sent.get(p.sessionId) ?? '') === p.text) return;
    this.#sent.set(p.sessionId, p.text);
    void request('POST', '/api/session/draft', { session_id: p.sessionId, text: p.text }).catch(() => this.#sent.delete(p.sessionId));
  }
}

/** The text of a session answer's `composer_draft` ('' when none). */
export function serverDraftText(session: unknown): string {
  const draft = (session as { composer_draft?: { text?: unknown } } | null | undefined)?.composer_draft;
  return typeof draft?.text === 'string' ? draft.text : '';
}
