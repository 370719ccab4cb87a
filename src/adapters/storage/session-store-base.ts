import { Conflict, NotFound, VersionConflict } from '../../ports/errors.js';
import type { Clock } from '../../ports/platform.js';
import type {
  ListOptions,
  SearchHit,
  SessionPage,
  SessionPatch,
  SessionStore,
  StoreProblem,
  WriteOptions,
} from '../../ports/session-store.js';
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
  protected readonly rows = new Map<string, SessionRow>();
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

  async create(session: Session): Promise<Session> {
    return this.locks.run(session.session_id, async () => {
      if (this.rows.has(session.session_id) || this.brokenSessions.has(session.session_id)) {
        throw new Conflict('Session already exists');
      }
      const stored = structuredClone(session);
      stored.messages ??= [];
      stored.tool_calls ??= [];
      await this.persist(stored, null);
      this.rows.set(stored.session_id, toRow(stored));
      this.rowsChanged();
      return structuredClone(stored);
    });
  }

  async get(id: string): Promise<Session | null> {
    if (!this.rows.has(id) && !this.brokenSessions.has(id)) return null;
    const session = await this.load(id);
    return session ? structuredClone(session) : null;
  }

  async list(options: ListOptions = {}): Promise<SessionPage> {
    let archivedCount = 0;
    const rows: SessionRow[] = [];
    for (const row of this.rows.values()) {
      if (row.archived) archivedCount++;
      if (row.archived && !options.includeArchived) continue;
      rows.push(row);
    }
    rows.sort(compareRows);
    const offset = Math.max(0, options.offset ?? 0);
    const page = options.limit === undefined ? rows.slice(offset) : rows.slice(offset, offset + options.limit);
    return { rows: page.map((r) => ({ ...r })), total: rows.length, archivedCount };
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
      const known = this.rows.delete(id) || this.brokenSessions.delete(id);
      if (known) this.rowsChanged();
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
    const ordered = [...this.rows.values()].sort(compareRows);
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
      next.updated_at = nextUpdatedAt(this.clock.now(), previous.updated_at);
      await this.persist(next, previous);
      this.rows.set(id, toRow(next));
      this.rowsChanged();
      return structuredClone(next);
    });
  }
}
