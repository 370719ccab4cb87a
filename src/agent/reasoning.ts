/**
 * Reasoning effort: the levels Hermes accepts for `agent.reasoning_effort`, which models take one,
 * and how each wire format carries it. Pure, shared by the routes and the providers.
 */

/** Ordered weakest to strongest; `none` turns thinking off where the provider allows it. */
export const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;
export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

/** A config value as Hermes reads it: trimmed, lower-cased, unknown words meaning "provider default". */
export function parseEffort(raw: unknown): ReasoningEffort | null {
  if (typeof raw !== 'string') return null;
  const v = raw.trim().toLowerCase();
  return (REASONING_EFFORTS as readonly string[]).includes(v) ? (v as ReasoningEffort) : null;
}

// Families that take a reasoning level (matched on the bare id, after any "vendor/" prefix).
const REASONING_FAMILIES = [
  /^gpt-5/,
  /^o[134](-|$)/,
  /^claude-(3-7|opus-4|sonnet-4|haiku-4|sonnet-5|opus-5)/,
  /^claude-(opus|sonnet|haiku)-\d/,
  /^deepseek-(r1|reasoner|v3\.[1-9]|v4)/,
  /^grok-(3-mini|4)/,
  /^gemini-(2\.5|3)/,
  /^qwen3/,
  /^glm-4\.[5-9]|^glm-5/,
  /^kimi-k2/,
  /^gpt-oss/,
  /^minimax-m/,
];
// OpenRouter-style vendors whose current models all reason (the incumbent's prefix rule).
const REASONING_VENDORS = ['deepseek/', 'anthropic/', 'openai/', 'x-ai/', 'google/gemini-2', 'google/gemma-4', 'qwen/qwen3', 'xiaomi/'];

/**
 * The levels worth offering for a model; empty hides the composer's chip (a model with no
 * configurable reasoning). Mirrors the incumbent's per-model gating, reduced to name families.
 */
export function supportedEfforts(model: string | null, provider: string | null): ReasoningEffort[] {
  const id = (model ?? '')
    .trim()
    .toLowerCase()
    .replace(/^@[^:]+:/, '');
  if (!id || provider === 'copilot-acp' || provider === 'cursor-acp') return [];
  const bare = id.slice(id.lastIndexOf('/') + 1);
  const known = REASONING_VENDORS.some((v) => id.startsWith(v)) || REASONING_FAMILIES.some((re) => re.test(bare));
  if (!known) return [];
  if (/^o[134](-|$)/.test(bare)) return ['low', 'medium', 'high'];
  return REASONING_EFFORTS.filter((e) => e !== 'none');
}

/** OpenAI chat-completions field: OpenAI has no `max`, its strongest is `xhigh`; `none` sends nothing (many models 400 on it). */
export function openAIEffortFields(effort: ReasoningEffort | null | undefined, openRouter: boolean): Record<string, unknown> {
  if (!effort) return {};
  // OpenRouter normalises one `reasoning` object across vendors, and can switch thinking off.
  if (openRouter) return { reasoning: effort === 'none' ? { enabled: false } : { enabled: true, effort: effort === 'max' ? 'xhigh' : effort } };
  if (effort === 'none') return {};
  return { reasoning_effort: effort === 'max' ? 'xhigh' : effort };
}

// Older Claude families take a token budget; 4.6 and later think adaptively with an effort.
const LEGACY_BUDGET_CLAUDE = /claude-3|claude-(opus|sonnet)-4[-.]?[015]|claude-(opus|sonnet)-4-2025|claude-haiku-4[-.]5/;
const NO_XHIGH_CLAUDE = /claude-(opus|sonnet)-4[-.]6/;
/** Token budgets for budget-style thinking (Hermes' figures; minimal counts as low, max as xhigh). */
const THINKING_BUDGET: Record<Exclude<ReasoningEffort, 'none'>, number> = { minimal: 4000, low: 4000, medium: 8000, high: 16000, xhigh: 32000, max: 32000 };

export interface AnthropicThinking {
  fields: Record<string, unknown>;
  /** Extended thinking forbids a custom temperature. */
  dropTemperature: boolean;
  /** max_tokens must exceed the thinking budget. */
  minMaxTokens?: number;
}

/** The Messages API fields for an effort on `model`: adaptive thinking with `output_config.effort`, or a `budget_tokens` budget on older models. */
export function anthropicThinking(effort: ReasoningEffort | null | undefined, model: string): AnthropicThinking {
  const m = model.toLowerCase();
  const claude = m.includes('claude');
  const adaptive = claude && !LEGACY_BUDGET_CLAUDE.test(m);
  if (!effort) return { fields: {}, dropTemperature: false };
  if (effort === 'none') {
    // Adaptive Claude thinks unless told not to; budget models only think when asked.
    return adaptive ? { fields: { thinking: { type: 'disabled' } }, dropTemperature: false } : { fields: {}, dropTemperature: false };
  }
  if (adaptive) {
    let level: string = effort === 'minimal' ? 'low' : effort;
    if (level === 'xhigh' && NO_XHIGH_CLAUDE.test(m)) level = 'max';
    return { fields: { thinking: { type: 'adaptive' }, output_config: { effort: level } }, dropTemperature: true };
  }
  const budget = THINKING_BUDGET[effort];
  return { fields: { thinking: { type: 'enabled', budget_tokens: budget } }, dropTemperature: true, minMaxTokens: budget + 4096 };
}
