import type { SessionRow } from '../shared/session.js';
import { isSafeSessionId } from '../shared/session.js';

/**
 * Keyset paging of the session list. The list's order is `updated_at` descending, then
 * `session_id` (compareRows); a cursor is the position just after a row in that order, so the
 * next page starts after it however many rows were added, changed or deleted meanwhile: a
 * session that moves (a new message bumps `updated_at`) jumps to the top, before every cursor,
 * and no page repeats or skips a row that stayed in place. Pinned rows are not in the pages:
 * the first page carries all of them beside it.
 */

export const DEFAULT_PAGE_ROWS = 100;
export const MAX_PAGE_ROWS = 1000;

/** Where a page starts: after the row with this `updated_at` and `session_id`. */
export interface ListCursor {
  updatedAt: number;
  sessionId: string;
}

export interface RowsPage {
  /** Every pinned row (list order), on the first page only; null on later pages. */
  pinned: readonly Readonly<SessionRow>[] | null;
  /** Up to `limit` unpinned rows in list order. */
  rows: readonly Readonly<SessionRow>[];
  /** Where the next page starts; null when this page reached the end. */
  next: ListCursor | null;
}

/** Opaque to clients (base64url), so nobody builds one by hand and only ours decode. */
export function encodeCursor(cursor: ListCursor): string {
  return btoa(`${cursor.updatedAt}~${cursor.sessionId}`).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The cursor a string names, or null when it is not one this server gave. */
export function decodeCursor(text: string): ListCursor | null {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(text)) return null;
  let plain: string;
  try {
    plain = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return null;
  }
  const at = plain.indexOf('~');
  if (at <= 0) return null;
  const updatedAt = Number(plain.slice(0, at));
  const sessionId = plain.slice(at + 1);
  if (!Number.isFinite(updatedAt) || !isSafeSessionId(sessionId)) return null;
  return { updatedAt, sessionId };
}

/** True when `row` comes after the cursor in list order. */
function after(row: Readonly<SessionRow>, cursor: ListCursor): boolean {
  return row.updated_at < cursor.updatedAt || (row.updated_at === cursor.updatedAt && row.session_id > cursor.sessionId);
}

interface Split {
  pinned: readonly Readonly<SessionRow>[];
  unpinned: readonly Readonly<SessionRow>[];
}

/**
 * Stores hand out one frozen rows array per revision, so the pinned/unpinned split is made once
 * per change of the list rather than once per page.
 */
const splits = new WeakMap<readonly Readonly<SessionRow>[], Split>();

function split(rows: readonly Readonly<SessionRow>[]): Split {
  let s = splits.get(rows);
  if (!s) {
    s = { pinned: rows.filter((r) => r.pinned), unpinned: rows.filter((r) => !r.pinned) };
    splits.set(rows, s);
  }
  return s;
}

/**
 * One page of `rows` (in list order): after `cursor`, or `offset` rows into the unpinned rows;
 * the first page (neither) carries the pinned rows too.
 */
export function pageRows(rows: readonly Readonly<SessionRow>[], options: { limit: number; cursor?: ListCursor; offset?: number }): RowsPage {
  const { pinned, unpinned } = split(rows);
  let start = options.offset ?? 0;
  if (options.cursor) {
    // Binary search for the first row after the cursor.
    let lo = 0;
    let hi = unpinned.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (after(unpinned[mid]!, options.cursor)) hi = mid;
      else lo = mid + 1;
    }
    start = lo;
  }
  const end = Math.min(unpinned.length, start + options.limit);
  const page = unpinned.slice(start, end);
  const last = page[page.length - 1];
  const first = !options.cursor && !options.offset;
  return {
    pinned: first ? pinned : null,
    rows: page,
    next: end < unpinned.length && last ? { updatedAt: last.updated_at, sessionId: last.session_id } : null,
  };
}
