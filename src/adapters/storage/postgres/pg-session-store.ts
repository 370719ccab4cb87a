import { Conflict, NotFound, VersionConflict } from '../../../ports/errors.js';
import type { Clock } from '../../../ports/platform.js';
import type { ListOptions, SearchHit, SessionPage, SessionPatch, SessionStore, StoreProblem, WriteOptions } from '../../../ports/session-store.js';
import { KeyedMutex } from '../../../shared/keyed-mutex.js';
import type { Message, Session } from '../../../shared/session.js';
import { nextUpdatedAt } from '../../../domain/session-rows.js';
import { damage } from '../stored-session-text.js';
import type { Sql } from './pg-client.js';
import { insertMessages, loadSession, sessionColumns, unreadable, type Loaded, type Query } from './pg-session-rows.js';
import { searchSessions, sessionProblems } from './pg-session-queries.js';
import { PgSessionList } from './pg-session-list.js';

/** Sessions whose last-read copy this instance keeps (used only while their version is current). */
const SESSION_CACHE_SIZE = 32;

/**
 * Sessions in Postgres, shared by every instance on the database (schema: migration 0001):
 * one `sessions` row per session (metadata JSON, list row, ordering columns, a `version` the
 * database bumps on every update), one `messages` row per message.
 *
 * Every write is one transaction that first locks the session's row (`FOR UPDATE`), so writes
 * from any number of instances to one session take turns; the `ifUpdatedAt` check happens under
 * that lock. Only messages past the unchanged prefix are written: an append inserts rows. The
 * `sessions` row is updated last, so the list revision's counter row (bumped by its trigger) is
 * held only until the commit. Writes within this instance also queue per session, so they do
 * not hold a pooled connection each while waiting for the row.
 *
 * The list's revision comes from `session_stats` (triggers, same transaction as the change), so
 * every instance reports the same revision for the same list; each instance keeps a copy of the
 * list rows and refreshes it with the rows changed since (PgSessionList). Recent sessions are
 * cached per version.
 *
 * A session whose stored JSON is not an object (`broken`, a generated column), or that has such
 * a message, is reported by problems(), refused for reads and writes (409) and never
 * overwritten; a broken `meta`/`list_row` also leaves it out of the list.
 *
 * @example
 * const store = new PgSessionStore(connectPostgres(url), clock);
 * await store.init();
 */
export class PgSessionStore implements SessionStore {
  readonly kind = 'postgres';
  readonly #sql: Sql;
  readonly #clock: Clock;
  readonly #locks = new KeyedMutex();
  readonly #sessions = new Map<string, Loaded>();
  readonly #list: PgSessionList;

  constructor(sql: Sql, clock: Clock) {
    this.#sql = sql;
    this.#clock = clock;
    this.#list = new PgSessionList(sql);
  }

  /** Checks that the schema exists (applyMigrations ran). */
  async init(): Promise<void> {
    try {
      const [stats] = await this.#sql`SELECT revision FROM session_stats WHERE id = 1`;
      if (!stats) throw new Error('session_stats has no row');
    } catch (err) {
      throw new Error(`Postgres sessions schema missing or incomplete (run applyMigrations): ${(err as Error).message}`, { cause: err });
    }
  }

  /** Waits for this instance's writes; the pool belongs to whoever made it. */
  async dispose(): Promise<void> {
    await this.#locks.idle();
    this.#sessions.clear();
    this.#list.clear();
  }

  // ── reads ──────────────────────────────────────────────────────────────────────────────────

  async get(id: string): Promise<Session | null> {
    const loaded = await this.#load(this.#sql, id);
    return loaded ? structuredClone(loaded.session) : null;
  }

