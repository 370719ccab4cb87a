/**
 * GET /api/session/usage: the incumbent's fields (input, output and total tokens,
 * estimated_cost, model), then what the context ring reads. A figure nobody reported is null.
 */
export interface SessionUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  /** USD, as the provider reported it (OpenRouter's usage.cost); null when none did. */
  estimated_cost: number | null;
  model: string | null;
  cache_read_tokens: number;
  cache_write_tokens: number;
  /** Cache reads as a percent of all prompt tokens; null without any. */
  cache_hit_percent: number | null;
  /** The last model call's prompt (after a manual compression: the estimate of the next one). */
  last_prompt_tokens: number;
  /** The model's context window; null when the agent does not say (a Hermes gateway). */
  context_length: number | null;
  /** The prompt size at which the agent compresses before its next call; null when it never does. */
  threshold_tokens: number | null;
}
