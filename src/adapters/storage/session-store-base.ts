import { Conflict, NotFound, VersionConflict } from '../../ports/errors.js';
import type { Clock } from '../../ports/platform.js';
import type { ListOptions, SearchHit, SessionPage, SessionPatch, SessionStore, StoreProblem, WriteOptions } from '../../ports/session-store.js';
import { KeyedMutex } from '../../shared/keyed-mutex.js';
import type { Message, Session, SessionRow } from '../../shared/session.js';
import { compareRows, matchPreview, messageText, nextUpdatedAt, toRow } from '../../domain/session-rows.js';

/**
 * What the memory and fs adapters share: the row index, paging, search and the write rules
 * (serialised per session, version check, `updated_at` bump). A subclass says how a whole
 * session is loaded and saved.
 */
export abstract class RowIndexedSessionStore implements SessionStore {
  abstract readonly kind: string;
  /** Frozen rows, so list() can hand them out without copying. */
  protected readonly rows = new Map<string, Readonly<SessionRow>>();
  #revision = 0;
  /** Distinguishes this process's revisions from a previous run's. */
  readonly #instance = crypto.randomUUID().slice(0, 8);
  #sorted: { all: Readonly<SessionRow>[]; active: Readonly<SessionRow>[]; archived: number } | null = null;
  protected readonly locks = new KeyedMutex();
  protected readonly brokenSessions = new Map<string, string>();

  constructor(protected readonly clock: Clock) {}

  abstract init(): Promise<void>;
  abstract dispose(): Promise<void>;
  /** Null when the session does not exist; throws when it exists but cannot be read. */
  protected abstract load(id: string): Promise<Session | null>;
  /** Persists the session; `previous` is what it replaces (null for a new one). */
  protected abstract persist(session: Session, previous: Session | null): Promise<void>;
  protected abstract remove(id: string): Promise<boolean>;
  /** Called after any change to the rows, so an adapter can persist its index. */
  protected rowsChanged(): void {}

  protected putRow(row: SessionRow): void {
    this.rows.set(row.session_id, Object.freeze(row));
    this.#invalidate();
  }

  protected dropRow(id: string): boolean {
    const had = this.rows.delete(id);
    if (had) this.#invalidate();
    return had;
  }

  #invalidate(): void {
    this.#revision++;
    this.#sorted = null;
    this.rowsChanged();
  }

  /** The rows in list order, sorted once per change rather than once per request. */
  #ordered() {
    if (!this.#sorted) {
      const all = [...this.rows.values()].sort(compareRows);
      const active = all.filter((r) => !r.archived);
      this.#sorted = { all, active, archived: all.length - active.length };
    }
    return this.#sorted;
  }

  async create(session: Session): Promise<Session> {
    return this.locks.run(session.session_id, async () => {
      if (this.rows.has(session.session_id) || this.brokenSessions.has(session.session_id)) {
        throw new Conflict('Session already exists');
      }
      const stored = structuredClone(session);
      stored.messages ??= [];
      stored.tool_calls ??= [];
      await this.persist(stored, null);
      this.putRow(toRow(stored));
      return structuredClone(stored);
    });
  }

  async get(id: string): Promise<Session | null> {
    if (!this.rows.has(id) && !this.brokenSessions.has(id)) return null;
    const session = await this.load(id);
    return session ? structuredClone(session) : null;
  }

  async list(options: ListOptions = {}): Promise<SessionPage> {
    const ordered = this.#ordered();
    const rows = options.includeArchived ? ordered.all : ordered.active;
    const offset = Math.max(0, options.offset ?? 0);
    const page = options.limit === undefined ? rows.slice(offset) : rows.slice(offset, offset + options.limit);
    return { rows: page, total: rows.length, archivedCount: ordered.archived, revision: `${this.#instance}-${this.#revision}` };
  }

  update(id: string, patch: SessionPatch, options?: WriteOptions): Promise<Session> {
    return this.write(id, options, (s) => Object.assign(s, patch));
  }

  appendMessages(id: string, messages: Message[], patch?: SessionPatch, options?: WriteOptions): Promise<Session> {
    return this.write(id, options, (s) => {
      if (patch) Object.assign(s, patch);
      s.messages.push(...structuredClone(messages));
    });
  }

  replaceMessages(id: string, messages: Message[], patch?: SessionPatch, options?: WriteOptions): Promise<Session> {
    return this.write(id, options, (s) => {
      if (patch) Object.assign(s, patch);
      s.messages = structuredClone(messages);
    });
  }

  async delete(id: string): Promise<boolean> {
    if (!this.rows.has(id) && !this.brokenSessions.has(id)) return false;
    return this.locks.run(id, async () => {
      const existed = await this.remove(id);
      const known = this.dropRow(id) || this.brokenSessions.delete(id);
      return existed || known;
    });
  }

  async clearProject(projectId: string): Promise<number> {
    const ids = [...this.rows.values()].filter((r) => r.project_id === projectId).map((r) => r.session_id);
    for (const id of ids) await this.update(id, { project_id: null });
    return ids.length;
  }

  async search(query: string, options: { content: boolean; limit?: number }): Promise<SearchHit[]> {
    const needle = query.trim().toLowerCase();
    const limit = options.limit ?? 200;
    if (!needle) return [];
    const ordered = this.#ordered().all;
    const hits: SearchHit[] = [];
    for (const row of ordered) {
      if (hits.length >= limit) break;
      if (row.title.toLowerCase().includes(needle)) {
        hits.push({ ...row, match_type: 'title', match_preview: row.title });
      }
    }
    if (options.content) {
      const titled = new Set(hits.map((h) => h.session_id));
      for (const row of ordered) {
        if (hits.length >= limit) break;
        if (titled.has(row.session_id) || row.message_count === 0) continue;
        const session = await this.load(row.session_id).catch(() => null);
        const text = session?.messages.map(messageText).find((t) => t.toLowerCase().includes(needle));
        if (text !== undefined) hits.push({ ...row, match_type: 'content', match_preview: matchPreview(text, needle) });
      }
    }
    return hits;
  }

  async problems(): Promise<StoreProblem[]> {
    return [...this.brokenSessions].map(([session_id, error]) => ({ session_id, error }));
  }

  /** Read-modify-write of one session under its lock, with the version check and `updated_at` bump. */
  protected write(id: string, options: WriteOptions | undefined, change: (s: Session) => void): Promise<Session> {
    return this.locks.run(id, async () => {
      if (!this.rows.has(id) && !this.brokenSessions.has(id)) throw new NotFound('Session not found');
      const previous = await this.load(id);
      if (!previous) throw new NotFound('Session not found');
      if (options?.ifUpdatedAt !== undefined && options.ifUpdatedAt !== previous.updated_at) {
        throw new VersionConflict(previous.updated_at);
      }
      const next = structuredClone(previous);
      change(next);
      next.session_id = id;
      next.created_at = previous.created_at;
      next.updated_at = options?.touch === false ? previous.updated_at : nextUpdatedAt(this.clock.now(), previous.updated_at);
      await this.persist(next, previous);
      this.putRow(toRow(next));
      return structuredClone(next);
    });
  }
}