  async #load(q: Query, id: string): Promise<Loaded | null> {
    const cached = this.#sessions.get(id);
    let loaded: Loaded | null;
    try {
      loaded = await loadSession(q, id, cached);
    } catch (err) {
      this.#sessions.delete(id);
      throw err;
    }
    if (loaded) this.#remember(id, loaded);
    else this.#sessions.delete(id);
    return loaded;
  }

  #remember(id: string, loaded: Loaded): void {
    this.#sessions.delete(id);
    this.#sessions.set(id, loaded);
    if (this.#sessions.size > SESSION_CACHE_SIZE) this.#sessions.delete(this.#sessions.keys().next().value!);
  }

  list(options: ListOptions = {}): Promise<SessionPage> {
    return this.#list.page(options);
  }

  search(query: string, options: { content: boolean; limit?: number }): Promise<SearchHit[]> {
    return searchSessions(this.#sql, query, options);
  }

  problems(): Promise<StoreProblem[]> {
    return sessionProblems(this.#sql);
  }

  // ── writes ─────────────────────────────────────────────────────────────────────────────────

  async create(session: Session): Promise<Session> {
    return this.#locks.run(session.session_id, async () => {
      const stored = structuredClone(session);
      stored.messages ??= [];
      stored.tool_calls ??= [];
      const c = sessionColumns(stored);
      const version = await this.#sql.begin(async (tx) => {
        const [row] = await tx<{ version: number }[]>`
          INSERT INTO sessions (session_id, updated_at, archived, project_id, title, list_row, meta)
          VALUES (${stored.session_id}, ${c.updated_at}, ${c.archived}, ${c.project_id}, ${c.title}, ${c.list_row}, ${c.meta})
          ON CONFLICT (session_id) DO NOTHING RETURNING version`;
        if (!row) return null;
        await insertMessages(
          tx,
          stored.session_id,
          0,
          stored.messages.map((m) => JSON.stringify(m)),
        );
        return row.version;
      });
      if (version === null) throw new Conflict('Session already exists');
      this.#remember(stored.session_id, { version, session: stored, count: stored.messages.length, contiguous: true });
      return structuredClone(stored);
    });
  }

  /**
   * Stores exactly `session` (its `created_at` and `updated_at` as given), replacing any session
   * with that id, damaged or not: the fs → Postgres import, re-runnable.
   */
  async importSession(session: Session): Promise<void> {
    const id = session.session_id;
    await this.#locks.run(id, async () => {
      const stored = structuredClone(session);
      stored.messages ??= [];
      const c = sessionColumns(stored);
      const version = await this.#sql.begin(async (tx) => {
        const [row] = await tx<{ version: number }[]>`
          INSERT INTO sessions (session_id, updated_at, archived, project_id, title, list_row, meta)
          VALUES (${id}, ${c.updated_at}, ${c.archived}, ${c.project_id}, ${c.title}, ${c.list_row}, ${c.meta})
          ON CONFLICT (session_id) DO UPDATE SET updated_at = EXCLUDED.updated_at, archived = EXCLUDED.archived,
            project_id = EXCLUDED.project_id, title = EXCLUDED.title, list_row = EXCLUDED.list_row, meta = EXCLUDED.meta
          RETURNING version`;
        await tx`DELETE FROM messages WHERE session_id = ${id}`;
        await insertMessages(
          tx,
          id,
          0,
          stored.messages.map((m) => JSON.stringify(m)),
        );
        return row!.version;
      });
      this.#remember(id, { version, session: stored, count: stored.messages.length, contiguous: true });
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
      // Its messages go with it (ON DELETE CASCADE).
      const rows = await this.#sql`DELETE FROM sessions WHERE session_id = ${id} RETURNING 1`;
      return rows.length > 0;
    });
  }

  async clearProject(projectId: string): Promise<number> {
    const rows = await this.#sql<{ session_id: string }[]>`SELECT session_id FROM sessions WHERE project_id = ${projectId} AND NOT broken`;
    let cleared = 0;
    for (const { session_id } of rows) {
      try {
        let changed = false;
        await this.#write(session_id, undefined, (s) => {
          if (s.project_id !== projectId) return false;
          s.project_id = null;
          changed = true;
        });
        if (changed) cleared++;
      } catch (err) {
        // Deleted (or damaged) since the query: nothing to unassign.
        if (!(err instanceof NotFound) && !(err instanceof Conflict)) throw err;
      }
    }
    return cleared;
  }

  /**
   * Read-modify-write of one session in one transaction holding its row lock. `change`
   * returning false means "nothing to change" (no write, no `updated_at` bump).
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a change callback returns nothing, or false for "no change".
  #write(id: string, options: WriteOptions | undefined, change: (s: Session) => void | false): Promise<Session> {
    return this.#locks.run(id, async () => {
      let written = null as Loaded | null;
      const result = await this.#sql.begin(async (tx) => {
        const [head] = await tx<{ version: number; broken: boolean; meta: string | null; list_row: string }[]>`
          SELECT version, broken, CASE WHEN broken THEN meta END AS meta, list_row FROM sessions WHERE session_id = ${id} FOR UPDATE`;
        if (!head) throw new NotFound('Session not found');
        if (head.broken) throw unreadable(damage(head.meta, head.list_row));
        // Under the lock, a fresh statement sees every committed write before ours.
        const current = await this.#load(tx, id);
        if (!current) throw new NotFound('Session not found');
        const previous = current.session;
        if (options?.ifUpdatedAt !== undefined && options.ifUpdatedAt !== previous.updated_at) {
          throw new VersionConflict(previous.updated_at);
        }
        // A shallow copy: `change` only replaces top-level keys and adds cloned messages, so the
        // cached `previous` is never mutated and unchanged messages stay the same objects.
        const next: Session = { ...previous, messages: previous.messages.slice() };
        if (change(next) === false) return previous;
        next.session_id = id;
        next.created_at = previous.created_at;
        next.updated_at = options?.touch === false ? previous.updated_at : nextUpdatedAt(this.#clock.now(), previous.updated_at);
        const keep = current.contiguous ? unchangedPrefix(previous.messages, next.messages) : 0;
        if (keep < current.count || !current.contiguous) await tx`DELETE FROM messages WHERE session_id = ${id} AND seq >= ${keep}`;
        await insertMessages(
          tx,
          id,
          keep,
          next.messages.slice(keep).map((m) => JSON.stringify(m)),
        );
        const c = sessionColumns(next);
        const [row] = await tx<{ version: number }[]>`
          UPDATE sessions SET updated_at = ${c.updated_at}, archived = ${c.archived}, project_id = ${c.project_id},
            title = ${c.title}, list_row = ${c.list_row}, meta = ${c.meta}
          WHERE session_id = ${id} RETURNING version`;
        written = { version: row!.version, session: next, count: next.messages.length, contiguous: true };
        return next;
      });
      if (written) this.#remember(id, written);
      return structuredClone(result);
    });
  }
}

/** How many leading messages `next` shares with `previous` (same object, or the same JSON). */
function unchangedPrefix(previous: readonly Message[], next: readonly Message[]): number {
  const max = Math.min(previous.length, next.length);
  let keep = 0;
  while (keep < max && (previous[keep] === next[keep] || JSON.stringify(previous[keep]) === JSON.stringify(next[keep]))) keep++;
  return keep;
}
