import type { RunEvent } from './events.js';

const utf8 = new TextEncoder();

/** One SSE frame: `id: <stream_id>:<seq>`, the event name, the JSON data. */
export function encodeFrame(streamId: string, event: RunEvent, dataJson = JSON.stringify(event.data)): Uint8Array {
  return utf8.encode(`id: ${streamId}:${event.seq}\nevent: ${event.event}\ndata: ${dataJson}\n\n`);
}

export const HEARTBEAT = utf8.encode(': heartbeat\n\n');

/** Tells EventSource to retry a dropped stream after 1 s (its default is about 3 s). */
export const RETRY = utf8.encode('retry: 1000\n\n');

export const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  'X-Accel-Buffering': 'no',
} as const;

/**
 * The seq after which a reconnecting client wants events. `after_seq` wins over
 * `Last-Event-ID`; a cursor for another stream, a malformed one, or one past the newest event
 * replays from the start — a client may see an event twice then, but never misses one.
 */
export function resumeAfter(streamId: string, lastSeq: number, afterSeq: string | undefined, lastEventId: string | undefined): number {
  let cursor: number | null = null;
  if (afterSeq !== undefined && afterSeq !== '') {
    cursor = /^\d+$/.test(afterSeq) ? Number(afterSeq) : null;
  } else if (lastEventId) {
    const at = lastEventId.lastIndexOf(':');
    const id = at >= 0 ? lastEventId.slice(0, at) : '';
    const seq = at >= 0 ? lastEventId.slice(at + 1) : '';
    cursor = id === streamId && /^\d+$/.test(seq) ? Number(seq) : null;
  } else {
    return 0;
  }
  if (cursor === null || cursor > lastSeq) return 0;
  return cursor;
}
