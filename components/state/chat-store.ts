import { api, ApiError, type ApiSession, type Message, type PendingApproval, type PendingClarify } from '../api/client.js';
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

  #source: EventSource | null = null;
  #openToken = 0;

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
    if (!id) {
      this.changed();
      return;
    }
    this.loading = true;
    this.changed();
    try {
      const session = await api.session(id);
      if (token !== this.#openToken) return;
      this.#adopt(session);
    } catch (err) {
      if (token !== this.#openToken) return;
      this.error = err instanceof ApiError && err.status === 404 ? 'This session no longer exists.' : (err as Error).message;
    } finally {
      if (token === this.#openToken) {
        this.loading = false;
        this.changed();
      }
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
      this.messages = session.messages;
    }
  }

  async send(text: string, options: { attachments?: string[]; model?: string | null } = {}): Promise<void> {
    const session = this.session;
    if (!session || this.status !== 'idle') return;
    const message = text.trim();
    if (!message) return;
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
      this.error = (err as Error).message;
      this.changed();
      throw err;
    }
  }

  /**
   * Starts a conversation from the empty view: creates the session, then sends. Resolves with
   * the new session's id (the caller puts it in the URL).
   */
  async startNew(text: string, options: { attachments?: string[]; model?: string | null; workspace?: string } = {}): Promise<string> {
    const session = await api.newSession({ ...(options.model ? { model: options.model } : {}), ...(options.workspace ? { workspace: options.workspace } : {}) });
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
    this.#adopt(session);
    this.changed();
  }

  #attach(streamId: string): void {
    this.#detach();
    this.streamId = streamId;
    this.status = 'running';
    this.live = emptyAssistantTurn(this.messages.length);
    const source = new EventSource(`/api/chat/stream?stream_id=${encodeURIComponent(streamId)}`);
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
      this.messages = session.messages;
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
