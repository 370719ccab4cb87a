import { Conflict, NotFound, TooLarge, VersionConflict } from '../../../ports/errors.js';
import type { Clock, Logger } from '../../../ports/platform.js';
import type { ListOptions, SearchHit, SessionPage, SessionPatch, SessionStore, StoreProblem, WriteOptions } from '../../../ports/session-store.js';
import { KeyedMutex } from '../../../shared/keyed-mutex.js';
import type { Message, Session, SessionRow } from '../../../shared/session.js';
import { nextUpdatedAt, toRow } from '../../../domain/session-rows.js';
import { damage, messageDamage } from '../stored-session-text.js';
import { searchSessions, sessionProblems } from './d1-session-queries.js';
import { changes, isObject, parseJson, type D1Database, type D1PreparedStatement } from './d1-types.js';

/** Messages per INSERT go in one bound JSON array of about this many characters at most (D1 caps a value at 2 MB). */
const BYTES_PER_INSERT = 512 * 1024;
/** Read-modify-write attempts before a write that keeps losing races gives up (409). */
const WRITE_ATTEMPTS = 8;
/** Sessions whose last-read copy this instance keeps (used only while their version is current). */
const SESSION_CACHE_SIZE = 32;
/** List pages kept for the current revision (one per distinct ListOptions). */
const LIST_CACHE_SIZE = 8;

/** A session as last read or written, with the version it had and its messages' JSON. */
interface Loaded {
  version: string;
  session: Session;
  /** Each message's stored JSON by position; null when the stored seqs were not 0…n-1. */
  bodies: string[] | null;
}

interface HeadRow {
  version: string;
  broken: number;
  meta: string | null;
  list_row: string | null;
}

/**
 * Sessions in Cloudflare D1, shared by every isolate and Durable Object bound to the database
 * (schema: migrations/0001_init.sql). `sessions` holds one row per session (metadata JSON, list
 * row, ordering columns and a random `version`); `messages` one row per message.
 *
 * Every write is one `batch()` (a transaction): an UPDATE conditional on the version read
 * (`WHERE version = ?old`) that sets a fresh version, then message deletes/inserts conditional on
 * that fresh version, so they apply only if the UPDATE did. A write that lost a race to another
 * instance re-reads and tries again; an `ifUpdatedAt` write then fails with VersionConflict.
 * Writes within this instance are also queued per session, so they do not race each other.
 *
 * Counts and the list revision come from `session_stats`, kept by triggers. Per-instance caches
 * (recent sessions by version, list pages by revision) are always checked against D1 first.
 *
 * A session whose `meta` or `list_row` is not a JSON object (`broken = 1`, a generated column),
 * or that has a message that is not, is reported by problems(), refused for reads and writes
 * (409) and never overwritten; a broken `meta`/`list_row` also leaves it out of the list.
 *
 * @example
 * await applyMigrations(env.DB);
 * const store = new D1SessionStore(env.DB, clock);
 */
export class D1SessionStore implements SessionStore {
  readonly kind = 'd1';
  readonly #db: D1Database;
  readonly #clock: Clock;
  readonly #logger: Logger | undefined;
  readonly #locks = new KeyedMutex();
  readonly #sessions = new Map<string, Loaded>();
  #lists = new Map<string, SessionPage>();
  #listRevision = '';

  constructor(db: D1Database, clock: Clock, logger?: Logger) {
    this.#db = db;
    this.#clock = clock;
    this.#logger = logger;
  }

  /** Checks that the schema exists (applyMigrations or `wrangler d1 migrations apply` ran). */
  async init(): Promise<void> {
    try {
      const stats = await this.#db.prepare('SELECT revision FROM session_stats WHERE id = 1').first();
      if (!stats) throw new Error('session_stats has no row');
    } catch (err) {
      throw new Error(`D1 schema missing or incomplete (run applyMigrations): ${(err as Error).message}`, { cause: err });
    }
  }

  async dispose(): Promise<void> {
    await this.#locks.idle();
    this.#sessions.clear();
    this.#lists.clear();
  }

