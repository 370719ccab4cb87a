/** One Server-Sent Events record: the `event:` name (when given) and the joined `data:` lines. */
export interface SseRecord {
  event?: string;
  data: string;
  /** The last event ID (`id:`) in force, only when asked for with `{ ids: true }`. */
  id?: string;
}

/**
 * Parses a byte stream of Server-Sent Events (WHATWG rules: `\n`, `\r\n` or `\r` line ends,
 * `:` comments, multi-line `data:`), yielding each record the moment its blank line arrives so a
 * relay adds no latency. `retry:` is ignored, and `id:` too unless `options.ids` asks for it
 * (model APIs do not resume streams; Hermes' run events can).
 *
 * `signal` cancels the underlying read at once (a pending `read()` does not wait for the next
 * byte) and rethrows the signal's reason. Stopping iteration early cancels the stream, which
 * closes the connection.
 */
export async function* parseSse(body: ReadableStream<Uint8Array>, signal?: AbortSignal, options: { ids?: boolean } = {}): AsyncGenerator<SseRecord> {
  const reader = body.getReader();
  // TextDecoder in streaming mode keeps a multi-byte character split across chunks intact.
  const decoder = new TextDecoder();
  const onAbort = () => void reader.cancel(signal?.reason).catch(() => {});
  signal?.addEventListener('abort', onAbort, { once: true });

  // Per call: a shared global regex would carry `lastIndex` between interleaved streams.
  const lineBreak = /\r\n|\r|\n/g;
  let buffer = '';
  let data: string[] = [];
  let event: string | undefined;
  let hasData = false;
  // WHATWG: the last event ID persists across records until another `id:` replaces it.
  let lastId: string | undefined;

  // Returns the finished record when `line` is the blank line that ends one.
  const takeLine = (line: string): SseRecord | null => {
    if (line === '') {
      if (!hasData) {
        event = undefined;
        return null;
      }
      const record: SseRecord = event === undefined ? { data: data.join('\n') } : { event, data: data.join('\n') };
      if (options.ids && lastId !== undefined) record.id = lastId;
      data = [];
      event = undefined;
      hasData = false;
      return record;
    }
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      data.push(value);
      hasData = true;
    } else if (field === 'event') {
      event = value;
    } else if (field === 'id' && !value.includes('\0')) {
      lastId = value;
    }
    return null;
  };

  try {
    for (;;) {
      signal?.throwIfAborted();
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read();
      } catch (err) {
        signal?.throwIfAborted(); // the abort surfaces as the signal's reason, not the transport's error
        throw err;
      }
      signal?.throwIfAborted();
      const { done, value } = result;
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });

      let start = 0;
      lineBreak.lastIndex = 0;
      for (let m = lineBreak.exec(buffer); m; m = lineBreak.exec(buffer)) {
        // A trailing `\r` may be the first half of `\r\n`: wait for the next chunk to decide.
        if (!done && m[0] === '\r' && m.index === buffer.length - 1) break;
        const record = takeLine(buffer.slice(start, m.index));
        start = m.index + m[0].length;
        if (record) yield record;
      }
      buffer = buffer.slice(start);

      if (done) {
        // Lenient with servers that omit the final blank line: flush what was fully received.
        if (buffer) takeLine(buffer);
        const record = takeLine('');
        if (record) yield record;
        return;
      }
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    // Early exit (break, throw, abort): cancel so the connection does not linger.
    await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
