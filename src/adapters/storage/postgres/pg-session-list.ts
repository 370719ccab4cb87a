import type { ListOptions, SessionPage } from '../../../ports/session-store.js';
import type { SessionRow } from '../../../shared/session.js';
import { compareRows } from '../../../domain/session-rows.js';
import type { Query } from './pg-session-rows.js';

interface Snapshot {
  epoch: string;
  revision: number;
  rows: Map<string, Readonly<SessionRow>>;
  sorted: { all: Readonly<SessionRow>[]; active: Readonly<SessionRow>[]; archived: number } | null;
  pages: Map<string, SessionPage>;
}

const PAGES_PER_REVISION = 8;

interface ChangeRow {
  kind: 's' | 'd' | 'r';
  id: string | null;
  body: string | null;
}

/**
 * This instance's copy of the session list, kept in step with the database: each list() asks,
 * in one statement (one snapshot), for the revision and only the rows changed since the copy's
 * revision (`changed_rev`) and the sessions deleted since (tombstones). Nothing changed costs
 * one small query; a write elsewhere costs its rows. A copy from another database (`epoch`), or
 * older than the tombstones kept, is read again whole.
 */
export class PgSessionList {
  readonly #sql: Query;
  #snapshot: Snapshot | null = null;

  constructor(sql: Query) {
    this.#sql = sql;
  }

  async page(options: ListOptions = {}): Promise<SessionPage> {
    const snap = await this.#refresh();
    const key = `${options.includeArchived ? 1 : 0}:${options.limit ?? ''}:${options.offset ?? 0}`;
    let page = snap.pages.get(key);
    if (!page) {
      snap.sorted ??= sortRows(snap.rows);
      const rows = options.includeArchived ? snap.sorted.all : snap.sorted.active;
      const offset = Math.max(0, Math.floor(options.offset ?? 0));
      const end = options.limit === undefined ? rows.length : offset + Math.max(0, Math.floor(options.limit));
      page = {
        rows: offset === 0 && end >= rows.length ? rows : rows.slice(offset, end),
        total: rows.length,
        archivedCount: snap.sorted.archived,
        revision: `pg.${snap.epoch.slice(0, 8)}.${snap.revision}`,
      };
      // The same page object while nothing moves (a handful of distinct options at most).
      if (snap.pages.size < PAGES_PER_REVISION) snap.pages.set(key, page);
    }
    return page;
  }

  /** Forgets the copy (the next page reads every row). */
  clear(): void {
    this.#snapshot = null;
  }

  async #refresh(): Promise<Snapshot> {
    const base = this.#snapshot;
    let changes = await this.#changes(base ? base.revision : -1);
    const current = this.#snapshot;
    // Another refresh got further meanwhile: keep its copy (a copy never goes backwards).
    if (current && current.epoch === changes.stats.epoch && current.revision >= changes.stats.revision) return current;
    // A delta applies to a copy of this database at or after its starting point, whose tombstones are all still kept.
    const onto =
      changes.since >= 0 &&
      current &&
      current.epoch === changes.stats.epoch &&
      current.revision >= changes.since &&
      current.revision >= changes.stats.prunedThrough
        ? current
        : null;
    if (changes.since >= 0 && !onto) changes = await this.#changes(-1);
    const rows = onto ? new Map(onto.rows) : new Map<string, Readonly<SessionRow>>();
    for (const id of changes.deleted) rows.delete(id);
    for (const [id, body] of changes.changed) {
      if (body === null) rows.delete(id);
      else rows.set(id, Object.freeze(JSON.parse(body) as SessionRow));
    }
    const next: Snapshot = { epoch: changes.stats.epoch, revision: changes.stats.revision, rows, sorted: null, pages: new Map() };
    const latest = this.#snapshot;
    if (!latest || latest.epoch !== next.epoch || latest.revision < next.revision) this.#snapshot = next;
    return this.#snapshot!;
  }

  /** Rows changed after revision `since` (every row when negative), deletions after it, and the revision now. */
  async #changes(since: number) {
    const result = await this.#sql<ChangeRow[]>`
      SELECT 's' AS kind, NULL AS id, epoch || ' ' || revision || ' ' || pruned_through AS body FROM session_stats WHERE id = 1
      UNION ALL
      SELECT 'd', session_id, NULL FROM session_tombstones WHERE rev > ${since}::bigint AND ${since}::bigint >= 0
      UNION ALL
      SELECT 'r', session_id, CASE WHEN NOT broken THEN list_row END FROM sessions WHERE changed_rev > ${since}::bigint`;
    const head = result.find((r) => r.kind === 's');
    if (!head?.body) throw new Error('Postgres sessions schema incomplete: session_stats has no row (run applyMigrations)');
    const [epoch, revision, prunedThrough] = head.body.split(' ') as [string, string, string];
    const deleted: string[] = [];
    const changed: [string, string | null][] = [];
    for (const r of result) {
      if (r.kind === 'd') deleted.push(r.id!);
      else if (r.kind === 'r') changed.push([r.id!, r.body]);
    }
    return { since, stats: { epoch, revision: Number(revision), prunedThrough: Number(prunedThrough) }, deleted, changed };
  }
}

function sortRows(rows: Map<string, Readonly<SessionRow>>) {
  const all = [...rows.values()].sort(compareRows);
  const active = all.filter((r) => !r.archived);
  return { all, active, archived: all.length - active.length };
}
