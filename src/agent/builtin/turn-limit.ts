import type { Message } from '../../shared/session.js';
import type { ChatMessage } from '../messages.js';
import type { ModelProvider } from '../providers/types.js';
import type { RetryOptions } from '../providers/retry.js';
import { runEvent, type TurnOutput } from '../runtime.js';
import { callModel } from './model-call.js';

/**
 * What the model is told when `agent.max_turns` runs out. Hermes asks the same thing (in its own
 * words) so a capped turn still ends with an answer rather than a dangling tool call; the
 * request goes to the model only and is not stored.
 */
export const TURN_LIMIT_SUMMARY_REQUEST =
  'You have used every tool-calling step this turn allows (agent.max_turns). Do not call any more tools. ' +
  'Reply now with a final answer: summarise what you found and did so far, and what is left to do.';

/** Hermes' `turn_exit_reason` for a turn stopped at its cap, e.g. `max_iterations_reached(60/60)`. */
export const turnLimitExitReason = (cap: number) => `max_iterations_reached(${cap}/${cap})`;

/**
 * The step after the last allowed one: one model call without tools asking for a summary,
 * streamed like any answer and stored with the exit reason. If that call fails (other than a
 * cancel), a short note says where the turn stopped instead.
 */
export async function finishAtTurnLimit(input: {
  cap: number;
  provider: ModelProvider;
  model: string;
  /** The system prompt and the history as the next step would have sent them. */
  messages: ChatMessage[];
  maxTokens: number | null;
  signal: AbortSignal;
  retry: RetryOptions;
  now: () => number;
  emit(out: TurnOutput): void;
}): Promise<void> {
  const { cap, emit, signal } = input;
  const exit = turnLimitExitReason(cap);
  emit(runEvent('warning', { type: 'tool_limit_reached', message: `Stopped after ${cap} iterations; asking the model for a summary` }));
  let partial = '';
  try {
    const result = await callModel(
      input.provider,
      {
        model: input.model,
        messages: [...input.messages, { role: 'user', content: TURN_LIMIT_SUMMARY_REQUEST }],
        ...(input.maxTokens ? { maxTokens: input.maxTokens } : {}),
        signal,
        retry: input.retry,
      },
      {
        onText: (text) => {
          partial += text;
          emit(runEvent('token', { text }));
        },
      },
      input.now,
    );
    emit({
      type: 'usage',
      input_tokens: result.usage.inputTokens,
      output_tokens: result.usage.outputTokens,
      cost: result.usage.cost,
      prompt_tokens: result.usage.inputTokens,
    });
    const text = result.text.trim() ? result.text : fallbackNote(cap);
    const answer: Message = { role: 'assistant', content: text, timestamp: input.now(), _usedModel: input.model, _turn_exit_reason: exit };
    emit({ type: 'messages', messages: [answer] });
  } catch (err) {
    if (signal.aborted) {
      if (partial) emit({ type: 'messages', messages: [{ role: 'assistant', content: partial, _partial: true, timestamp: input.now() }] });
      throw err;
    }
    emit({ type: 'messages', messages: [{ role: 'assistant', content: fallbackNote(cap), timestamp: input.now(), _turn_exit_reason: exit }] });
  }
}

function fallbackNote(cap: number): string {
  return `I stopped after ${cap} steps without finishing (the limit is agent.max_turns in config.yaml). Tell me to continue if you want me to keep going.`;
}
