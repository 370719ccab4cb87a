import type { ChatMessage, ToolSpec } from '../messages.js';
import type { ReasoningEffort } from '../reasoning.js';
import type { FailureHintCode } from '../../shared/server-texts.js';
import type { CodedHint } from '../../shared/server-texts-en.js';

export interface ModelRequest {
  model: string;
  messages: ChatMessage[];
  tools?: ToolSpec[];
  maxTokens?: number;
  temperature?: number;
  /** false: a one-off request (a title, a summary) that no later request shares a prefix with, so no cache markers. */
  promptCache?: boolean;
  /** `agent.reasoning_effort`; unset: the provider's default. Each wire format carries it its own way (reasoning.ts). */
  reasoningEffort?: ReasoningEffort | null;
  signal: AbortSignal;
}

/** What a provider stream yields, already normalised from its wire format. */
export type ModelChunk =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  /** OpenRouter's structured reasoning pieces (`delta.reasoning_details`), merged by index. */
  | { type: 'reasoning_details'; details: unknown[] }
  /**
   * A fragment of a tool call. `index` identifies the call within this response; `id` and `name`
   * arrive on the first fragment, `arguments` is a piece of the JSON text to concatenate.
   */
  | { type: 'tool_call'; index: number; id?: string; name?: string; arguments?: string }
  /** `inputTokens` is the whole prompt, cached parts included (Anthropic's own input_tokens leaves them out). */
  | { type: 'usage'; inputTokens: number; outputTokens: number; cacheReadTokens?: number; cacheWriteTokens?: number; cost?: number }
  /** The model finished: `stop`, `tool_calls`, `length`, or the provider's own reason. */
  | { type: 'finish'; reason: string };

/**
 * A model endpoint. `stream` throws ProviderError for HTTP failures, unreachable hosts and
 * malformed or truncated streams; it honours `signal` at every await.
 */
export interface ModelProvider {
  readonly id: string;
  stream(request: ModelRequest): AsyncIterable<ModelChunk>;
}

export type ProviderErrorType = 'auth_mismatch' | 'rate_limit' | 'model_not_found' | 'no_response' | 'interrupted' | 'error';

/** What a retry decision (retry.ts) needs to know about a failure, beyond its type. */
export interface FailureFacts {
  /** The HTTP status; for an error event inside a 200 stream, the status that event stands for. */
  status?: number;
  /** The Retry-After header as the provider sent it. */
  retryAfter?: string | null;
  /** The transport failed: the error code (ECONNRESET, ECONNREFUSED, UND_ERR_SOCKET…), the error's text when it has none, or `cut_off` for a stream that just ended early. */
  transport?: string;
}

/** A provider failure, classified for the `apperror` event, with a hint a person can act on. */
export class ProviderError extends Error {
  /** The English hint (what the incumbent's clients show). */
  readonly hint: string;
  /** The hint's code and values (src/shared/server-texts.ts), for the web app to translate. */
  readonly hintCode: FailureHintCode;
  readonly hintArgs: Record<string, string>;
  constructor(
    readonly type: ProviderErrorType,
    message: string,
    /** Always coded (failureHint(code, values)), so every hint the server can send has a translation in the web app. */
    hint: CodedHint<FailureHintCode>,
    readonly status?: number,
    readonly details?: string,
    readonly facts: FailureFacts = {},
  ) {
    super(message);
    this.name = 'ProviderError';
    this.hint = hint.text;
    this.hintCode = hint.code;
    this.hintArgs = hint.args;
  }

  /** The hint as given, so a re-classified error keeps its code. */
  get codedHint(): CodedHint<FailureHintCode> {
    return { text: this.hint, code: this.hintCode, args: this.hintArgs };
  }
}
