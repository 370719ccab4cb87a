/** One event of a run, as relayed over SSE and kept in the run's journal. */
export interface RunEvent {
  /** Per-run, monotonic, starting at 1. The SSE id is `<stream_id>:<seq>`. */
  seq: number;
  event: string;
  data: Record<string, unknown>;
  /** Seconds since the epoch. */
  at: number;
}

/** Events after which the relay closes (the incumbent's SSE_RELAY_CLOSE_EVENTS). */
export const CLOSING_EVENTS: ReadonlySet<string> = new Set(['stream_end', 'cancel', 'apperror']);

/** Every event name the chat stream may carry (the incumbent's names). */
export const RUN_EVENT_NAMES = [
  'token',
  'reasoning',
  'tool',
  'tool_complete',
  'approval',
  'clarify',
  'compressing',
  'compressed',
  'retrying',
  'title',
  'metering',
  'todo_state',
  'warning',
  'done',
  'stream_end',
  'cancel',
  'apperror',
] as const;
