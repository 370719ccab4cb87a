import { msg } from '@lit/localize';
import { api, ApiError, type ApiSession } from '../api/client.js';
import { PAGE_SIZE } from './transcript-pages.js';
import { sessionOps } from '../api/session-ops.js';
import type { ChatStore } from './chat-store.js';
import { unsend, type Unsent } from './turns.js';

/**
 * What a person does to the conversation itself: fork, edit an earlier message, retry, undo,
 * and continue one of Hermes' own conversations here (import).
 * Retry and undo are cut by the server (POST /api/session/retry|undo), so the CLI's commands and
 * these agree; an edit truncates at a stored index, which stays right with pages partly loaded.
 */
export class ConversationOps {
  /** `adopt`: the store takes a session fetched here as the one shown (ChatStore's own #adopt). */
  constructor(
    private readonly chat: ChatStore,
    private readonly adopt: (session: ApiSession) => void,
  ) {}

  /** Makes the open Hermes conversation (read from state.db, read-only) a session here, so it can be continued. */
  async importFromHermes(): Promise<void> {
    const id = this.chat.sessionId;
    if (!id) return;
    const { session } = await api.importCliSession(id);
    if (this.chat.sessionId !== id) return;
    const fresh = await api.session(session.session_id, { msgLimit: PAGE_SIZE });
    if (this.chat.sessionId !== id) return;
    this.adopt(fresh);
    this.chat.notify();
    this.chat.onSessionChanged?.(fresh.session_id, { read_only: false });
  }

  /** Transcript index (in `messages`) → index in the whole stored transcript. */
  absolute(index: number): number {
    return (this.chat.session?._messages_offset ?? 0) + index;
  }

  /** Forks the conversation, keeping its first `end` messages (all when absent); resolves with the fork. */
  async fork(end?: number): Promise<{ session_id: string; title: string }> {
    const sid = this.chat.sessionId;
    if (!sid) throw new Error(msg('Open a conversation first.'));
    return api.branch(sid, end === undefined ? undefined : this.absolute(end));
  }

  /** Cuts the transcript before the user message at `index` and sends `text` in its place. */
  async edit(index: number, text: string): Promise<void> {
    const original = this.chat.messages[index];
    if (this.chat.status !== 'idle' || original?.role !== 'user' || !text.trim()) return;
    const { paths } = unsend(original);
    await this.#cutAt(index);
    await this.chat.send(text, paths.length ? { attachments: paths } : {});
  }

  /** Sends the last user message again, in place of the reply it got. False when there is none. */
  async retry(): Promise<boolean> {
    const sid = this.#idleSession();
    if (!sid) return false;
    // The server cuts (POST /api/session/retry), so the CLI's /retry and this one agree.
    const r = await nothingToDo(sessionOps.retry(sid));
    if (!r) return false;
    await this.#afterCut(sid);
    await this.chat.send(r.last_user_text, r.last_user_attachments.length ? { attachments: r.last_user_attachments } : {});
    return true;
  }

  /** Drops the last exchange (from its user message on); resolves with what the user had sent. */
  async undo(): Promise<Unsent | null> {
    const sid = this.#idleSession();
    if (!sid) return null;
    const r = await nothingToDo(sessionOps.undo(sid));
    if (!r) return null;
    await this.#afterCut(sid);
    return { text: r.removed_text, paths: r.removed_attachments };
  }

  #idleSession(): string | null {
    if (this.chat.status !== 'idle') throw new Error(msg('Wait for the current reply to finish (or /stop it).'));
    return this.chat.sessionId;
  }

  async #afterCut(sid: string): Promise<void> {
    await this.chat.reload();
    this.chat.onSessionChanged?.(sid, { message_count: this.chat.session?.message_count ?? this.chat.messages.length });
  }

  async #cutAt(index: number): Promise<void> {
    const sid = this.chat.sessionId;
    if (!sid) return;
    await api.truncate(sid, this.absolute(index));
    await this.#afterCut(sid);
  }
}

/** A retry or undo with no user message to act on answers 400: that is "nothing to do", not a failure. */
async function nothingToDo<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof ApiError && err.status === 400 && /^(Nothing to undo|No previous message)/.test(err.message)) return null;
    throw err;
  }
}
