import { api, apiLinkUrl, ApiError, connectivity, type ApiSession, type Message, type PendingApproval, type PendingClarify } from '../api/client.js';
import { offlineCache, type OutboxItem } from '../offline/cache.js';
import { Store } from './store.js';
import { emptyAssistantTurn, isToolError, type AssistantTurn } from './turns.js';

export type RunStatus = 'idle' | 'starting' | 'running' | 'reconnecting';

/** Events that end a stream (after them the server closes it). */
const CLOSING = new Set(['stream_end', 'cancel', 'apperror']);

/**
 * The open chat: its stored transcript, the turn being streamed right now, and what that turn
 * waits on (approval, clarification). Attaches to the session's live run, resuming with
 * Last-Event-ID after drops, and settles from the server's own copy when the run ends.
 */
export class ChatStore extends Store {
  session: ApiSession | null = null;
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
  /** Messages typed while the server was unreachable, oldest first (persisted; sent when back). */
  outbox: OutboxItem[] = [];
  #draining: Promise<void> | null = null;

  #source: EventSource | null = null;
  #openToken = 0;

  /** Called when a message queued in the empty view has created its session (open it, list it). */
  onSessionCreated: ((id: string) => void) | null = null;

  /** Called with (sessionId, patch) when something the sidebar shows changed. */
  onSessionChanged: ((id: string, patch: Record<string, unknown>) => void) | null = null;

  get sessionId(): string | null {
    return this.session?.session_id ?? null;
  }

  /** Opens a session: loads it and, if a turn is running, attaches to its stream from the start. */
  async open(id: string | null): Promise<void> {
    const token = ++this.#openToken;
    this.#detach();
    this.session = null;
    this.messages = [];
    this.live = null;
    this.approval = null;
    this.clarify = null;
    this.error = null;
    this.status = 'idle';
    this.streamId = null;
    this.cached = false;
    if (!id) {
      // The empty view shows what was queued there while offline.
      this.messages = this.#withQueued([]);
      this.changed();
      return;
    }
    this.loading = true;
    this.changed();
    // Stale-while-revalidate: the stored copy paints first, the server's replaces it.
    const stored = offlineCache.transcript(id);
    void stored.then((copy) => {
      if (!copy || token !== this.#openToken || !this.loading || this.session) return;
      this.#showCached(copy);
      this.changed();
    });
    try {
      const session = await api.session(id);
      if (token !== this.#openToken) return;
      this.cached = false;
      this.#adopt(session);
      void offlineCache.saveTranscript(session);
    } catch (err) {
      if (token !== this.#openToken) return;
      const copy = err instanceof ApiError && err.status === 0 ? await stored : undefined;
      if (token !== this.#openToken) return;
      if (copy) {
        if (!this.cached) this.#showCached(copy);
      } else if (err instanceof ApiError && err.status === 404) {
        this.error = 'This session no longer exists.';
        void offlineCache.forgetTranscript(id);
      } else this.error = (err as Error).message;
    } finally {
      if (token === this.#openToken) {
        this.loading = false;
        this.changed();
      }
    }
  }

  #showCached(copy: ApiSession): void {
    this.session = { ...copy, active_stream_id: null };
    this.todos = copy.todo_state?.todos ?? [];
    this.messages = this.#withQueued(copy.messages);
    this.cached = true;
  }

  /** `messages` followed by this session's outbox entries, shown as queued user messages. */
  #withQueued(messages: Message[]): Message[] {
    const settled = messages.filter((m) => !m._queued);
    const id = this.sessionId;
    const queued = this.outbox.filter((i) => i.sessionId === id).map((i): Message => ({ role: 'user', content: i.text, timestamp: i.createdAt / 1000, _queued: true, _outbox_id: i.id }));
    return queued.length ? [...settled, ...queued] : settled;
  }

  /** Reads the persisted outbox (at startup) and shows what belongs to the open session. */
  async loadOutbox(): Promise<void> {
    this.outbox = await offlineCache.outbox();
    this.messages = this.#withQueued(this.messages);
    this.changed();
  }

  /**
   * Sends queued messages, oldest first, each exactly once: an entry leaves the outbox (written
   * at once) as soon as the server has accepted it; the next waits for that run to end. Stops
   * while the server is unreachable; the connection store calls again when it is back.
   */
  drainOutbox(): Promise<void> {
    this.#draining ??= (async () => {
      try {
        for (;;) {
          const item = this.outbox[0];
          if (!item) return;
          if (!item.sessionId) {
            // Typed in the empty view while offline: the conversation starts now.
            let created: ApiSession;
            try {
              created = await api.newSession({});
            } catch (err) {
              if (err instanceof ApiError && err.status === 0) return;
              this.error = `A queued message could not be sent: ${(err as Error).message}`;
              await this.#dropQueued(item);
              continue;
            }
            // Recorded before anything is sent, so a drop now cannot start a second session.
            await offlineCache.reassign(item.id, created.session_id);
            this.outbox = this.outbox.map((i) => (i.id === item.id ? { ...i, sessionId: created.session_id } : i));
            this.onSessionCreated?.(created.session_id);
            continue;
          }
          const sid = item.sessionId;
          await this.#waitIdle(sid);
          let r: Awaited<ReturnType<typeof api.startChat>>;
          try {
            r = await api.startChat({ session_id: sid, message: item.text });
          } catch (err) {
            if (err instanceof ApiError && err.status === 0) return;
            if (err instanceof ApiError && err.status === 409) {
              await new Promise((res) => setTimeout(res, 500));
              continue;
            }
            this.error = `A queued message could not be sent: ${(err as Error).message}`;
            await this.#dropQueued(item);
            continue;
          }
          await this.#dropQueued(item);
          this.onSessionChanged?.(sid, { title: r.title, active_stream_id: r.stream_id, updated_at: Date.now() / 1000 });
          if (this.sessionId === sid) {
            const stored = await api.session(sid).catch(() => null);
            if (stored && this.sessionId === sid) {
              this.cached = false;
              this.#adopt(stored.active_stream_id ? stored : { ...stored, active_stream_id: r.stream_id, pending_started_at: r.pending_started_at });
              this.changed();
            }
          }
        }
      } finally {
        this.#draining = null;
      }
    })();
    return this.#draining;
  }

