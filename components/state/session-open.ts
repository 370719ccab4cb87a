import { msg } from '@lit/localize';
import { api, ApiError, type ApiSession, type Message } from '../api/client.js';
import { offlineCache } from '../offline/cache.js';
import { canonicalTarget } from '../../src/shared/canonical-session.js';
import type { ChatStore } from './chat-store.js';
import { lastActive } from './last-active.js';
import { PAGE_SIZE } from './transcript-pages.js';

/** How a session is asked for (canonical session resolution, src/shared/canonical-session.ts). */
export interface OpenOptions {
  /** Explicit history inspection: a compression snapshot opens as itself, not as its live tip. */
  inspect?: boolean;
  /** An advisory id (the browser's last active one): if it is gone, the empty view, without a notice. */
  advisory?: boolean;
}

/** What loading an opened session needs from the ChatStore beyond its public state (lent by it). */
export interface OpenHost {
  readonly chat: ChatStore;
  /** This open is still the latest (`token` is the one it was started with). */
  current(token: number): boolean;
  /** Paints the device's stored copy while the server is asked. */
  showCached(copy: ApiSession): void;
  /** The messages with what the outbox queued for the shown session. */
  withQueued(messages: Message[]): Message[];
  /** Takes the server's copy (a running turn is replayed). */
  adopt(session: ApiSession): void;
  /** Follows the session's live channel while this tab runs nothing. */
  watch(id: string): void;
}

/**
 * Loads session `id` into a store already reset for it (ChatStore.open): the device's copy
 * first, then the server's, following a compression snapshot to its live tip unless inspection
 * was asked for; offline, the stored copy or the queued view; a missing id, the not-found view
 * (or, for an advisory id, the empty one).
 */
export async function loadOpened(host: OpenHost, id: string, options: OpenOptions, token: number): Promise<void> {
  const { chat } = host;
  const inspect = options.inspect === true;
  chat.loading = true;
  chat.notify();
  // Stale-while-revalidate: the stored copy paints first, the server's replaces it.
  const stored = offlineCache.transcript(id);
  void stored.then((copy) => {
    if (!copy || !host.current(token) || !chat.loading || chat.session) return;
    // Canonicalise before rendering: a stored snapshot whose tip is elsewhere is not painted.
    if (canonicalTarget(id, copy, inspect) !== id) return;
    host.showCached(copy);
    chat.notify();
  });
  let shown = id;
  try {
    // The last page only: earlier ones are fetched as the reader scrolls up (loadEarlier).
    let session = await api.session(id, { msgLimit: PAGE_SIZE });
    if (!host.current(token)) return;
    // A snapshot parent leads to its live tip (the server resolved the whole lineage: one hop).
    const target = canonicalTarget(id, session, inspect);
    if (target !== id) {
      shown = target;
      session = await api.session(target, { msgLimit: PAGE_SIZE });
      if (!host.current(token)) return;
      chat.openedId = target;
      chat.onRedirected?.(target);
    }
    chat.cached = false;
    chat.inspecting = inspect && session.pre_compression_snapshot === true;
    host.adopt(session);
    host.watch(shown);
    lastActive.set(shown);
    void offlineCache.saveTranscript(session);
    // One of Hermes' conversations continued here: Hermes may have gone on with it since (import refresh).
    if (session.is_cli_session === true && !(session as { read_only?: unknown }).read_only && !session.active_stream_id)
      void catchUp(host, shown, session, token);
  } catch (err) {
    if (!host.current(token)) return;
    const offline = err instanceof ApiError && err.status === 0;
    const copy = offline ? await stored : undefined;
    if (!host.current(token)) return;
    if (copy) {
      if (!chat.cached) host.showCached(copy);
    } else if (offline) {
      // Nothing to show, but the session is known by its id: what is typed is queued for it.
      chat.unreachable = true;
      chat.messages = host.withQueued([]);
    } else if (err instanceof ApiError && err.status === 404) {
      // Missing is the stale-route path, apart from lineage resolution.
      lastActive.forget(shown);
      // Nothing to send to: what is typed here starts a new conversation.
      chat.openedId = null;
      void offlineCache.forgetTranscript(shown);
      if (options.advisory) {
        chat.messages = host.withQueued([]);
        chat.onRedirected?.(null);
      } else {
        chat.error = msg('This session no longer exists.');
        chat.missing = true;
      }
    } else chat.error = (err as Error).message;
  } finally {
    if (host.current(token)) {
      chat.loading = false;
      chat.notify();
    }
  }
}

/** Asks the server to append what Hermes added to an imported conversation; shows it when there was any. */
async function catchUp(host: OpenHost, id: string, session: ApiSession, token: number): Promise<void> {
  const answer = await api.importCliSession(id).catch(() => null);
  if (!answer || !host.current(token) || answer.session.message_count <= session.message_count) return;
  const fresh = await api.session(id, { msgLimit: PAGE_SIZE }).catch(() => null);
  if (!fresh || !host.current(token) || host.chat.status !== 'idle') return;
  host.adopt(fresh);
  host.chat.notify();
}
