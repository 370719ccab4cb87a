import type { Message } from '../api/client.js';

/** What the usage chip under an answer shows: the turn's totals as the server stored them on it. */
export interface TurnUsageView {
  inputTokens: number | null;
  outputTokens: number | null;
  cachedTokens: number | null;
  cacheHitPercent: number | null;
  /** USD from the provider; null when it reported none (never estimated here). */
  cost: number | null;
  /** Output tokens per second over the whole turn (the incumbent's `_turnTps`). */
  tps: number | null;
  duration: number | null;
  model: string | null;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * The incumbent's per-turn fields of a stored answer (`_turnUsage`, `_turnDuration`,
 * `_turnTps`, `_usedModel`); null when it has none (an older answer, a tool step).
 */
export function turnUsageOf(m: Message): TurnUsageView | null {
  const u = m._turnUsage && typeof m._turnUsage === 'object' ? (m._turnUsage as Record<string, unknown>) : null;
  const duration = num(m._turnDuration);
  if (!u && duration === null) return null;
  return {
    inputTokens: num(u?.input_tokens),
    outputTokens: num(u?.output_tokens),
    cachedTokens: num(u?.cache_read_tokens),
    cacheHitPercent: num(u?.cache_hit_percent),
    cost: num(u?.estimated_cost),
    tps: num(m._turnTps),
    duration,
    model: typeof m._usedModel === 'string' && m._usedModel ? m._usedModel : null,
  };
}