  async #dropQueued(item: OutboxItem): Promise<void> {
    this.outbox = this.outbox.filter((i) => i.id !== item.id);
    await offlineCache.dequeue(item.id);
    this.messages = this.#withQueued(this.messages);
    this.changed();
  }

  /** Waits until no run is going in `sid` (the server takes one turn at a time per session). */
  async #waitIdle(sid: string): Promise<void> {
    for (let i = 0; i < 600; i++) {
      if (this.sessionId === sid) {
        if (this.status === 'idle') return;
      } else {
        const s = await api.session(sid, { msgLimit: 1 }).catch(() => null);
        if (!s?.active_stream_id) return;
      }
      await new Promise((res) => setTimeout(res, 500));
    }
  }

  /** Takes a stored session; a running turn is replayed from its first event. */
  #adopt(session: ApiSession): void {
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

  async send(text: string, options: { attachments?: string[]; model?: string | null } = {}): Promise<void> {
    const session = this.session;
    if (!session || this.status !== 'idle') return;
    const message = text.trim();
    if (!message) return;
    if (this.outbox.some((i) => i.sessionId === session.session_id)) {
      // Earlier messages still wait: this one goes after them, in order.
      await this.queue(session.session_id, message);
      void this.drainOutbox();
      return;
    }
    this.status = 'starting';
    this.error = null;
    const optimistic: Message = { role: 'user', content: message, timestamp: Date.now() / 1000, _optimistic: true };
    this.messages = [...this.messages, optimistic];
    this.changed();
    try {
      const r = await api.startChat({ session_id: session.session_id, message, ...(options.attachments?.length ? { attachments: options.attachments } : {}), ...(options.model ? { model: options.model } : {}) });
      if (this.sessionId !== session.session_id) return;
      // Replace the optimistic message with what the server stored.
      const stored = await api.session(session.session_id);
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
  async queue(sessionId: string | null, text: string): Promise<void> {
    const item = await offlineCache.enqueue({ sessionId, text });
    this.outbox = [...this.outbox, item];
    this.messages = this.#withQueued(this.messages);
    this.changed();
  }

  /**
   * Starts a conversation from the empty view: creates the session, then sends. Resolves with
   * the new session's id (the caller puts it in the URL), or null when the server could not be
   * reached and the message was queued instead.
   */
  async startNew(text: string, options: { attachments?: string[]; model?: string | null; workspace?: string } = {}): Promise<string | null> {
    let session: ApiSession;
    try {
      session = await api.newSession({ ...(options.model ? { model: options.model } : {}), ...(options.workspace ? { workspace: options.workspace } : {}) });
    } catch (err) {
      if (err instanceof ApiError && err.status === 0 && !options.attachments?.length && this.sessionId === null && text.trim()) {
        // Offline in the empty view: queued; the session is created when the server is back.
        await this.queue(null, text.trim());
        return null;
      }
      throw err;
    }
    ++this.#openToken;
    this.#detach();
    this.session = session;
    this.messages = [];
    this.live = null;
    this.status = 'idle';
    this.onSessionChanged?.(session.session_id, {});
    await this.send(text, options);
    return session.session_id;
  }

  async cancel(): Promise<void> {
    if (this.streamId) await api.cancel(this.streamId).catch(() => {});
  }

  async answerApproval(choice: 'once' | 'session' | 'always' | 'deny'): Promise<void> {
    const a = this.approval;
    if (!a || !this.sessionId) return;
    this.approval = null;
    this.changed();
    try {
      await api.respondApproval(this.sessionId, choice, a.approval_id);
      const next = await api.pendingApproval(this.sessionId);
      this.approval = next.pending ? { ...next.pending, pending_count: next.pending_count } : null;
    } catch (err) {
      this.error = (err as Error).message;
    }
    this.changed();
  }

  async answerClarify(answer: string): Promise<void> {
    const c = this.clarify;
    if (!c || !this.sessionId) return;
    this.clarify = null;
    this.changed();
    try {
      await api.respondClarify(this.sessionId, answer, c.clarify_id);
    } catch (err) {
      this.error = (err as Error).message;
      this.changed();
    }
  }

  /** Reloads the stored session (after an edit elsewhere: truncate, clear, rename). */
  async reload(): Promise<void> {
    if (!this.sessionId || this.status !== 'idle') return;
    const session = await api.session(this.sessionId);
    if (this.sessionId !== session.session_id) return;
    this.cached = false;
    this.#adopt(session);
    void offlineCache.saveTranscript(session);
    this.changed();
  }

  #attach(streamId: string): void {
    this.#detach();
    this.streamId = streamId;
    this.status = 'running';
    this.live = emptyAssistantTurn(this.messages.length);
    const source = new EventSource(apiLinkUrl(`/api/chat/stream?stream_id=${encodeURIComponent(streamId)}`));
    this.#source = source;
    const on = (name: string, handler: (data: any) => void) =>
      source.addEventListener(name, (e) => {
        if (this.#source !== source) return;
        if (this.status === 'reconnecting') this.status = 'running';
        let data: any = {};
        try {
          data = JSON.parse((e as MessageEvent).data);
        } catch {
          return;
        }
        handler(data);
        if (CLOSING.has(name)) this.#detach();
      });
    const live = () => this.live ?? (this.live = emptyAssistantTurn(this.messages.length));
    on('token', (d) => {
      live().text += d.text ?? '';
      this.changedNextFrame();
    });
    on('reasoning', (d) => {
      live().reasoning += d.text ?? '';
      this.changedNextFrame();
    });
    on('tool', (d) => {
      live().tools.push({ id: d.tool_call_id, name: d.name, preview: d.preview?.replace(new RegExp(`^${d.name}\\s*`), '') ?? '', args: d.args ?? {}, status: 'running' });
      this.changedNextFrame();
    });
    on('tool_complete', (d) => {
      const t = live().tools.find((x) => x.id === d.tool_call_id);
      if (t) {
        t.status = d.is_error || isToolError(String(d.result ?? '')) ? 'error' : 'done';
        t.duration = d.duration;
        t.result = d.result;
      }
      this.changedNextFrame();
    });
    on('approval', (d) => {
      this.approval = d;
      this.onSessionChanged?.(this.sessionId!, { attention: true });
      this.changed();
    });
    on('clarify', (d) => {
      this.clarify = d;
      this.onSessionChanged?.(this.sessionId!, { attention: true });
      this.changed();
    });
    on('compressing', () => {
      live().compression = 'compressing';
      this.changed();
    });
    on('compressed', () => {
      live().compression = 'compressed';
      this.changed();
    });
    on('metering', (d) => {
      this.tps = typeof d.tps === 'number' ? d.tps : null;
    });
    on('todo_state', (d) => {
      this.todos = d.todos ?? [];
      this.changed();
    });
    on('warning', (d) => {
      live().warnings.push(String(d.message ?? 'Warning'));
      this.changed();
    });
    on('title', (d) => {
      if (this.session) this.session = { ...this.session, title: d.title };
      this.onSessionChanged?.(d.session_id, { title: d.title });
      this.changed();
    });
    on('done', (d) => this.#settle(d.session));
    on('cancel', (d) => this.#settle(d.session));
    on('apperror', (d) => {
      if (d.session) this.#settle(d.session);
      else {
        live().error = { message: d.message, type: d.type, hint: d.hint };
        this.status = 'idle';
        this.changed();
      }
    });
    on('stream_end', () => {});
    source.onerror = () => {
      if (this.#source !== source) return;
      connectivity.dispatchEvent(new Event('unreachable'));
      if (source.readyState === EventSource.CONNECTING) {
        // The browser retries with Last-Event-ID; say so honestly meanwhile.
        this.status = 'reconnecting';
        this.changed();
      } else {
        // Closed for good (the stream is gone): the stored session says how the turn ended.
        this.#detach();
        void this.#recover();
      }
    };
  }

  /** The turn finished: the transcript is the server's copy from now on. */
  #settle(session: ApiSession | undefined): void {
    if (session && session.session_id === this.sessionId) {
      this.session = session;
      this.messages = this.#withQueued(session.messages);
      void offlineCache.saveTranscript(session);
    }
    this.live = null;
    this.approval = null;
    this.clarify = null;
    this.status = 'idle';
    this.onSessionChanged?.(this.sessionId!, { active_stream_id: null, attention: false, message_count: this.messages.length, updated_at: Date.now() / 1000 });
    this.changed();
  }

  async #recover(): Promise<void> {
    const id = this.sessionId;
    if (!id) return;
    try {
      const session = await api.session(id);
      if (this.sessionId !== id) return;
      if (session.active_stream_id) this.#adopt(session);
      else this.#settle(session);
    } catch (err) {
      this.status = 'idle';
      this.error = `Could not reach the server: ${(err as Error).message}`;
      this.changed();
    }
  }

  #detach(): void {
    this.#source?.close();
    this.#source = null;
  }

  /** Applies a metadata change made elsewhere (the sidebar renamed or pinned this session). */
  patchSession(patch: Partial<ApiSession>): void {
    if (!this.session) return;
    this.session = { ...this.session, ...patch };
    this.changed();
  }

  /** Index of the last user message, or -1. */
  lastUserIndex(): number {
    for (let i = this.messages.length - 1; i >= 0; i--) if (this.messages[i]!.role === 'user') return i;
    return -1;
  }
}
