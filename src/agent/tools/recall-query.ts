/**
 * session_search's query language over text without an FTS index (this server's sessions, and
 * state.db when its index is missing): FTS5's surface — words AND-ed by default, `OR` between
 * alternatives, `NOT word`, "quoted phrases", `prefix*` — matched case-insensitively as substrings.
 */

/** One term: its words (a phrase has several, in order) and whether the last one is a prefix. */
export interface QueryTerm {
  text: string;
  words: string[];
  prefix: boolean;
}

export interface QueryGroup {
  must: QueryTerm[];
  not: QueryTerm[];
}

const OPERATORS = new Set(['AND', 'OR', 'NOT', 'NEAR']);

/** Words as FTS5's unicode61 tokenizer sees them: runs of letters and digits, lower-cased. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Words of a query, operators, quotes and `*` dropped (what a LIKE scan looks for). */
export function likeTerms(query: string): string[] {
  return query
    .replace(/["()*^:]/g, ' ')
    .split(/\s+/)
    .filter((w) => w && !OPERATORS.has(w));
}

function term(text: string): QueryTerm | null {
  const prefix = text.trimEnd().endsWith('*');
  const w = words(text);
  return w.length ? { text: text.replace(/\*+$/, '').trim(), words: w, prefix } : null;
}

/** The query as OR-ed groups of AND-ed terms. */
export function parseQuery(query: string): QueryGroup[] {
  const tokens = [...query.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => (m[1] !== undefined ? { text: m[1], phrase: true } : { text: m[2]!, phrase: false }));
  const groups: QueryGroup[] = [{ must: [], not: [] }];
  let negate = false;
  for (const t of tokens) {
    if (!t.phrase && t.text === 'OR') {
      groups.push({ must: [], not: [] });
      continue;
    }
    if (!t.phrase && t.text === 'NOT') {
      negate = true;
      continue;
    }
    if (!t.phrase && OPERATORS.has(t.text)) continue;
    const parsed = term(t.text);
    if (!parsed) continue;
    (negate ? groups[groups.length - 1]!.not : groups[groups.length - 1]!.must).push(parsed);
    negate = false;
  }
  return groups.filter((g) => g.must.length);
}

function hasTerm(tokens: string[], t: QueryTerm): boolean {
  const n = t.words.length;
  for (let i = 0; i + n <= tokens.length; i++) {
    let ok = true;
    for (let j = 0; j < n && ok; j++) {
      const last = j === n - 1;
      ok = last && t.prefix ? tokens[i + j]!.startsWith(t.words[j]!) : tokens[i + j] === t.words[j];
    }
    if (ok) return true;
  }
  return false;
}

/** Whether `text` matches the group as FTS5 would: whole words (or a prefix*), phrases in order. */
export function matchesGroup(text: string, group: QueryGroup): boolean {
  const tokens = words(text);
  return group.must.every((t) => hasTerm(tokens, t)) && !group.not.some((t) => hasTerm(tokens, t));
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** About 240 characters of `text` around the first term, terms marked `>>>term<<<` as FTS5's snippet() does. */
export function markedSnippet(text: string, terms: string[]): string {
  const lower = text.toLowerCase();
  const found = terms.map((t) => lower.indexOf(t.toLowerCase())).filter((i) => i >= 0);
  const at = found.length ? Math.min(...found) : 0;
  const start = Math.max(0, at - 80);
  const end = Math.min(text.length, at + 160);
  let cut = text.slice(start, end);
  const pattern = terms.filter(Boolean).map(escapeRegExp).join('|');
  if (pattern) cut = cut.replace(new RegExp(pattern, 'gi'), (hit) => `>>>${hit}<<<`);
  return `${start > 0 ? '...' : ''}${cut}${end < text.length ? '...' : ''}`;
}
