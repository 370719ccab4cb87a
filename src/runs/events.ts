import type { RunEventBody } from '../shared/run-events.js';

export { CLOSING_EVENTS, isClosingEvent, PRESENTED_EVENTS, RUN_EVENT_NAMES, type RunEventName, type RunEventPayloads } from '../shared/run-events.js';

/**
 * One event of a run, as relayed over SSE and kept in the run's journal: the contract's
 * `{event, data}` (src/shared/run-events.ts) with its place in the run.
 */
export type RunEvent = RunEventBody & {
  /** Per-run, monotonic, starting at 1. The SSE id is `<stream_id>:<seq>`. */
  seq: number;
  /** Seconds since the epoch. */
  at: number;
};

/**
 * An event read back from a journal. The journal holds what this server emitted under the
 * contract (or an older version of it): it is replayed as written, not checked again on every
 * read, so this is the one place untyped data becomes a RunEvent.
 */
export function storedRunEvent(seq: number, event: string, data: unknown, at: number): RunEvent {
  return { seq, event, data: data ?? {}, at } as RunEvent;
}
