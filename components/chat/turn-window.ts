import type { Message } from '../api/client.js';
import { groupTurns, type Turn } from '../state/turns.js';

/** Turns rendered at first, and added by each step up or down. */
export const TURN_PAGE = 40;
/** At most this many turns are rendered: moving further drops turns at the other end. */
export const MAX_RENDERED = TURN_PAGE * 3;

interface Memo {
  turn: Turn;
  refs: readonly Message[];
}

/**
 * Groups a loaded transcript into turns (indexes are stored, absolute ones) and hands back the
 * previous object for every turn built from the very same messages, so Lit skips its element:
 * settling a turn or loading an earlier page re-renders nothing already shown.
 */
export class StableTurns {
  #memo = new Map<string, Memo>();
  #of: readonly Message[] | null = null;
  #offset = -1;
  #turns: Turn[] = [];

  get(messages: readonly Message[], offset: number): Turn[] {
    if (messages === this.#of && offset === this.#offset) return this.#turns;
    const next = new Map<string, Memo>();
    this.#turns = groupTurns(messages, offset).map((t) => {
      const key = `${t.kind}:${t.index}`;
      const refs = messages.slice(t.index - offset, (t.kind === 'user' ? t.index + 1 : t.end) - offset);
      const old = this.#memo.get(key);
      const same = old && old.refs.length === refs.length && old.refs.every((m, i) => m === refs[i]);
      const turn = same ? old.turn : t;
      next.set(key, { turn, refs });
      return turn;
    });
    this.#memo = next;
    this.#of = messages;
    this.#offset = offset;
    return this.#turns;
  }
}

/** Position of the first turn whose index is ≥ `index` (turns.length when none). */
export function firstAtOrAfter(turns: readonly Turn[], index: number): number {
  let lo = 0;
  let hi = turns.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (turns[mid]!.index < index) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Position of the turn holding stored message `index` (the last turn starting at or before it). */
export function turnHolding(turns: readonly Turn[], index: number): number {
  const i = firstAtOrAfter(turns, index + 1) - 1;
  return Math.max(0, i);
}
