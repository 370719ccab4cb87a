/** One satisfiable byte range, both ends inclusive. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * A `Range` header against a representation of `size` bytes (RFC 9110 §14): a range, `null` to
 * send the whole file (no header, another unit, several ranges, or a header that does not parse —
 * a server may ignore those), or `'unsatisfiable'` (416) when no byte of it exists.
 */
export function parseByteRange(header: string | undefined, size: number): ByteRange | null | 'unsatisfiable' {
  if (!header) return null;
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m) return null;
  const [, first, last] = m;
  if (first === '' && last === '') return null;
  if (first === '') {
    // A suffix: the last N bytes.
    const n = Number(last);
    if (n === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Number(last);
  if (last !== '' && end < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end: Math.min(end, size - 1) };
}
