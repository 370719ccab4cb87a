import { msg, str } from '@lit/localize';
import { api, ApiError, type ApiSession, type Message, type PendingApproval, type PendingClarify } from '../api/client.js';
import { chatControls, type SteerResult } from '../api/chat-controls.js';
import { offlineCache, type OutboxItem } from '../offline/cache.js';
import { Store } from './store.js';
import { emptyAssistantTurn, type AssistantTurn, type Unsent } from './turns.js';
import { Outbox } from './outbox.js';
import { answerApproval, answerClarify } from './interaction-answers.js';
import { ConversationOps } from './conversation-ops.js';
import { RunStream } from './run-stream.js';
import { runHandlers } from './run-handlers.js';
import { PAGE_SIZE } from './transcript-pages.js';
import { TranscriptPager } from './transcript-pager.js';
import { LazySessionFollow } from './session-follow-lazy.js';
import { waitIdle } from './wait-idle.js';
import { lastActive } from './last-active.js';
import { loadOpened, type OpenHost, type OpenOptions } from './session-open.js';

export type RunStatus = 'idle' | 'starting' | 'running' | 'reconnecting';
export type { OpenOptions };

/**
 * The open chat: its stored transcript, the turn being streamed right now (a RunStream), what
 * that turn waits on (approval, clarification), the Outbox of messages typed offline, and the
 * operations on the conversation (send, fork, edit, retry, undo). Settles from the server's
 * own copy when a run ends.
 */
export class ChatStore extends Store {
  session: ApiSession | null = null;
  /** The session the view names (the URL's), even while it cannot be loaded. */
  openedId: string | null = null;
  /** Settled messages (for a running turn: up to and including its user message). */
  messages: Message[] = [];
  live: AssistantTurn | null = null;
  status: RunStatus = 'idle';
  streamId: string | null = null;
  approval: (PendingApproval & { pending_count: number }) | null = null;
  clarify: PendingClarify | null = null;
  todos: Array<{ id: string; content: string; status: string }> = [];
  tps: number | null = null;
  error: string | null = null;
  loading = false;
  /** The transcript shown is the copy kept in IndexedDB (the server has not answered yet, or cannot). */
  cached = false;
  /** The server cannot be reached and this device has no copy of the opened session. */
  unreachable = false;
  /** The open session is a compression snapshot opened for inspection (its live tip is elsewhere). */
  inspecting = false;
  /** The session asked for does not exist (the not-found view). */
  missing = false;

