import type { AgentSessionHit } from '../../ports/agent-sessions.js';
import { likeTerms, markedSnippet } from '../../agent/tools/recall-query.js';

export { likeTerms };

type Database = import('better-sqlite3').Database;

/** The same query with every word quoted: what a query FTS5 cannot parse (`c++`, `a-b`) is retried as. */
function quotedQuery(query: string): string {
  return likeTerms(query)
    .map((w) => `"${w.replace(/"/g, '""')}"`)
    .join(' ');
}

interface Row {
  message_id: number;
  session_id: string;
  role: string;
  timestamp: number | null;
  snippet: string | null;
  content?: string | null;
}

/**
 * Searches `messages` the way Hermes does: its `messages_fts` index (v23: external content over
 * content/tool_name/tool_calls; older: content only — column 0 either way) ranked by bm25, or a
 * LIKE scan for every word when the index is missing. Rows of hidden sources and rewound
 * messages (`active = 0` without `compacted`) are left out; compacted archives stay findable.
 */
export function searchStateDb(
  db: Database,
  columns: (table: string) => Set<string>,
  query: string,
  options: { roles: string[]; limit: number; hidden: string[] },
): AgentSessionHit[] {
  const m = columns('messages');
  const order = m.has('id') ? 'id' : 'rowid';
  const conditions = [`s.source NOT IN (${options.hidden.map(() => '?').join(', ')})`];
  const params: unknown[] = [...options.hidden];
  if (options.roles.length) {
    conditions.push(`m.role IN (${options.roles.map(() => '?').join(', ')})`);
    params.push(...options.roles);
  }
  if (m.has('active')) conditions.push(m.has('compacted') ? 'NOT (COALESCE(m.active, 1) = 0 AND COALESCE(m.compacted, 0) = 0)' : 'COALESCE(m.active, 1) <> 0');
  const time = m.has('timestamp') ? 'm.timestamp' : 'NULL';
  const hasIndex = !!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'messages_fts'").get();

  let rows: Row[];
  if (hasIndex) {
    const sql = `SELECT m.${order} AS message_id, m.session_id AS session_id, m.role AS role, ${time} AS timestamp,
        snippet(messages_fts, 0, '>>>', '<<<', '...', 40) AS snippet
      FROM messages_fts JOIN messages m ON m.${order} = messages_fts.rowid JOIN sessions s ON s.id = m.session_id
      WHERE messages_fts MATCH ? AND ${conditions.join(' AND ')} ORDER BY rank LIMIT ?`;
    const run = (q: string) => db.prepare(sql).all(q, ...params, options.limit) as Row[];
    try {
      rows = run(query);
    } catch {
      // Not FTS5 syntax (a stray quote, `c++`): every word as a literal, still AND.
      const quoted = quotedQuery(query);
      rows = quoted ? run(quoted) : [];
    }
  } else {
    const terms = likeTerms(query);
    for (const _ of terms) conditions.push("m.content LIKE ? ESCAPE '\\'");
    const likes = terms.map((t) => `%${t.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    const sql = `SELECT m.${order} AS message_id, m.session_id AS session_id, m.role AS role, ${time} AS timestamp, NULL AS snippet, m.content AS content
      FROM messages m JOIN sessions s ON s.id = m.session_id
      WHERE ${conditions.join(' AND ')} ORDER BY ${time} DESC LIMIT ?`;
    rows = (db.prepare(sql).all(...params, ...likes, options.limit) as Row[]).map((r) => ({
      ...r,
      snippet: markedSnippet(String(r.content ?? ''), terms),
    }));
  }
  return rows.map((r) => ({
    session_id: String(r.session_id),
    message_id: Number(r.message_id),
    role: String(r.role),
    snippet: String(r.snippet ?? ''),
    timestamp: typeof r.timestamp === 'number' ? r.timestamp : null,
  }));
}
