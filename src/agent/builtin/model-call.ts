import type { ChatMessage, ToolCall, ToolSpec } from '../messages.js';
import { ProviderError, type ModelProvider } from '../providers/types.js';
import { failureHint } from '../../shared/server-texts-en.js';
import { streamWithRetries, type RetryOptions } from '../providers/retry.js';
import { mergeReasoningDetails } from '../providers/reasoning-replay.js';
import type { ReasoningEffort } from '../reasoning.js';
import { ToolCallAssembler } from './tool-calls.js';

export interface ModelCallResult {
  text: string;
  reasoning: string;
  /** OpenRouter's structured reasoning, kept for replay; empty when none came. */
  reasoningDetails: Array<Record<string, unknown>>;
  toolCalls: ToolCall[];
  /** `inputTokens` is the whole prompt, cached parts included. */
  usage: { inputTokens: number; outputTokens: number; cost: number | null; estimated: boolean; cacheReadTokens?: number; cacheWriteTokens?: number };
  finish: string;
  /** Seconds from the first request (retry waits included) to the first streamed token, and the streaming rate. */
  firstTokenSeconds: number | null;
  tokensPerSecond: number | null;
}

export interface ModelCallHooks {
  onText?(text: string): void;
  onReasoning?(text: string): void;
  onToolCallStart?(index: number, name: string): void;
}

/** A rough token count (4 characters a token) for when a provider reports no usage. */
export function estimateTokens(messages: readonly ChatMessage[]): number {
  let chars = 0;
  for (const m of messages) {
    chars += typeof m.content === 'string' ? m.content.length : JSON.stringify(m.content ?? '').length;
    if (m.tool_calls) chars += JSON.stringify(m.tool_calls).length;
  }
  return Math.ceil(chars / 4);
}

/**
 * One streamed model call: deltas go to the hooks as they arrive, the whole answer comes
 * back at the end. A stream that ends with nothing at all is a `no_response` error.
 * With `retry`, a failure before the first delta is asked again (providers/retry.ts).
 */
export async function callModel(
  provider: ModelProvider,
  request: {
    model: string;
    messages: ChatMessage[];
    tools?: ToolSpec[];
    maxTokens?: number;
    promptCache?: boolean;
    reasoningEffort?: ReasoningEffort | null;
    signal: AbortSignal;
    retry?: RetryOptions;
  },
  hooks: ModelCallHooks = {},
  now: () => number = () => Date.now() / 1000,
): Promise<ModelCallResult> {
  const { retry, ...modelRequest } = request;
  const started = now();
  let firstAt: number | null = null;
  let text = '';
  let reasoning = '';
  const reasoningDetails: Array<Record<string, unknown>> = [];
  let finish = '';
  let usage: ModelCallResult['usage'] | null = null;
  const calls = new ToolCallAssembler();
  const chunks = retry ? streamWithRetries(provider, modelRequest, retry) : provider.stream(modelRequest);
  for await (const chunk of chunks) {
    switch (chunk.type) {
      case 'text':
        firstAt ??= now();
        text += chunk.text;
        hooks.onText?.(chunk.text);
        break;
      case 'reasoning':
        firstAt ??= now();
        reasoning += chunk.text;
        hooks.onReasoning?.(chunk.text);
        break;
      case 'reasoning_details':
        mergeReasoningDetails(reasoningDetails, chunk.details);
        break;
      case 'tool_call': {
        firstAt ??= now();
        const { started: isNew, name } = calls.add(chunk);
        if (isNew) hooks.onToolCallStart?.(chunk.index, name);
        break;
      }
      case 'usage':
        usage = {
          inputTokens: chunk.inputTokens,
          outputTokens: chunk.outputTokens,
          cost: chunk.cost ?? null,
          estimated: false,
          ...(chunk.cacheReadTokens !== undefined ? { cacheReadTokens: chunk.cacheReadTokens } : {}),
          ...(chunk.cacheWriteTokens !== undefined ? { cacheWriteTokens: chunk.cacheWriteTokens } : {}),
        };
        break;
      case 'finish':
        finish = chunk.reason;
        break;
    }
  }
  const toolCalls = calls.calls();
  if (!text && !reasoning && !toolCalls.length) {
    throw new ProviderError('no_response', 'The model returned an empty response', failureHint('model_empty_response', {}));
  }
  const ended = now();
  usage ??= {
    inputTokens: estimateTokens(request.messages),
    outputTokens: Math.ceil((text.length + reasoning.length + JSON.stringify(toolCalls).length) / 4),
    cost: null,
    estimated: true,
  };
  const streamSeconds = firstAt === null ? null : Math.max(0.001, ended - firstAt);
  return {
    text,
    reasoning,
    reasoningDetails,
    toolCalls,
    usage,
    finish: finish || (toolCalls.length ? 'tool_calls' : 'stop'),
    firstTokenSeconds: firstAt === null ? null : firstAt - started,
    tokensPerSecond: streamSeconds ? Math.round((usage.outputTokens / streamSeconds) * 10) / 10 : null,
  };
}
