import type { SearchHit, StoreProblem } from '../../../ports/session-store.js';
import type { Message, SessionRow } from '../../../shared/session.js';
import { matchPreview, messageText } from '../../../domain/session-rows.js';
import { damage, likePattern, messageDamage } from '../stored-session-text.js';
import type { Query } from './pg-session-rows.js';

/**
 * The Postgres session store's queries over many rows: search (titles, then message text) and
 * the damaged-data report. Split from pg-session-store.ts, which reads and writes single sessions.
 */

/** Rows fetched per round while a search filters SQL candidates. */
const SEARCH_PAGE = 100;
/** Matching message bodies fetched per candidate session and round. */
const BODY_PAGE = 20;

export async function searchSessions(q: Query, query: string, options: { content: boolean; limit?: number }): Promise<SearchHit[]> {
  const needle = query.trim().toLowerCase();
  const limit = options.limit ?? 200;
  if (!needle || limit <= 0) return [];
  const hits: SearchHit[] = [];
  const titled = new Set<string>();

  // Titles: ILIKE narrows the rows, the exact check is JavaScript's (its case folding is the list's).
  const titlePattern = likePattern(needle);
  for (let offset = 0; hits.length < limit; offset += SEARCH_PAGE) {
    const results = await q<{ list_row: string }[]>`
      SELECT list_row FROM sessions WHERE NOT broken AND title ILIKE ${titlePattern}
      ORDER BY updated_at DESC, session_id LIMIT ${SEARCH_PAGE} OFFSET ${offset}`;
    for (const r of results) {
      const row = JSON.parse(r.list_row) as SessionRow;
      if (hits.length >= limit) break;
      if (!row.title.toLowerCase().includes(needle)) continue;
      titled.add(row.session_id);
      hits.push({ ...row, match_type: 'title', match_preview: row.title });
    }
    if (results.length < SEARCH_PAGE) break;
  }
  if (!options.content) return hits;

  // Messages: ILIKE over the stored JSON finds candidate sessions in list order, then the first
  // message whose text really contains the needle gives the preview.
  const bodyPattern = likePattern(JSON.stringify(needle).slice(1, -1));
  for (let offset = 0; hits.length < limit; offset += SEARCH_PAGE) {
    const results = await q<{ session_id: string; list_row: string }[]>`
      SELECT session_id, list_row FROM sessions s
      WHERE NOT broken AND EXISTS (SELECT 1 FROM messages m WHERE m.session_id = s.session_id AND NOT m.broken AND m.body ILIKE ${bodyPattern})
      ORDER BY updated_at DESC, session_id LIMIT ${SEARCH_PAGE} OFFSET ${offset}`;
    const candidates = results.filter((r) => !titled.has(r.session_id));
    const texts = await firstMatchingTexts(
      q,
      candidates.map((r) => r.session_id),
      bodyPattern,
      needle,
    );
    for (const r of candidates) {
      const text = texts.get(r.session_id);
      if (text === undefined || hits.length >= limit) continue;
      hits.push({ ...(JSON.parse(r.list_row) as SessionRow), match_type: 'content', match_preview: matchPreview(text, needle) });
    }
    if (results.length < SEARCH_PAGE) break;
  }
  return hits;
}

/**
 * For each session, the text of its first message (by seq) that contains `needle`. One query
 * per round for all sessions: up to BODY_PAGE ILIKE-matching bodies each; only sessions whose
 * bodies all turned out to be false matches (the needle in a JSON key) go another round.
 */
async function firstMatchingTexts(q: Query, ids: string[], bodyPattern: string, needle: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  let pending = ids;
  for (let offset = 0; pending.length; offset += BODY_PAGE) {
    const results = await q<{ session_id: string; body: string }[]>`
      SELECT session_id, body FROM (
        SELECT session_id, seq, body, row_number() OVER (PARTITION BY session_id ORDER BY seq) AS n
        FROM messages
        WHERE session_id IN (SELECT json_array_elements_text(${JSON.stringify(pending)}::text::json)) AND NOT broken AND body ILIKE ${bodyPattern}
      ) x WHERE n > ${offset} AND n <= ${offset + BODY_PAGE} ORDER BY session_id, seq`;
    const seen = new Map<string, number>();
    for (const { session_id, body } of results) {
      seen.set(session_id, (seen.get(session_id) ?? 0) + 1);
      if (found.has(session_id)) continue;
      const text = messageText(JSON.parse(body) as Message);
      if (text.toLowerCase().includes(needle)) found.set(session_id, text);
    }
    pending = pending.filter((id) => !found.has(id) && seen.get(id) === BODY_PAGE);
  }
  return found;
}

/** Damaged sessions, and the first damaged message of each readable session; by id. */
export async function sessionProblems(q: Query): Promise<StoreProblem[]> {
  const rows = await q<{ session_id: string; meta: string | null; list_row: string | null; seq: number | null; body: string | null }[]>`
    SELECT session_id, meta, list_row, NULL::int AS seq, NULL::text AS body FROM sessions WHERE broken
    UNION ALL
    (SELECT DISTINCT ON (m.session_id) m.session_id, NULL, NULL, m.seq, m.body
     FROM messages m JOIN sessions s ON s.session_id = m.session_id AND NOT s.broken
     WHERE m.broken ORDER BY m.session_id, m.seq)`;
  return rows
    .map((r) => ({ session_id: r.session_id, error: r.seq === null ? damage(r.meta, r.list_row) : messageDamage(r.seq, r.body ?? '') }))
    .sort((a, b) => (a.session_id < b.session_id ? -1 : a.session_id > b.session_id ? 1 : 0));
}
