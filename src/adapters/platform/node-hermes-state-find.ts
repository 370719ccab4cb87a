type Database = import('better-sqlite3').Database;

/** A message of a conversation segment whose text holds the needle. */
export interface ContentHit {
  session_id: string;
  content: string;
}

/** FTS5 words for a needle: each typed word as a quoted prefix (the last one is usually half typed). */
function prefixQuery(needle: string): string {
  return needle
    .split(/[^\p{L}\p{N}_]+/u)
    .filter(Boolean)
    .map((w) => `"${w.replace(/"/g, '""')}"*`)
    .join(' ');
}

/**
 * The sidebar search's content half over Hermes' state.db: messages of `segments` (user and
 * assistant prose) holding `needle` as a case-insensitive substring, at most `limit`.
 *
 * `depth` > 0 (the incumbent's default 5) reads only each segment's first `depth` messages,
 * through the `(session_id, …)` index: segments × depth rows, never the whole table. `depth`
 * 0 (the whole transcript) asks Hermes' `messages_fts` index for candidates (every word as a
 * prefix) and keeps the real substring matches; only a state.db without that index is scanned.
 */
export function findContent(
  db: Database,
  columns: (table: string) => Set<string>,
  needle: string,
  options: { segments: readonly string[]; depth: number; limit: number },
): ContentHit[] {
  const m = columns('messages');
  if (!m.has('content') || !options.segments.length) return [];
  const order = m.has('id') ? 'id' : 'rowid';
  // Rewound messages (active = 0, not compacted) are gone from the conversation.
  const live = m.has('active')
    ? m.has('compacted')
      ? ' AND NOT (COALESCE(active, 1) = 0 AND COALESCE(compacted, 0) = 0)'
      : ' AND COALESCE(active, 1) <> 0'
    : '';
  const ids = JSON.stringify(options.segments);
  const keep = (rows: Array<{ session_id: unknown; content: unknown }>) =>
    rows.map((r) => ({ session_id: String(r.session_id), content: String(r.content ?? '') }));
  if (options.depth > 0) {
    const sql = `SELECT m.session_id AS session_id, m.content AS content FROM json_each(?) j
      JOIN messages m ON m.${order} IN (SELECT ${order} FROM messages WHERE session_id = j.value AND role <> 'system'${live} ORDER BY ${order} LIMIT ?)
      WHERE m.role IN ('user', 'assistant') AND instr(lower(m.content), ?) > 0 LIMIT ?`;
    return keep(db.prepare(sql).all(ids, options.depth, needle, options.limit) as Array<{ session_id: unknown; content: unknown }>);
  }
  const fts = !!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'messages_fts'").get();
  const match = prefixQuery(needle);
  if (fts && match) {
    const wanted = new Set(options.segments);
    // Ranked candidates, a bounded number; FTS words are not substrings, so each is checked.
    const sql = `SELECT m.session_id AS session_id, m.content AS content FROM messages_fts JOIN messages m ON m.${order} = messages_fts.rowid
      WHERE messages_fts MATCH ? AND m.role IN ('user', 'assistant')${live.replace(/active|compacted/g, 'm.$&')} ORDER BY rank LIMIT ?`;
    try {
      const rows = keep(db.prepare(sql).all(match, Math.max(options.limit * 4, 200)) as Array<{ session_id: unknown; content: unknown }>);
      return rows.filter((r) => wanted.has(r.session_id) && r.content.toLowerCase().includes(needle)).slice(0, options.limit);
    } catch {
      // An index this version of SQLite cannot read: the scan below.
    }
  }
  const sql = `SELECT session_id, content FROM messages WHERE session_id IN (SELECT value FROM json_each(?)) AND role IN ('user', 'assistant')${live}
    AND instr(lower(content), ?) > 0 LIMIT ?`;
  return keep(db.prepare(sql).all(ids, needle, options.limit) as Array<{ session_id: unknown; content: unknown }>);
}
