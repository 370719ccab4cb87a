import { describe, expect, it } from 'vitest';
import { parseSse, type SseRecord } from '../../../src/agent/providers/sse.js';

const enc = new TextEncoder();

/** A stream delivering `bytes` cut at the given offsets. */
function streamOf(bytes: Uint8Array, cuts: number[] = []): ReadableStream<Uint8Array> {
  const bounds = [0, ...cuts, bytes.length];
  const pieces = bounds.slice(1).map((end, i) => bytes.slice(bounds[i], end));
  return new ReadableStream({
    start(controller) {
      for (const p of pieces) controller.enqueue(p);
      controller.close();
    },
  });
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<SseRecord[]> {
  const out: SseRecord[] = [];
  for await (const r of parseSse(stream)) out.push(r);
  return out;
}

// Exercises every rule at once: event names, a comment, multi-line data, a field without a
// space, CRLF, an event-only block (no data: not dispatched), and 2-, 3- and 4-byte UTF-8.
const SAMPLE =
  ': keep-alive comment\n' +
  'event: message_start\ndata: {"a":1}\n\n' +
  'data: line one\r\ndata: line two\r\n\r\n' +
  'data:no-space é 中 😀\n\n' +
  'event: orphan\n\n' +
  'id: 7\nretry: 1000\ndata: [DONE]\n\n';

const EXPECTED: SseRecord[] = [{ event: 'message_start', data: '{"a":1}' }, { data: 'line one\nline two' }, { data: 'no-space é 中 😀' }, { data: '[DONE]' }];

describe('parseSse', () => {
  it('parses events, comments, multi-line data, CRLF and UTF-8 in one chunk', async () => {
    expect(await collect(streamOf(enc.encode(SAMPLE)))).toEqual(EXPECTED);
  });

  it('gives the same records when the bytes are split at every offset (incl. inside UTF-8 and CRLF)', async () => {
    const bytes = enc.encode(SAMPLE);
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(await collect(streamOf(bytes, [cut])), `split at byte ${cut}`).toEqual(EXPECTED);
    }
  });

  it('survives one byte per chunk', async () => {
    const bytes = enc.encode(SAMPLE);
    const cuts = Array.from({ length: bytes.length - 1 }, (_, i) => i + 1);
    expect(await collect(streamOf(bytes, cuts))).toEqual(EXPECTED);
  });

  it('treats a lone CR as a line end, even when the LF-less CR ends a chunk', async () => {
    const bytes = enc.encode('data: a\r\rdata: b\r\r');
    expect(await collect(streamOf(bytes, [8]))).toEqual([{ data: 'a' }, { data: 'b' }]);
  });

  it('keeps empty data lines and a field with no colon', async () => {
    expect(await collect(streamOf(enc.encode('data\ndata:\ndata: x\n\n')))).toEqual([{ data: '\n\nx' }]);
  });

  it('flushes a final record that lacks its blank line', async () => {
    expect(await collect(streamOf(enc.encode('data: one\n\ndata: [DONE]')))).toEqual([{ data: 'one' }, { data: '[DONE]' }]);
  });

  it('yields each record as soon as its blank line arrives, before the stream continues', async () => {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    const it = parseSse(stream)[Symbol.asyncIterator]();
    controller.enqueue(enc.encode('data: first\n\ndata: sec'));
    expect(await it.next()).toEqual({ done: false, value: { data: 'first' } });
    const second = it.next();
    controller.enqueue(enc.encode('ond\n\n'));
    expect(await second).toEqual({ done: false, value: { data: 'second' } });
    controller.close();
    expect((await it.next()).done).toBe(true);
  });

  it('stops a pending read when the signal aborts, rethrowing its reason, and cancels the stream', async () => {
    let cancelled: unknown = 'not cancelled';
    const stream = new ReadableStream<Uint8Array>({
      start: (c) => c.enqueue(enc.encode('data: hi\n\n')),
      cancel: (reason) => void (cancelled = reason),
    });
    const ac = new AbortController();
    const it = parseSse(stream, ac.signal)[Symbol.asyncIterator]();
    expect((await it.next()).value).toEqual({ data: 'hi' });
    const pending = it.next(); // nothing more will ever arrive
    setTimeout(() => ac.abort(), 10);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(cancelled).toMatchObject({ name: 'AbortError' });
  });

  it('cancels the source when the consumer stops early', async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      start: (c) => c.enqueue(enc.encode('data: a\n\ndata: b\n\n')),
      cancel: () => void (cancelled = true),
    });
    for await (const r of parseSse(stream)) {
      expect(r.data).toBe('a');
      break;
    }
    expect(cancelled).toBe(true);
  });
});
