/**
 * What the SQL session stores (D1, Postgres) share about sessions kept as JSON text: why a
 * stored value cannot be read, in words, and the LIKE pattern that narrows a search before
 * JavaScript checks each candidate exactly.
 */

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** Why a session row's `meta` or `list_row` cannot be read. */
export function damage(meta: string | null, listRow: string | null): string {
  for (const [column, text] of [
    ['meta', meta],
    ['list_row', listRow],
  ] as const) {
    if (text === null) return `${column} is missing`;
    try {
      if (!isObject(JSON.parse(text))) return `${column} is not a JSON object`;
    } catch (err) {
      return `invalid JSON in ${column} (${text.length} bytes): ${(err as Error).message}`;
    }
  }
  return 'stored row rejected by the database JSON check';
}

/** Why stored message `seq` cannot be read. */
export function messageDamage(seq: number, body: string): string {
  try {
    JSON.parse(body);
    return `message ${seq} is not a JSON object`;
  } catch (err) {
    return `invalid JSON in message ${seq} (${body.length} bytes): ${(err as Error).message}`;
  }
}

/**
 * A LIKE pattern (escape `\`) matching text that contains `text`. Letters outside ASCII become
 * `_` (any one character): a database's case folding may cover only ASCII, so the SQL match is
 * a superset and the caller checks each candidate exactly.
 */
export function likePattern(text: string): string {
  let out = '';
  for (const ch of text) {
    if (ch === '%' || ch === '_' || ch === '\\') out += `\\${ch}`;
    else if (ch > '\x7f' && ch.toLowerCase() !== ch.toUpperCase()) out += '_';
    else out += ch;
  }
  return `%${out}%`;
}