  #sql(query: string, ...values: unknown[]): D1PreparedStatement {
    const statement = this.#db.prepare(query);
    return values.length ? statement.bind(...values) : statement;
  }

  // ── reads ──────────────────────────────────────────────────────────────────────────────────

  async get(id: string): Promise<Session | null> {
    const loaded = await this.#load(id);
    return loaded ? structuredClone(loaded.session) : null;
  }

  /**
   * The session as stored now. One batch (a consistent snapshot); when this instance holds the
   * current version, D1 sends back only the version and the cached copy is used.
   */
  async #load(id: string): Promise<Loaded | null> {
    const cached = this.#sessions.get(id);
    const known = cached?.version ?? '';
    const [head, messages] = await this.#db.batch([
      this.#sql('SELECT version, broken, iif(version = ?2 AND broken = 0, NULL, meta) AS meta, list_row FROM sessions WHERE session_id = ?1', id, known),
      this.#sql(
        'SELECT seq, body FROM messages WHERE session_id = ?1 AND NOT EXISTS (SELECT 1 FROM sessions WHERE session_id = ?1 AND version = ?2 AND broken = 0) ORDER BY seq',
        id,
        known,
      ),
    ]);
    const row = head?.results[0] as HeadRow | undefined;
    if (!row) {
      this.#sessions.delete(id);
      return null;
    }
    if (cached && row.version === known && !row.broken) {
      this.#remember(id, cached);
      return cached;
    }
    this.#sessions.delete(id);
    if (row.broken) throw unreadable(damage(row.meta, row.list_row));
    const meta = parseJson(row.meta ?? '');
    if (!isObject(meta)) throw unreadable(damage(row.meta, row.list_row));
    const stored = (messages?.results ?? []) as { seq: number; body: string }[];
    const parsed: Message[] = [];
    for (const m of stored) {
      const message = parseJson(m.body);
      if (!isObject(message)) throw unreadable(messageDamage(m.seq, m.body));
      parsed.push(message as Message);
    }
    const { messages: _ignored, ...rest } = meta;
    const session = { ...rest, session_id: id, messages: parsed } as Session;
    const loaded: Loaded = {
      version: row.version,
      session,
      bodies: stored.every((m, i) => m.seq === i) ? stored.map((m) => m.body) : null,
    };
    this.#remember(id, loaded);
    return loaded;
  }

  #remember(id: string, loaded: Loaded): void {
    this.#sessions.delete(id);
    this.#sessions.set(id, loaded);
    if (this.#sessions.size > SESSION_CACHE_SIZE) this.#sessions.delete(this.#sessions.keys().next().value!);
  }

  async list(options: ListOptions = {}): Promise<SessionPage> {
    const includeArchived = options.includeArchived === true;
    const offset = Math.max(0, Math.floor(options.offset ?? 0));
    const limit = options.limit === undefined ? -1 : Math.max(0, Math.floor(options.limit));
    const key = `${includeArchived ? 1 : 0}:${limit}:${offset}`;
    const cached = this.#lists.get(key);
    if (cached) {
      const stats = await this.#sql('SELECT revision FROM session_stats WHERE id = 1').first<{ revision: number }>();
      if (stats && revisionOf(stats.revision) === cached.revision) return cached;
    }
    const [statsResult, rowsResult] = await this.#db.batch([
      this.#sql('SELECT revision, readable, archived FROM session_stats WHERE id = 1'),
      this.#sql(
        `SELECT list_row FROM sessions WHERE broken = 0${includeArchived ? '' : ' AND archived = 0'} ORDER BY updated_at DESC, session_id LIMIT ?1 OFFSET ?2`,
        limit,
        offset,
      ),
    ]);
    const stats = statsResult?.results[0] as { revision: number; readable: number; archived: number } | undefined;
    if (!stats) throw new Error('D1 schema incomplete: session_stats has no row (run applyMigrations)');
    const rows: Readonly<SessionRow>[] = [];
    for (const r of (rowsResult?.results ?? []) as { list_row: string }[]) {
      const row = parseJson(r.list_row);
      if (isObject(row)) rows.push(Object.freeze(row as SessionRow));
    }
    const page: SessionPage = {
      rows: Object.freeze(rows),
      total: includeArchived ? stats.readable : stats.readable - stats.archived,
      archivedCount: stats.archived,
      revision: revisionOf(stats.revision),
    };
    if (page.revision !== this.#listRevision) {
      this.#lists = new Map();
      this.#listRevision = page.revision;
    }
    this.#lists.delete(key);
    this.#lists.set(key, page);
    if (this.#lists.size > LIST_CACHE_SIZE) this.#lists.delete(this.#lists.keys().next().value!);
    return page;
  }

  search(query: string, options: { content: boolean; limit?: number }): Promise<SearchHit[]> {
    return searchSessions(this.#db, query, options);
  }

  problems(): Promise<StoreProblem[]> {
    return sessionProblems(this.#db);
  }

  // ── writes ─────────────────────────────────────────────────────────────────────────────────

  async create(session: Session): Promise<Session> {
    return this.#locks.run(session.session_id, async () => {
      const stored = structuredClone(session);
      stored.messages ??= [];
      stored.tool_calls ??= [];
      if (!(await this.#commit(stored, null))) throw new Conflict('Session already exists');
      return structuredClone(stored);
    });
  }

  update(id: string, patch: SessionPatch, options?: WriteOptions): Promise<Session> {
    return this.#write(id, options, (s) => {
      Object.assign(s, structuredClone(patch));
    });
  }

  appendMessages(id: string, messages: Message[], patch?: SessionPatch, options?: WriteOptions): Promise<Session> {
    return this.#write(id, options, (s) => {
      if (patch) Object.assign(s, structuredClone(patch));
      s.messages.push(...structuredClone(messages));
    });
  }

  replaceMessages(id: string, messages: Message[], patch?: SessionPatch, options?: WriteOptions): Promise<Session> {
    return this.#write(id, options, (s) => {
      if (patch) Object.assign(s, structuredClone(patch));
      s.messages = structuredClone(messages);
    });
  }

  async delete(id: string): Promise<boolean> {
    return this.#locks.run(id, async () => {
      this.#sessions.delete(id);
      const [messages, sessions] = await this.#db.batch([
        this.#sql('DELETE FROM messages WHERE session_id = ?1', id),
        this.#sql('DELETE FROM sessions WHERE session_id = ?1', id),
        // Its chat streams' routes (D1RunStreams) lead nowhere now.
        this.#sql('DELETE FROM run_streams WHERE session_id = ?1', id),
      ]);
      return changes(sessions) > 0 || changes(messages) > 0;
    });
  }

  async clearProject(projectId: string): Promise<number> {
    const { results } = await this.#sql('SELECT session_id FROM sessions WHERE project_id = ?1 AND broken = 0', projectId).all<{
      session_id: string;
    }>();
    let cleared = 0;
    for (const { session_id } of results) {
      try {
        const done = await this.#write(session_id, undefined, (s) => {
          if (s.project_id !== projectId) return false;
          s.project_id = null;
        });
        if (done.project_id === null) cleared++;
      } catch (err) {
        // Deleted (or damaged) since the query: nothing to unassign.
        if (!(err instanceof NotFound) && !(err instanceof Conflict)) throw err;
      }
    }
    return cleared;
  }

  /**
   * Read-modify-write of one session: queued behind this instance's other writes to it, and
   * retried when another instance changed it between the read and the conditional write.
   * `change` returning false means "nothing to change" (no write, no `updated_at` bump).
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a change callback returns nothing, or false for "no change".
  #write(id: string, options: WriteOptions | undefined, change: (s: Session) => void | false): Promise<Session> {
    return this.#locks.run(id, async () => {
      for (let attempt = 1; ; attempt++) {
        const current = await this.#load(id);
        if (!current) throw new NotFound('Session not found');
        const previous = current.session;
        if (options?.ifUpdatedAt !== undefined && options.ifUpdatedAt !== previous.updated_at) {
          throw new VersionConflict(previous.updated_at);
        }
        // A shallow copy: `change` only replaces top-level keys and adds cloned messages, so the
        // cached `previous` is never mutated and unchanged messages keep their stored JSON.
        const next: Session = { ...previous, messages: previous.messages.slice() };
        if (change(next) === false) return structuredClone(previous);
        next.session_id = id;
        next.created_at = previous.created_at;
        next.updated_at = options?.touch === false ? previous.updated_at : nextUpdatedAt(this.#clock.now(), previous.updated_at);
        if (await this.#commit(next, current)) return structuredClone(next);
        this.#sessions.delete(id);
        if (attempt >= WRITE_ATTEMPTS) {
          this.#logger?.error({ msg: 'D1 session write kept losing races; gave up', session_id: id, attempts: attempt });
          throw new Conflict('Session is being changed elsewhere; try again');
        }
        await sleep(Math.min(200, 5 * 2 ** attempt) * (0.5 + Math.random()));
      }
    });
  }

  /**
   * Writes `next` in one batch: the session row (INSERT for a new session, else an UPDATE
   * conditional on `previous.version`) with a fresh version, then the message changes, each
   * conditional on that fresh version. Only messages past the unchanged prefix are rewritten.
   * False when the row was not written (the id exists, or the version moved on).
   */
  async #commit(next: Session, previous: Loaded | null): Promise<boolean> {
    const id = next.session_id;
    const version = crypto.randomUUID();
    const { messages, ...metaObject } = next;
    const row = toRow(next);
    const columns = [row.updated_at, row.archived ? 1 : 0, row.project_id ?? null, row.title, JSON.stringify(row), JSON.stringify(metaObject), version];
    const before = previous?.session.messages;
    const bodies = messages.map((m, i) => (before?.[i] === m && previous?.bodies ? previous.bodies[i]! : JSON.stringify(m)));
    let keep = 0;
    if (previous?.bodies) {
      const max = Math.min(bodies.length, previous.bodies.length);
      while (keep < max && bodies[keep] === previous.bodies[keep]) keep++;
    }

    const statements: D1PreparedStatement[] = [];
    if (previous) {
      statements.push(
        this.#sql(
          'UPDATE sessions SET updated_at = ?1, archived = ?2, project_id = ?3, title = ?4, list_row = ?5, meta = ?6, version = ?7 WHERE session_id = ?8 AND version = ?9 AND broken = 0 RETURNING version',
          ...columns,
          id,
          previous.version,
        ),
      );
      if (!previous.bodies || keep < previous.bodies.length) {
        statements.push(
          this.#sql(
            'DELETE FROM messages WHERE session_id = ?1 AND seq >= ?2 AND EXISTS (SELECT 1 FROM sessions WHERE session_id = ?1 AND version = ?3)',
            id,
            keep,
            version,
          ),
        );
      }
    } else {
      statements.push(
        this.#sql(
          'INSERT INTO sessions (updated_at, archived, project_id, title, list_row, meta, version, session_id) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT (session_id) DO NOTHING RETURNING version',
          ...columns,
          id,
        ),
      );
    }
    // Messages go in as one JSON array of their JSON texts per statement (json_each unpacks it):
    // few statements however many messages, and each body is stored byte for byte.
    const onlyIfWritten = 'WHERE EXISTS (SELECT 1 FROM sessions WHERE session_id = ?1 AND version = ?2)';
    for (let start = keep; start < bodies.length; ) {
      const chunk: string[] = [];
      let bytes = 2;
      for (let i = start; i < bodies.length; i++) {
        const size = JSON.stringify(bodies[i]).length + 1;
        if (chunk.length && bytes + size > BYTES_PER_INSERT) break;
        chunk.push(bodies[i]!);
        bytes += size;
      }
      statements.push(
        bytes > BYTES_PER_INSERT
          ? // One message too big to be wrapped: bound on its own.
            this.#sql(`INSERT INTO messages (session_id, seq, body) SELECT ?1, ?3, ?4 ${onlyIfWritten}`, id, version, start, chunk[0])
          : this.#sql(
              `INSERT INTO messages (session_id, seq, body) SELECT ?1, ?3 + key, value FROM json_each(?4) ${onlyIfWritten}`,
              id,
              version,
              start,
              JSON.stringify(chunk),
            ),
      );
      start += chunk.length;
    }

    let results;
    try {
      results = await this.#db.batch(statements);
    } catch (err) {
      if (/TOOBIG|too big|too large/i.test(String((err as Error).message))) {
        throw new TooLarge('Session too large to store (a message is over the database row size limit)');
      }
      throw err;
    }
    // RETURNING, not meta.changes: D1 counts the rows the stats triggers change too.
    if (results[0]?.results.length !== 1) return false;
    this.#remember(id, { version, session: next, bodies });
    return true;
  }
}

const revisionOf = (n: number) => `d1.${n}`;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function unreadable(reason: string): Conflict {
  return new Conflict(`Session data is unreadable (${reason}); it was left untouched`);
}
