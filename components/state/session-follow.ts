import { apiLinkUrl } from '../api/client.js';
import type { ServerTurnStarted } from '../../src/shared/live-events.js';

/** What the follower needs from the open chat (ChatStore). */
export interface FollowedChat {
  readonly sessionId: string | null;
  /** The stream this tab shows (its own turn, or one it already follows). */
  readonly streamId: string | null;
  /** Messages the server has stored that this tab has (loaded or not). */
  knownCount(): number;
  /** A turn started elsewhere: stream it here. */
  followRun(sessionId: string, streamId: string, pendingStartedAt: number): Promise<void>;
  /** The stored session is ahead of this tab: load it again (when idle). */
  reload(): Promise<void>;
}

/**
 * The open session's channel, `GET /api/session/stream`: a turn started in another tab or by a
 * task (`server_turn_started`) is attached to here, so it streams live; `session-updated` (a turn
 * ended, or ended while this tab was away) reloads the session when this tab is behind. Turns
 * are taken once per (session, stream): the replay on reconnect (`recovered`) repeats them.
 */
export class SessionFollow {
  #source: EventSource | null = null;
  #sessionId: string | null = null;
  #seen = new Set<string>();

  constructor(private readonly chat: FollowedChat) {}

  /** Follows `sessionId` (null: none); the previous session's channel closes. */
  watch(sessionId: string | null): void {
    if (sessionId === this.#sessionId && this.#source) return;
    this.close();
    this.#sessionId = sessionId;
    if (!sessionId || typeof EventSource === 'undefined') return;
    const url = `/api/session/stream?session_id=${encodeURIComponent(sessionId)}&known_count=${this.chat.knownCount()}`;
    const source = new EventSource(apiLinkUrl(url));
    this.#source = source;
    source.addEventListener('server_turn_started', (e) => {
      const turn = this.#parse<ServerTurnStarted>(source, e);
      if (!turn || turn.session_id !== sessionId) return;
      const key = `${turn.session_id}\n${turn.stream_id}`;
      if (this.#seen.has(key)) return;
      this.#seen.add(key);
      // This tab's own turn (or one it follows already) needs nothing.
      if (this.chat.streamId === turn.stream_id) return;
      void this.chat.followRun(sessionId, turn.stream_id, turn.pending_started_at);
    });
    source.addEventListener('session-updated', (e) => {
      const update = this.#parse<{ session_id: string; message_count: number }>(source, e);
      if (!update || update.session_id !== sessionId || this.chat.sessionId !== sessionId) return;
      if (typeof update.message_count === 'number' && update.message_count > this.chat.knownCount()) void this.chat.reload();
    });
    // A 4xx (the session went) closes it for good; otherwise EventSource reconnects by itself.
  }

  close(): void {
    this.#source?.close();
    this.#source = null;
    this.#sessionId = null;
  }

  #parse<T>(source: EventSource, e: Event): T | null {
    if (this.#source !== source) return null;
    try {
      return JSON.parse((e as MessageEvent<string>).data) as T;
    } catch {
      return null;
    }
  }
}
