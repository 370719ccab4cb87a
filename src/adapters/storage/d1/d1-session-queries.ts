import type { SearchHit, StoreProblem } from '../../../ports/session-store.js';
import type { Message, SessionRow } from '../../../shared/session.js';
import { matchPreview, messageText } from '../../../domain/session-rows.js';
import { damage, likePattern, messageDamage } from '../stored-session-text.js';
import { isObject, parseJson, type D1Database, type D1PreparedStatement } from './d1-types.js';

/**
 * The D1 session store's read-only queries that scan many rows: search (titles, then message
 * text) and the damaged-data report. Split from d1-session-store.ts, which owns reads and writes
 * of single sessions.
 */

/** Rows fetched per round while a search filters SQL candidates. */
const SEARCH_PAGE = 100;
/** Matching message bodies fetched per candidate session and round. */
const BODY_PAGE = 20;

function bind(db: D1Database, query: string, values: unknown[]): D1PreparedStatement {
  const statement = db.prepare(query);
  return values.length ? statement.bind(...values) : statement;
}

export async function searchSessions(db: D1Database, query: string, options: { content: boolean; limit?: number }): Promise<SearchHit[]> {
  const sql = (q: string, ...values: unknown[]) => bind(db, q, values);
  const needle = query.trim().toLowerCase();
  const limit = options.limit ?? 200;
  if (!needle || limit <= 0) return [];
  const hits: SearchHit[] = [];
  const titled = new Set<string>();

  // Titles: LIKE narrows the rows (ASCII case-insensitive), the exact check is JavaScript's.
  const titlePattern = likePattern(needle);
  for (let offset = 0; hits.length < limit; offset += SEARCH_PAGE) {
    const { results } = await sql(
      "SELECT list_row FROM sessions WHERE broken = 0 AND title LIKE ?1 ESCAPE '\\' ORDER BY updated_at DESC, session_id LIMIT ?2 OFFSET ?3",
      titlePattern,
      SEARCH_PAGE,
      offset,
    ).all<{ list_row: string }>();
    for (const r of results) {
      const row = parseJson(r.list_row);
      if (!isObject(row) || hits.length >= limit) continue;
      const title = String(row.title ?? '');
      if (!title.toLowerCase().includes(needle)) continue;
      titled.add(String(row.session_id));
      hits.push({ ...(row as SessionRow), match_type: 'title', match_preview: title });
    }
    if (results.length < SEARCH_PAGE) break;
  }
  if (!options.content) return hits;

  // Messages: LIKE over the stored JSON finds candidate sessions in list order, then the first
  // message whose text really contains the needle gives the preview.
  const bodyPattern = likePattern(JSON.stringify(needle).slice(1, -1));
  for (let offset = 0; hits.length < limit; offset += SEARCH_PAGE) {
    const { results } = await sql(
      "SELECT session_id, list_row FROM sessions s WHERE broken = 0 AND EXISTS (SELECT 1 FROM messages m WHERE m.session_id = s.session_id AND m.body LIKE ?1 ESCAPE '\\') ORDER BY updated_at DESC, session_id LIMIT ?2 OFFSET ?3",
      bodyPattern,
      SEARCH_PAGE,
      offset,
    ).all<{ session_id: string; list_row: string }>();
    const candidates = results.filter((r) => !titled.has(r.session_id));
    const texts = await firstMatchingTexts(
      db,
      candidates.map((r) => r.session_id),
      bodyPattern,
      needle,
    );
    for (const r of candidates) {
      const text = texts.get(r.session_id);
      const row = parseJson(r.list_row);
      if (text === undefined || !isObject(row) || hits.length >= limit) continue;
      hits.push({ ...(row as SessionRow), match_type: 'content', match_preview: matchPreview(text, needle) });
    }
    if (results.length < SEARCH_PAGE) break;
  }
  return hits;
}

/**
 * For each session, the text of its first message (by seq) that contains `needle`. One query
 * per round for all sessions: up to BODY_PAGE LIKE-matching bodies each; only sessions whose
 * bodies all turned out to be false matches (the needle in a JSON key) go another round.
 */
async function firstMatchingTexts(db: D1Database, ids: string[], bodyPattern: string, needle: string): Promise<Map<string, string>> {
  const sql = (q: string, ...values: unknown[]) => bind(db, q, values);
  const found = new Map<string, string>();
  let pending = ids;
  for (let offset = 0; pending.length; offset += BODY_PAGE) {
    const { results } = await sql(
      `SELECT session_id, body FROM (
         SELECT session_id, seq, body, row_number() OVER (PARTITION BY session_id ORDER BY seq) AS n
         FROM messages WHERE session_id IN (SELECT value FROM json_each(?1)) AND body LIKE ?2 ESCAPE '\\'
       ) WHERE n > ?3 AND n <= ?4 ORDER BY session_id, seq`,
      JSON.stringify(pending),
      bodyPattern,
      offset,
      offset + BODY_PAGE,
    ).all<{ session_id: string; body: string }>();
    const seen = new Map<string, number>();
    for (const { session_id, body } of results) {
      seen.set(session_id, (seen.get(session_id) ?? 0) + 1);
      if (found.has(session_id)) continue;
      const message = parseJson(body);
      if (!isObject(message)) continue;
      const text = messageText(message as Message);
      if (text.toLowerCase().includes(needle)) found.set(session_id, text);
    }
    pending = pending.filter((id) => !found.has(id) && seen.get(id) === BODY_PAGE);
  }
  return found;
}

export async function sessionProblems(db: D1Database): Promise<StoreProblem[]> {
  const sql = (q: string) => bind(db, q, []);
  const [sessions, messages] = await db.batch([
    sql('SELECT session_id, meta, list_row FROM sessions WHERE broken = 1'),
    // The first broken message of each readable session.
    sql(
      `SELECT m.session_id AS session_id, m.seq AS seq, m.body AS body FROM messages m
       WHERE m.broken = 1
         AND m.seq = (SELECT min(seq) FROM messages x WHERE x.session_id = m.session_id AND x.broken = 1)
         AND EXISTS (SELECT 1 FROM sessions s WHERE s.session_id = m.session_id AND s.broken = 0)`,
    ),
  ]);
  const problems: StoreProblem[] = [];
  for (const r of (sessions?.results ?? []) as { session_id: string; meta: string | null; list_row: string | null }[]) {
    problems.push({ session_id: r.session_id, error: damage(r.meta, r.list_row) });
  }
  for (const r of (messages?.results ?? []) as { session_id: string; seq: number; body: string }[]) {
    problems.push({ session_id: r.session_id, error: messageDamage(r.seq, r.body) });
  }
  return problems.sort((a, b) => (a.session_id < b.session_id ? -1 : a.session_id > b.session_id ? 1 : 0));
}
