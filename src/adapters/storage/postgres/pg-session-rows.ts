import type postgres from 'postgres';
import { Conflict } from '../../../ports/errors.js';
import type { Message, Session } from '../../../shared/session.js';
import { toRow } from '../../../domain/session-rows.js';
import { damage, messageDamage } from '../stored-session-text.js';

/**
 * How a session maps onto the `sessions` and `messages` tables (migration 0001), and the one
 * statement that reads a session back. Shared by PgSessionStore's reads, writes and import.
 */

/** A pool or a transaction: anything that runs a query. */
export type Query = postgres.ISql<Record<string, never>>;

/** A session as last read or written, with the `version` its row had. */
export interface Loaded {
  version: number;
  session: Session;
  /** Stored messages (rows); `contiguous` when their seqs are exactly 0…count-1. */
  count: number;
  contiguous: boolean;
}

/** The `sessions` columns for a session (all but its id and version). */
export function sessionColumns(session: Session) {
  const { messages: _messages, ...meta } = session;
  const row = toRow(session);
  return {
    updated_at: row.updated_at,
    archived: row.archived,
    project_id: row.project_id ?? null,
    title: row.title,
    list_row: JSON.stringify(row),
    meta: JSON.stringify(meta),
  };
}

/** Inserts `bodies` (message JSON texts) as seqs `from`, `from + 1`, … of session `id`: one statement however many. */
export async function insertMessages(q: Query, id: string, from: number, bodies: readonly string[]): Promise<void> {
  if (!bodies.length) return;
  await q`
    INSERT INTO messages (session_id, seq, body)
    SELECT ${id}, ${from}::int + (ord - 1)::int, value FROM json_array_elements_text(${JSON.stringify(bodies)}::text::json) WITH ORDINALITY AS t(value, ord)`;
}

interface LoadRow {
  version: number;
  broken: boolean;
  list_row: string;
  meta: string | null;
  n: number;
  top: number | null;
  bad: boolean;
  messages: string | null;
}

/**
 * Reads session `id` in one statement (one snapshot). When `known` is the row's current version
 * and the row is readable, only the version comes back and `cached` is returned as it is;
 * otherwise the metadata and the whole transcript, concatenated into one JSON array by the
 * database so the client parses it once. Null when the session does not exist; Conflict when it
 * exists but cannot be read.
 */
export async function loadSession(q: Query, id: string, cached: Loaded | undefined): Promise<Loaded | null> {
  const known = cached?.version ?? -1;
  const [row] = await q<LoadRow[]>`
    SELECT s.version, s.broken, s.list_row, CASE WHEN f.fresh THEN s.meta END AS meta, m.n, m.top, m.bad, m.messages
    FROM sessions s
    CROSS JOIN LATERAL (SELECT NOT (s.version = ${known}::bigint AND NOT s.broken) AS fresh) f
    LEFT JOIN LATERAL (
      SELECT count(*) AS n, max(seq) AS top, coalesce(bool_or(broken), false) AS bad,
             '[' || coalesce(string_agg(body, ',' ORDER BY seq), '') || ']' AS messages
      FROM messages WHERE session_id = s.session_id AND f.fresh
    ) m ON true
    WHERE s.session_id = ${id}`;
  if (!row) return null;
  if (cached && row.version === known && !row.broken) return cached;
  if (row.broken) throw unreadable(damage(row.meta, row.list_row));
  if (row.bad) {
    const [first] = await q<{ seq: number; body: string }[]>`
      SELECT seq, body FROM messages WHERE session_id = ${id} AND broken ORDER BY seq LIMIT 1`;
    throw unreadable(first ? messageDamage(first.seq, first.body) : 'a message changed while it was read');
  }
  const { messages: _ignored, ...meta } = JSON.parse(row.meta!) as Record<string, unknown>;
  const messages = JSON.parse(row.messages ?? '[]') as Message[];
  return {
    version: row.version,
    session: { ...meta, session_id: id, messages } as Session,
    count: row.n,
    contiguous: row.n === 0 || row.top === row.n - 1,
  };
}

export function unreadable(reason: string): Conflict {
  return new Conflict(`Session data is unreadable (${reason}); it was left untouched`);
}
