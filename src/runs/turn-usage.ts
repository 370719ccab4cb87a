import type { Message } from '../shared/session.js';

/** A turn's token counts so far, as the driver adds them up from the runtime's `usage` outputs. */
export interface TurnTally {
  input_tokens: number;
  output_tokens: number;
  estimated_cost: number | null;
  cache_read_tokens?: number;
  cache_write_tokens?: number;
}

/**
 * The incumbent's per-turn fields on the turn's answer: `_turnUsage` (the `done` usage shape),
 * `_turnDuration` (seconds since the turn started) and `_turnTps` (output tokens over that
 * duration, as the incumbent computes it). Stored with the message so the usage chip under the
 * answer survives a reload. Only a final answer carries them (an assistant message that asks
 * for no tools): every model call of the turn has been counted by then.
 */
export function withTurnUsage(m: Message, tally: TurnTally, seconds: number): Message {
  if (m.role !== 'assistant' || (Array.isArray(m.tool_calls) && m.tool_calls.length > 0) || m._error === true) return m;
  const duration = Math.max(0, Math.round(seconds * 1000) / 1000);
  const counted = tally.input_tokens > 0 || tally.output_tokens > 0;
  const read = tally.cache_read_tokens;
  return {
    ...m,
    ...(counted
      ? {
          _turnUsage: {
            ...tally,
            ...(read !== undefined
              ? { cache_hit_percent: tally.input_tokens > 0 && read > 0 ? Math.min(100, Math.round((read / tally.input_tokens) * 100)) : null }
              : {}),
          },
        }
      : {}),
    _turnDuration: duration,
    ...(counted && tally.output_tokens > 0 && duration > 0 ? { _turnTps: Math.round((tally.output_tokens / duration) * 10) / 10 } : {}),
  };
}
