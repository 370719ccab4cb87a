import type { Database } from 'better-sqlite3';
import { type Projection, type StateSessionRaw, projectLineages } from '../../domain/agent-lineage.js';

/** Sources that are never a conversation of the sidebar's (a tool's one-off run, a delegated subagent). */
const NEVER_LISTED = ['tool', 'subagent'];

/**
 * Every session row with its message counts and last activity, one query (one pass over
 * `messages` grouped by session): the projection needs the whole graph to collapse chains.
 * Columns missing from an older state.db read as NULL.
 */
export function readProjection(db: Database, columns: (table: string) => Set<string>): Projection {
  const s = columns('sessions');
  const m = columns('messages');
  const opt = (name: string) => (s.has(name) ? `s.${name}` : 'NULL');
  const chat = s.has('chat_id') ? 's.chat_id' : s.has('origin_chat_id') ? 's.origin_chat_id' : 'NULL';
  const user = s.has('user_id') ? 's.user_id' : s.has('origin_user_id') ? 's.origin_user_id' : 'NULL';
  const order = m.has('id') ? 'id' : 'rowid';
  const stats = `SELECT session_id, COUNT(*) AS n, SUM(CASE WHEN LOWER(role) = 'user' THEN 1 ELSE 0 END) AS u,
      ${m.has('timestamp') ? 'MAX(timestamp)' : 'NULL'} AS last FROM messages GROUP BY session_id`;
  const firstUser = m.has('content') ? `(SELECT content FROM messages WHERE session_id = s.id AND role = 'user' ORDER BY ${order} LIMIT 1)` : 'NULL';
  const sql = `SELECT s.id AS id, s.source AS source, ${opt('title')} AS title, ${opt('model')} AS model,
      ${opt('started_at')} AS started_at, ${opt('ended_at')} AS ended_at, ${opt('end_reason')} AS end_reason,
      ${opt('parent_session_id')} AS parent_session_id, ${user} AS user_id, ${chat} AS chat_id, ${opt('chat_type')} AS chat_type,
      ${opt('thread_id')} AS thread_id, ${opt('session_key')} AS session_key, ${opt('platform')} AS platform,
      ${opt('message_count')} AS message_count, COALESCE(st.n, 0) AS actual_message_count, COALESCE(st.u, 0) AS actual_user_message_count,
      st.last AS last_activity, CASE WHEN COALESCE(st.u, 0) > 0 AND (${opt('title')} IS NULL OR ${opt('title')} = '') THEN ${firstUser} END AS first_user
    FROM sessions s LEFT JOIN (${stats}) st ON st.session_id = s.id
    WHERE s.source IS NOT NULL AND s.source NOT IN (${NEVER_LISTED.map(() => '?').join(', ')})
    ORDER BY COALESCE(st.last, s.started_at) DESC`;
  const rows = (db.prepare(sql).all(...NEVER_LISTED) as Record<string, unknown>[]).map(toRaw);
  return projectLineages(rows);
}

const text = (v: unknown): string | null => (v == null || v === '' ? null : String(v));
const num = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() && Number.isFinite(Number(v)) ? Number(v) : null;

function toRaw(r: Record<string, unknown>): StateSessionRaw {
  return {
    id: String(r.id),
    source: text(r.source),
    title: text(r.title),
    model: text(r.model),
    started_at: num(r.started_at),
    ended_at: num(r.ended_at),
    end_reason: text(r.end_reason),
    parent_session_id: text(r.parent_session_id),
    user_id: text(r.user_id),
    chat_id: text(r.chat_id),
    chat_type: text(r.chat_type),
    thread_id: text(r.thread_id),
    session_key: text(r.session_key),
    platform: text(r.platform),
    message_count: num(r.message_count),
    actual_message_count: num(r.actual_message_count) ?? 0,
    actual_user_message_count: num(r.actual_user_message_count) ?? 0,
    last_activity: num(r.last_activity),
    first_user: typeof r.first_user === 'string' ? r.first_user : null,
  };
}

/**
 * A window of the messages of `segments` (oldest first, system prompts and rewound messages
 * left out): counted, then only the window's rows are read, so the last page of a long CLI
 * session costs one indexed scan.
 */
export function readWindow(
  db: Database,
  columns: (table: string) => Set<string>,
  segments: readonly string[],
  window: { limit?: number; before?: number },
): { rows: Record<string, unknown>[]; total: number; offset: number } {
  const m = columns('messages');
  const order = m.has('id') ? 'id' : 'rowid';
  const live = m.has('active')
    ? m.has('compacted')
      ? ' AND NOT (COALESCE(active, 1) = 0 AND COALESCE(compacted, 0) = 0)'
      : ' AND COALESCE(active, 1) <> 0'
    : '';
  const where = `session_id IN (${segments.map(() => '?').join(', ')}) AND role IN ('user', 'assistant', 'tool')${live}`;
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM messages WHERE ${where}`).get(...segments) as { n: number }).n;
  const end = window.before === undefined ? total : Math.max(0, Math.min(window.before, total));
  const start = window.limit === undefined ? 0 : Math.max(0, end - window.limit);
  const pick = ['role', 'content', 'tool_call_id', 'tool_calls', 'tool_name', 'timestamp', 'reasoning', 'reasoning_content'].filter((c) => m.has(c));
  const rows = db
    .prepare(`SELECT ${pick.join(', ')} FROM messages WHERE ${where} ORDER BY ${order} LIMIT ? OFFSET ?`)
    .all(...segments, end - start, start) as Record<string, unknown>[];
  return { rows, total, offset: start };
}
