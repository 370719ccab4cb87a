import type { Session } from '../../shared/session.js';
import type { ChatMessage } from '../messages.js';
import type { AgentConfig } from '../config.js';
import { compressionTrigger } from './compression-policy.js';
import { modelHistory, type CompressionAnchor } from './history.js';
import { estimateTokens } from './model-call.js';
import { SESSION_PROMPT_KEY } from './session-prompt.js';

/**
 * The session fields the context ring reads, as the incumbent stores them: the model's window
 * (`context_length`, from resolveProvider: config.yaml's model.context_length, a
 * custom_providers model entry, else the provider's default) and the prompt size at which the
 * next step compresses first (`threshold_tokens`; null while compression is off).
 */
export function contextWindowPatch(config: AgentConfig, contextLength: number, model: string) {
  return {
    context_length: contextLength,
    threshold_tokens: config.compression.enabled ? compressionTrigger(config.compression, contextLength, config.model.maxTokens, model) : null,
  };
}

/**
 * How big the next prompt is after a manual compression, before any model has counted it: the
 * last counted prompt scaled by how much the history shrank (both sides estimated the same
 * way, so the provider's tokeniser ratio carries over); the plain estimate when nothing was
 * counted yet.
 */
export function compressedContextTokens(session: Session, before: CompressionAnchor | null, after: CompressionAnchor, protectFirstN: number): number {
  const prompt = (session[SESSION_PROMPT_KEY] as { text?: unknown } | undefined)?.text;
  const system: ChatMessage[] = typeof prompt === 'string' && prompt ? [{ role: 'system', content: prompt }] : [];
  const size = (anchor: CompressionAnchor | null) => estimateTokens([...system, ...modelHistory(session.messages, anchor, { protectFirstN })]);
  const estimate = size(after);
  const counted = typeof session.last_prompt_tokens === 'number' ? session.last_prompt_tokens : 0;
  const previous = size(before);
  if (counted <= 0 || previous <= 0) return estimate;
  return Math.max(1, Math.round((counted * estimate) / previous));
}
