import { api, type ApiSession, type Message } from '../api/client.js';
import { PAGE_SIZE, mergeWindow, prependPage } from './transcript-pages.js';

/** What the pager reads and writes on the chat store. */
export interface PagedChat {
  session: ApiSession | null;
  /** Settled messages shown (for a running turn: up to its user message). */
  messages: Message[];
  cached: boolean;
}

/**
 * The loaded part of a long transcript: `session.messages` holds stored messages from
 * `session._messages_offset` on. Earlier pages are fetched on request (`msg_before`), one request
 * at a time; what the server sends later is merged with them (transcript-pages.ts).
 */
export class TranscriptPager {
  #earlier: Promise<number> | null = null;
  #through: Promise<void> | null = null;

  constructor(
    private readonly chat: PagedChat,
    private readonly changed: () => void,
  ) {}

  get offset(): number {
    return this.chat.session?._messages_offset ?? 0;
  }

  /** The stored index of the first message holding `text` (GET /api/session/find), loaded or not. */
  async firstMatch(text: string): Promise<number | undefined> {
    const sid = this.chat.session?.session_id;
    if (!sid || !text.trim()) return undefined;
    const found = await api.findInSession(sid, text.trim());
    return this.chat.session?.session_id === sid ? found.indexes[0] : undefined;
  }

  get hasEarlier(): boolean {
    return this.offset > 0 && !this.chat.cached;
  }

  /** `session` as the server sent it, merged with the pages loaded before (same session, unless `fresh`). */
  window(session: ApiSession, fresh = false): ApiSession {
    const mine = !fresh && this.chat.session?.session_id === session.session_id ? this.chat.session : null;
    const current = mine ? { offset: mine._messages_offset ?? 0, messages: mine.messages } : { offset: 0, messages: [] };
    const offset = session._messages_offset ?? 0;
    const w = mergeWindow(current, { offset, messages: session.messages }, session.message_count ?? offset + session.messages.length);
    return { ...session, messages: w.messages, _messages_offset: w.offset };
  }

  loadEarlier(limit = PAGE_SIZE): Promise<number> {
    // During a jump, its big pages are the only ones fetched.
    if (this.#through) return this.#through.then(() => 0);
    return this.#fetch(limit);
  }

  async loadThrough(index: number): Promise<void> {
    if (this.#through) await this.#through;
    const run = async () => {
      if (this.#earlier) await this.#earlier;
      while (this.offset > index) {
        // Big steps: a jump to the start of a 5,000-message session is ten requests, not fifty.
        if (!(await this.#fetch(Math.max(PAGE_SIZE, this.offset - index + PAGE_SIZE / 2)))) return;
      }
    };
    this.#through = run().finally(() => (this.#through = null));
    return this.#through;
  }

  #fetch(limit: number): Promise<number> {
    this.#earlier ??= this.#load(limit).finally(() => (this.#earlier = null));
    return this.#earlier;
  }

  async #load(limit: number): Promise<number> {
    const chat = this.chat;
    const s = chat.session;
    if (!s || !this.hasEarlier) return 0;
    const offset = this.offset;
    const page = await api.session(s.session_id, { msgLimit: Math.min(limit, 500), msgBefore: offset });
    // Settled or reloaded meanwhile: what it merged is the truth, this page may not join it.
    const now = chat.session;
    if (now?.session_id !== s.session_id || this.offset !== offset) return 0;
    const w = prependPage({ offset, messages: now.messages }, { offset: page._messages_offset ?? 0, messages: page.messages });
    const added = offset - w.offset;
    chat.session = { ...now, messages: w.messages, _messages_offset: w.offset };
    chat.messages = [...w.messages.slice(0, added), ...chat.messages];
    this.changed();
    return added;
  }

  /** A stored message to bring into view (a jump from search); `seq` tells repeated jumps apart. */
  reveal: { index: number; seq: number } | null = null;

  /** Loads the pages up to stored message `index` and asks the transcript to show it. */
  async revealMessage(index: number): Promise<void> {
    await this.loadThrough(index);
    this.reveal = { index, seq: (this.reveal?.seq ?? 0) + 1 };
    this.changed();
  }

  /** Jumps to the first message holding `text` (loaded or not); false when none does. */
  async revealMatch(text: string): Promise<boolean> {
    const index = await this.firstMatch(text);
    if (index === undefined) return false;
    await this.revealMessage(index);
    return true;
  }
}
