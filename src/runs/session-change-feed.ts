import type { ListOptions, SessionPatch, SessionStore, WriteOptions } from '../ports/session-store.js';
import type { Message, Session } from '../shared/session.js';
import type { SessionsChangedReason } from '../shared/live-events.js';
import type { AppEvent, AppEvents } from './app-events.js';

/**
 * Patch keys that change what the sidebar shows, and the reason each gives (first match wins).
 * Anything else (token counts, cost, todo state, the active stream, pending message) is
 * turn-internal: a turn writes it many times, and run start and end are told apart.
 */
const LIST_KEYS: [key: string, reason: SessionsChangedReason][] = [
  ['title', 'session_rename'],
  ['pinned', 'session_pin'],
  ['archived', 'session_archive'],
  ['project_id', 'session_move'],
  ['workspace', 'session_update'],
  ['model', 'session_update'],
  ['model_provider', 'session_update'],
  ['profile', 'session_update'],
  ['parent_session_id', 'session_update'],
  ['session_source', 'session_update'],
];

/** Sessions whose profile the feed remembers (turn events carry only a session id). */
const PROFILES_KEPT = 5000;

function patchReason(patch: SessionPatch | undefined): SessionsChangedReason | null {
  if (!patch) return null;
  for (const [key, reason] of LIST_KEYS) if (key in patch) return reason;
  return null;
}

/** What kind of new session this is: a fork, an import or copy (it has a transcript), a task's, or a blank one. */
function createReason(session: Session): SessionsChangedReason {
  if (session.session_source === 'fork' || (session.parent_session_id && session.session_source !== 'subagent')) return 'session_branch';
  if (session.session_source === 'cron') return 'cron_started';
  if (session.messages.length && !session.parent_session_id) return 'session_import';
  return 'session_new';
}

/**
 * The session store, telling `events` after every change of the session list (create, rename,
 * pin, archive, move, delete, import, branch) with the incumbent's reason names and the session's
 * profile. It also turns run, approval and task events into `sessions_changed`, so every list
 * change is one event type on the bus (`/api/sessions/events` and notifications listen to it).
 */
export class SessionChangeFeed implements SessionStore {
  readonly kind: string;
  #profiles = new Map<string, string>();

  constructor(
    /** The store itself (the composition root's adapter). */
    readonly inner: SessionStore,
    private readonly events: AppEvents,
  ) {
    this.kind = inner.kind;
    events.on((event) => this.#bridge(event));
  }

  /** The profile a session was last seen in (`default` for one without), if this process has seen it. */
  profileOf(sessionId: string): string | undefined {
    return this.#profiles.get(sessionId);
  }

  init(): Promise<void> {
    return this.inner.init();
  }

  dispose(): Promise<void> {
    return this.inner.dispose();
  }

  async create(session: Session): Promise<Session> {
    const created = await this.inner.create(session);
    this.#tell(createReason(created), created);
    return created;
  }

  async get(id: string): Promise<Session | null> {
    const session = await this.inner.get(id);
    if (session) this.#remember(session);
    return session;
  }

  list(options?: ListOptions) {
    return this.inner.list(options);
  }

  async update(id: string, patch: SessionPatch, options?: WriteOptions): Promise<Session> {
    const session = await this.inner.update(id, patch, options);
    this.#tellPatch(patchReason(patch), session);
    return session;
  }

  async appendMessages(id: string, messages: Message[], patch?: SessionPatch, options?: WriteOptions): Promise<Session> {
    const session = await this.inner.appendMessages(id, messages, patch, options);
    this.#tellPatch(patchReason(patch), session);
    return session;
  }

  async replaceMessages(id: string, messages: Message[], patch?: SessionPatch, options?: WriteOptions): Promise<Session> {
    const session = await this.inner.replaceMessages(id, messages, patch, options);
    // Clear and truncate are a person's actions (never a turn's): the row's counts change.
    this.#tellPatch(patchReason(patch) ?? 'session_update', session);
    return session;
  }

  async delete(id: string): Promise<boolean> {
    const profile = this.#profiles.get(id);
    const deleted = await this.inner.delete(id);
    if (deleted) {
      this.#profiles.delete(id);
      this.#emit('session_delete', id, profile);
    }
    return deleted;
  }

  async clearProject(projectId: string): Promise<number> {
    const count = await this.inner.clearProject(projectId);
    // Rows of any profile may have moved out of the project.
    if (count) this.events.emit({ type: 'sessions_changed', reason: 'session_move' });
    return count;
  }

  search(query: string, options: { content: boolean; limit?: number }) {
    return this.inner.search(query, options);
  }

  problems() {
    return this.inner.problems();
  }

  #tellPatch(reason: SessionsChangedReason | null, session: Session) {
    if (reason) this.#tell(reason, session);
    else this.#remember(session);
  }

  #tell(reason: SessionsChangedReason, session: Session) {
    this.#emit(reason, session.session_id, this.#remember(session));
  }

  #remember(session: Session): string {
    const profile = typeof session.profile === 'string' && session.profile ? session.profile : 'default';
    const id = session.session_id;
    if (this.#profiles.get(id) !== profile) {
      this.#profiles.delete(id);
      this.#profiles.set(id, profile);
      if (this.#profiles.size > PROFILES_KEPT) this.#profiles.delete(this.#profiles.keys().next().value!);
    }
    return profile;
  }

  /** An unknown profile is left out: then every profile's list refreshes, never none. */
  #emit(reason: SessionsChangedReason, sessionId: string | undefined, profile: string | undefined) {
    this.events.emit({
      type: 'sessions_changed',
      reason,
      ...(sessionId ? { session_id: sessionId } : {}),
      ...(profile ? { profile } : {}),
    });
  }

  /** Runs starting and ending, a question waiting or answered, a task run done: the row changes. */
  #bridge(event: AppEvent) {
    // Another instance's run: its own feed told its sessions_changed, which arrives here too.
    if (event.origin) return;
    switch (event.type) {
      case 'turn_started':
        this.#emit(event.source === 'cron' ? 'cron_started' : 'turn_started', event.session_id, this.#profiles.get(event.session_id));
        return;
      case 'turn_finished':
        this.#emit('turn_finished', event.session_id, this.#profiles.get(event.session_id));
        return;
      case 'approval_waiting':
      case 'clarify_waiting':
        this.#emit('attention_pending', event.session_id, this.#profiles.get(event.session_id));
        return;
      case 'attention_resolved':
        this.#emit('attention_resolved', event.session_id, this.#profiles.get(event.session_id));
        return;
      case 'task_finished':
        this.#emit('cron_complete', event.session_id ?? undefined, event.profile);
        return;
      default:
        return;
    }
  }
}

/** Wraps `store` so the session list's changes are told on `events` (both composition roots use it). */
export function withSessionChangeFeed(store: SessionStore, events: AppEvents): SessionChangeFeed {
  return new SessionChangeFeed(store, events);
}
