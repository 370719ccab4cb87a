import type { Message } from '../api/client.js';

/** Messages fetched when a session opens, and per earlier page (the server allows up to 500). */
export const PAGE_SIZE = 100;

/** A loaded stretch of a transcript: `messages` are the stored ones from index `offset` on. */
export interface TranscriptWindow {
  offset: number;
  messages: Message[];
}

/** The same stored message (as the server sent it again): keeping the old object lets the views skip it. */
export function sameMessage(a: Message, b: Message): boolean {
  if (a === b) return true;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const k of keys) {
    const x = a[k];
    const y = b[k];
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    if (JSON.stringify(x) !== JSON.stringify(y)) return false;
  }
  return true;
}

/**
 * What is loaded after the server sent `incoming` (a window of a transcript of `total` messages),
 * given what was loaded before. Earlier pages the reader already scrolled through are kept when
 * the incoming window starts after them and they join it (an append, a cut further down), and
 * messages equal to the ones shown keep their objects.
 */
export function mergeWindow(current: TranscriptWindow, incoming: TranscriptWindow, total: number): TranscriptWindow {
  const end = current.offset + current.messages.length;
  let offset = incoming.offset;
  let messages = incoming.messages;
  if (incoming.offset <= current.offset) {
    // The server sent more than was loaded (a whole session with `done`): keep the loaded range, at least a page.
    const from = Math.max(incoming.offset, Math.min(current.offset, Math.max(0, total - PAGE_SIZE)));
    messages = incoming.messages.slice(from - incoming.offset);
    offset = from;
  } else if (current.messages.length && end >= incoming.offset) {
    messages = current.messages.slice(0, incoming.offset - current.offset).concat(incoming.messages);
    offset = current.offset;
  }
  // Reuse the objects of unchanged messages (same absolute index, same content).
  const reused = messages.map((m, i) => {
    const old = current.messages[offset + i - current.offset];
    return old && sameMessage(old, m) ? old : m;
  });
  return { offset, messages: reused };
}

/** The loaded window with an earlier page put in front (`page` ends where the window starts). */
export function prependPage(current: TranscriptWindow, page: TranscriptWindow): TranscriptWindow {
  const overlap = page.offset + page.messages.length - current.offset;
  const head = overlap > 0 ? page.messages.slice(0, page.messages.length - overlap) : page.messages;
  return { offset: page.offset, messages: head.concat(current.messages) };
}
