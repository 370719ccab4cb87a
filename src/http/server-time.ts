/**
 * The incumbent's `server_time` (epoch seconds) and `server_tz` (strftime `%z`, "+0200") on
 * `GET /api/sessions`: its sidebar uses them to show "5 min ago" right when the browser's clock
 * or zone differs from the server's. Added to a cached body, so the cache stays per revision.
 * Whole seconds; a compressed copy of the list is reused for a few seconds (session-list.ts).
 */
export function serverTimeFields(nowSeconds: number, date = new Date(nowSeconds * 1000)): string {
  return `,"server_time":${nowSeconds},"server_tz":${JSON.stringify(utcOffset(date))}`;
}

/** `+HHMM` / `-HHMM` east of UTC, as strftime's `%z`. */
export function utcOffset(date: Date): string {
  const east = -date.getTimezoneOffset();
  const abs = Math.abs(east);
  return `${east < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
}

const encoder = new TextEncoder();

/** `body` (a JSON object's UTF-8 bytes, ending in `}`) with the server time fields added before that brace. */
export function withServerTime(body: Uint8Array, nowSeconds: number): Uint8Array<ArrayBuffer> {
  const tail = encoder.encode(`${serverTimeFields(Math.floor(nowSeconds))}}`);
  const out = new Uint8Array(body.length - 1 + tail.length);
  out.set(body.subarray(0, body.length - 1));
  out.set(tail, body.length - 1);
  return out;
}
