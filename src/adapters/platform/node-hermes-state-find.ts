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
 * Hermes' `messages_fts` index gives the candidates (every word as a prefix), a bounded number,
 * kept when the real substring is there and (with `depth` > 0, the incumbent's default 5) the
 * message is among its segment's first `depth`. Without the index, `depth` > 0 reads only each
 * segment's first `depth` messages through the `(session_id, …)` index (segments × depth
 * rows); only `depth` 0 without the index scans the messages.
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
  type Raw = Array<{ session_id: unknown; content: unknown }>;
  const keep = (rows: Raw) => rows.map((r) => ({ session_id: String(r.session_id), content: String(r.content ?? '') }));
  const fts = !!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'messages_fts'").get();
  const match = prefixQuery(needle);
  if (fts && match) {
    const wanted = new Set(options.segments);
    const mLive = live.replace(/active|compacted/g, 'm.$&');
    // Within the depth: fewer than `depth` earlier messages in its segment (counted by index, for candidates only).
    const within =
      options.depth > 0
        ? ` AND (SELECT COUNT(*) FROM messages p WHERE p.session_id = m.session_id AND p.role <> 'system' AND p.${order} < m.${order}${live.replace(/active|compacted/g, 'p.$&')}) < ?`
        : '';
    // Newest candidates first, a bounded number (no ranking of every match per keystroke); FTS words are not substrings, so each is checked.
    const sql = `SELECT m.session_id AS session_id, m.content AS content FROM messages_fts JOIN messages m ON m.${order} = messages_fts.rowid
      WHERE messages_fts MATCH ? AND m.role IN ('user', 'assistant')${mLive}${within} ORDER BY messages_fts.rowid DESC LIMIT ?`;
    const cap = Math.max(options.limit * 4, 200);
    try {
      const rows = keep(db.prepare(sql).all(...(options.depth > 0 ? [match, options.depth, cap] : [match, cap])) as Raw);
      return rows.filter((r) => wanted.has(r.session_id) && r.content.toLowerCase().includes(needle)).slice(0, options.limit);
    } catch {
      // An index this version of SQLite cannot read: the reads below.
    }
  }
  if (options.depth > 0) {
    const sql = `SELECT m.session_id AS session_id, m.content AS content FROM json_each(?) j
      JOIN messages m ON m.${order} IN (SELECT ${order} FROM messages WHERE session_id = j.value AND role <> 'system'${live} ORDER BY ${order} LIMIT ?)
      WHERE m.role IN ('user', 'assistant') AND instr(lower(m.content), ?) > 0 LIMIT ?`;
    return keep(db.prepare(sql).all(ids, options.depth, needle, options.limit) as Raw);
  }
  const sql = `SELECT session_id, content FROM messages WHERE session_id IN (SELECT value FROM json_each(?)) AND role IN ('user', 'assistant')${live}
    AND instr(lower(content), ?) > 0 LIMIT ?`;
  return keep(db.prepare(sql).all(ids, needle, options.limit) as Raw);
}