  readonly #outbox = new Outbox({
    waitIdle: (sid) => waitIdle(this, sid),
    started: (sid, r) => this.#startedElsewhere(sid, r),
    created: (id) => this.onSessionCreated?.(id),
    failed: (message) => {
      this.error = message;
    },
    changed: () => {
      this.messages = this.#withQueued(this.messages);
      this.changed();
    },
  });
  #stream: RunStream | null = null;
  #openToken = 0;
  /** The open session's live channel: turns started elsewhere stream here too (session-follow.ts). */
  readonly #follow = new LazySessionFollow(this);

  /** Called when a message queued in the empty view has created its session (open it, list it). */
  onSessionCreated: ((id: string) => void) | null = null;

  /**
   * Called when the session shown is not the one asked for: the canonical tip a snapshot led to,
   * or null (an advisory id that no longer exists: the empty view). The URL follows.
   */
  onRedirected: ((id: string | null) => void) | null = null;

  /** Called with (sessionId, patch) when something the sidebar shows changed. */
  onSessionChanged: ((id: string, patch: Record<string, unknown>) => void) | null = null;

  get sessionId(): string | null {
    return this.session?.session_id ?? null;
  }

  /** Where a message typed now belongs: the loaded session, else the one the view names. */
  get targetId(): string | null {
    return this.session?.session_id ?? this.openedId;
  }

  /** Messages typed while the server was unreachable, oldest first (persisted; sent when back). */
  get outbox(): readonly OutboxItem[] {
    return this.#outbox.items;
  }

  /** Opens a session: loads it and, if a turn is running, attaches to its stream from the start. */
  open(id: string | null, options: OpenOptions = {}): Promise<void> {
    this.#opening = this.#open(id, options);
    return this.#opening;
  }

  /** Whether the last open asked for history inspection (an unreachable one is asked again alike). */
  #inspectAsked = false;

  /** The open in progress (resolved when none is): a message sent meanwhile waits for it. */
  #opening: Promise<void> = Promise.resolve();

  async #open(id: string | null, options: OpenOptions): Promise<void> {
    this.#inspectAsked = options.inspect === true;
    const token = ++this.#openToken;
    this.#detach();
    this.#follow.close();
    this.session = null;
    this.openedId = id;
    this.messages = [];
    this.live = null;
    this.approval = null;
    this.clarify = null;
    this.error = null;
    this.status = 'idle';
    this.streamId = null;
    this.cached = false;
    this.unreachable = false;
    this.inspecting = false;
    this.missing = false;
    // A jump asked for in the session shown before is not one for this session.
    this.#pages.reveal = null;
    if (!id) {
      // A new chat: a reload shows the empty view, not the last session.
      lastActive.forget();
      // The empty view shows what was queued there while offline.
      this.messages = this.#withQueued([]);
      this.changed();
      return;
    }
    await loadOpened(this.#openHost, id, options, token);
  }

  /** What loading an opened session (session-open.ts) may touch besides the store's public state. */
  readonly #openHost: OpenHost = {
    chat: this,
    current: (token) => token === this.#openToken,
    showCached: (copy) => this.#showCached(copy),
    withQueued: (messages) => this.#withQueued(messages),
    adopt: (session) => this.#adopt(session, true),
    watch: (id) => {
      if (this.status === 'idle') this.#follow.watch(id);
    },
  };

  #showCached(copy: ApiSession): void {
    this.session = { ...copy, active_stream_id: null };
    this.todos = copy.todo_state?.todos ?? [];
    this.messages = this.#withQueued(copy.messages);
    this.cached = true;
  }

  #withQueued(messages: Message[]): Message[] {
    return this.#outbox.shownWith(messages, this.targetId);
  }

  /** Reads the persisted outbox (at startup) and shows what belongs to the open session. */
  loadOutbox(): Promise<void> {
    return this.#outbox.load();
  }

  /** Sends queued messages in order (see Outbox.drain). */
  drainOutbox(): Promise<void> {
    return this.#outbox.drain();
  }

  /** A queued message started its turn: if its session is the one shown, follow the run. */
  async #startedElsewhere(sid: string, r: Awaited<ReturnType<typeof api.startChat>>): Promise<void> {
    this.onSessionChanged?.(sid, { title: r.title, active_stream_id: r.stream_id, updated_at: Date.now() / 1000 });
    await this.#join(sid, r.stream_id, r.pending_started_at, false);
  }

  /** Streams a turn of the shown session started elsewhere; `idleOnly`: not while this tab runs one. */
  async #join(sid: string, streamId: string, pendingStartedAt: number, idleOnly: boolean): Promise<void> {
    if (this.targetId !== sid) return;
    const stored = await api.session(sid, { msgLimit: PAGE_SIZE }).catch(() => null);
    if (!stored || this.targetId !== sid || (idleOnly && this.status !== 'idle')) return;
    this.cached = false;
    this.unreachable = false;
    // Its user message may not be stored yet (the start is told first): the stream's id is.
    this.#adopt(stored.active_stream_id ? stored : { ...stored, active_stream_id: streamId, pending_started_at: pendingStartedAt });
    void offlineCache.saveTranscript(stored);
    this.changed();
  }

  /** Takes a stored session; a running turn is replayed from its first event. */
  #adopt(fetched: ApiSession, fresh = false): void {
    const session = this.#pages.window(fetched, fresh);
    this.session = session;
    this.todos = session.todo_state?.todos ?? [];
    const running = session.active_stream_id;
    if (running) {
      // Show stored messages up to the running turn's user message; the stream rebuilds the rest.
      const started = session.pending_started_at;
      const at = session.messages.findIndex((m) => m.role === 'user' && m.timestamp === started);
      this.messages = at >= 0 ? session.messages.slice(0, at + 1) : session.messages;
      this.#attach(running);
    } else {
      this.messages = this.#withQueued(session.messages);
    }
  }

  async send(text: string, options: { attachments?: string[]; model?: string | null; skill?: string | null } = {}): Promise<void> {
    const message = text.trim();
    // A bare `/<skill>` has no text: the skill is the message.
    if ((!message && !options.skill) || this.status !== 'idle') return;
    // Typed and sent while the conversation loads (a fast typist, a slow link): send it once it is here.
    if (!this.session && this.loading) await this.#opening;
    if (this.status !== 'idle') return;
    const session = this.session;
    if (!session) {
      // The named session could not be loaded (offline, no copy here): queue it for that session.
      if (this.unreachable && this.openedId && !options.attachments?.length) return this.queue(this.openedId, message);
      throw new Error(this.error ?? (this.loading ? msg('The conversation is still loading.') : msg('Open a conversation first.')));
    }
    if (this.#outbox.has(session.session_id)) {
      // Earlier messages still wait: this one goes after them, in order.
      await this.queue(session.session_id, message);
      void this.drainOutbox();
      return;
    }
    this.status = 'starting';
    this.error = null;
    const optimistic: Message = {
      role: 'user',
      content: message,
      timestamp: Date.now() / 1000,
      _optimistic: true,
      ...(options.attachments?.length ? { attachments: options.attachments.map((path) => ({ path })) } : {}),
      ...(options.skill ? { skill: options.skill } : {}),
    };
    this.messages = [...this.messages, optimistic];
    this.changed();
    try {
      const r = await api.startChat({
        session_id: session.session_id,
        message,
        ...(options.attachments?.length ? { attachments: options.attachments } : {}),
        ...(options.model ? { model: options.model } : {}),
        ...(options.skill ? { skill: options.skill } : {}),
      });
      if (this.sessionId !== session.session_id) return;
      // Replace the optimistic message with what the server stored.
      const stored = await api.session(session.session_id, { msgLimit: PAGE_SIZE });
      if (this.sessionId !== session.session_id) return;
      this.onSessionChanged?.(session.session_id, { title: r.title, active_stream_id: r.stream_id, updated_at: Date.now() / 1000 });
      this.#adopt(stored.active_stream_id ? stored : { ...stored, active_stream_id: r.stream_id, pending_started_at: r.pending_started_at });
      this.changed();
    } catch (err) {
      this.messages = this.messages.filter((m) => m !== optimistic);
      this.status = 'idle';
      if (err instanceof ApiError && err.status === 0 && !options.attachments?.length && this.sessionId === session.session_id) {
        // The server cannot be reached: keep the message in the outbox, sent when it is back.
        await this.queue(session.session_id, message);
        return;
      }
      this.error = (err as Error).message;
      this.changed();
      throw err;
    }
  }

  /** Puts a message in the outbox (persisted at once) and shows it as queued. */
  queue(sessionId: string | null, text: string): Promise<void> {
    return this.#outbox.add(sessionId, text);
  }

  /**
   * Starts a conversation from the empty view: creates the session, then sends. Resolves with
   * the new session's id (the caller puts it in the URL), or null when the server could not be
   * reached and the message was queued instead.
   */
  async startNew(
    text: string,
    options: { attachments?: string[]; model?: string | null; workspace?: string; skill?: string | null } = {},
  ): Promise<string | null> {
    let session: ApiSession;
    try {
      session = await api.newSession({ ...(options.model ? { model: options.model } : {}), ...(options.workspace ? { workspace: options.workspace } : {}) });
    } catch (err) {
      if (err instanceof ApiError && err.status === 0 && !options.attachments?.length && this.targetId === null && text.trim()) {
        // Offline in the empty view: queued; the session is created when the server is back.
        await this.queue(null, text.trim());
        return null;
      }
      throw err;
    }
    ++this.#openToken;
    this.#detach();
    this.session = session;
    this.openedId = session.session_id;
    this.messages = [];
    this.live = null;
    this.status = 'idle';
    this.onSessionChanged?.(session.session_id, {});
    await this.send(text, options);
    return session.session_id;
  }

  // ---- Operations on the conversation (conversation-ops.ts) --------------------------------

  readonly #ops = new ConversationOps(this, (session) => this.#adopt(session));

  /** Forks the conversation, keeping its first `end` messages (all when absent); resolves with the fork. */
  fork(end?: number): Promise<{ session_id: string; title: string }> {
    return this.#ops.fork(end);
  }

  /** Cuts the transcript before the user message at `index` and sends `text` in its place. */
  edit(index: number, text: string): Promise<void> {
    return this.#ops.edit(index, text);
  }

  /** Sends the last user message again, in place of the reply it got. False when there is none. */
  retry(): Promise<boolean> {
    return this.#ops.retry();
  }

  /** Drops the last exchange (from its user message on); resolves with what the user had sent. */
  undo(): Promise<Unsent | null> {
    return this.#ops.undo();
  }

  /** Steer text the turn never took (`pending_steer_leftover`): the composer takes it back once. */
  steerLeftover: string | null = null;

  /** While a turn runs: hands `text` to it at its next tool step, without interrupting it. */
  async steer(text: string): Promise<SteerResult> {
    const sid = this.sessionId;
    if (!sid) throw new Error(msg('Open a conversation first.'));
    return chatControls.steer(sid, text.trim());
  }

  async cancel(): Promise<void> {
    if (this.streamId) await api.cancel(this.streamId).catch(() => {});
  }

  /** Tells the view; for helpers that act on the store (interaction-answers.ts). */
  notify(): void {
    this.changed();
  }

  answerApproval(choice: 'once' | 'session' | 'always' | 'deny'): Promise<void> {
    return answerApproval(this, choice);
  }

  answerClarify(answer: string): Promise<void> {
    return answerClarify(this, answer);
  }

  /** Makes the open Hermes conversation (read from state.db, read-only) a session here, so it can be continued. */
  importFromHermes(): Promise<void> {
    return this.#ops.importFromHermes();
  }

  /** Reloads the stored session (after an edit elsewhere: truncate, clear, rename; or back online). */
  async reload(): Promise<void> {
    if (!this.sessionId) {
      // Back online with nothing loaded: load the session the view names.
      if (this.unreachable && this.openedId && this.status === 'idle') await this.open(this.openedId, { inspect: this.#inspectAsked });
      return;
    }
    if (this.status !== 'idle') return;
    const session = await api.session(this.sessionId, { msgLimit: PAGE_SIZE });
    if (this.sessionId !== session.session_id) return;
    this.cached = false;
    this.#adopt(session);
    void offlineCache.saveTranscript(session);
    this.changed();
  }

  // ---- The live run ------------------------------------------------------------------------

  #attach(streamId: string): void {
    this.#detach();
    // While this tab streams the turn it needs no word of turns starting (a browser has ~6 connections per server).
    this.#follow.close();
    this.streamId = streamId;
    this.status = 'running';
    this.live = emptyAssistantTurn(this.messages.length);
    const live = () => this.live ?? (this.live = emptyAssistantTurn(this.messages.length));
    this.#stream = new RunStream(
      streamId,
      runHandlers(this, live, { frame: () => this.changedNextFrame(), now: () => this.changed(), settle: (session) => this.#settle(session) }),
      {
        onEvent: () => {
          if (this.status === 'reconnecting') this.status = 'running';
        },
        onReconnecting: () => {
          // The browser retries with Last-Event-ID; say so honestly meanwhile.
          this.status = 'reconnecting';
          this.changed();
        },
        // Closed for good (the stream is gone): the stored session says how the turn ended.
        onLost: () => void this.#recover(),
      },
    );
  }

  /** The turn finished: the transcript is the server's copy from now on. */
  #settle(session: ApiSession | undefined): void {
    if (session && session.session_id === this.sessionId) {
      session = this.#pages.window(session);
      this.session = session;
      this.messages = this.#withQueued(session.messages);
      void offlineCache.saveTranscript(session);
    }
    this.live = null;
    this.approval = null;
    this.clarify = null;
    this.status = 'idle';
    this.onSessionChanged?.(this.sessionId!, { active_stream_id: null, attention: false, message_count: this.messages.length, updated_at: Date.now() / 1000 });
    this.#follow.watch(this.sessionId);
    this.changed();
  }

  async #recover(): Promise<void> {
    const id = this.sessionId;
    if (!id) return;
    try {
      const session = await api.session(id, { msgLimit: PAGE_SIZE });
      if (this.sessionId !== id) return;
      if (session.active_stream_id) this.#adopt(session);
      else this.#settle(session);
    } catch (err) {
      this.status = 'idle';
      this.error = msg(str`Could not reach the server: ${(err as Error).message}`);
      this.changed();
    }
  }

  #detach(): void {
    this.#stream?.close();
    this.#stream = null;
  }

  /** Stored messages this tab has (loaded or in earlier pages): the live channel compares it. */
  knownCount(): number {
    return (this.session?._messages_offset ?? 0) + (this.session?.messages.length ?? 0);
  }

  /** A turn started elsewhere in the open session (another tab, a task): stream it here. */
  async followRun(sid: string, streamId: string, pendingStartedAt: number): Promise<void> {
    if (this.sessionId !== sid || this.status !== 'idle' || this.streamId === streamId) return;
    await this.#join(sid, streamId, pendingStartedAt, true);
  }

  /** Applies a metadata change made elsewhere (the sidebar renamed or pinned this session). */
  patchSession(patch: Partial<ApiSession>): void {
    if (!this.session) return;
    this.session = { ...this.session, ...patch };
    this.changed();
  }

  // ---- Pages of a long transcript (transcript-pager.ts) -------------------------------------
  readonly #pages = new TranscriptPager(this, () => this.changed());

  /** Index in the stored transcript of `messages[0]`: the earlier messages are not loaded yet. */
  get messageOffset(): number {
    return this.#pages.offset;
  }

  get hasEarlier(): boolean {
    return this.#pages.hasEarlier;
  }

  /** Fetches the page before the loaded messages (one request at a time); resolves with how many came. */
  loadEarlier(limit?: number): Promise<number> {
    return this.#pages.loadEarlier(limit);
  }

  /** Loads earlier pages until the stored message `index` is loaded (a jump to it). */
  loadThrough(index: number): Promise<void> {
    return this.#pages.loadThrough(index);
  }

  /** A stored message to bring into view (a jump from search); `seq` tells repeated jumps apart. */
  get reveal(): { index: number; seq: number } | null {
    return this.#pages.reveal;
  }

  /** Loads the pages up to stored message `index` and asks the transcript to show it. */
  revealMessage(index: number): Promise<void> {
    return this.#pages.revealMessage(index);
  }

  /** Jumps to the first message holding `text` (loaded or not); false when none does. */
  revealMatch(text: string): Promise<boolean> {
    return this.#pages.revealMatch(text);
  }

  /** Index of the last user message, or -1. */
  lastUserIndex(): number {
    return this.messages.findLastIndex((m) => m.role === 'user');
  }
}
