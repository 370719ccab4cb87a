import type { ChatMessage, ContentPart } from '../messages.js';
import { withEnvelopeCacheMarkers, type CacheTtl } from './prompt-cache.js';
import { needsReasoningEcho, replayReasoning } from './reasoning-replay.js';
import { openAIEffortFields } from '../reasoning.js';
import { parseSse } from './sse.js';
import { ProviderError, type FailureFacts, type ModelChunk, type ModelProvider, type ModelRequest } from './types.js';
import { failureHint } from '../../shared/server-texts-en.js';

export interface OpenAIProviderOptions {
  id: string;
  /** Up to and including `/v1` (or the provider's equivalent); `/chat/completions` is appended. */
  baseUrl: string;
  /** Omitted or empty for keyless local servers: then no Authorization header is sent. */
  apiKey?: string | null;
  /** The environment variable the key comes from, named in the auth-failure hint. */
  keyEnv?: string;
  headers?: Record<string, string>;
  fetch?: typeof fetch;
  /** Claude on OpenRouter: Anthropic cache markers inside content parts (prompt-cache.ts). */
  cacheTtl?: CacheTtl | null;
  /** OpenRouter's `provider` routing object (config.yaml `provider_routing`), sent as is. */
  providerRouting?: Record<string, unknown> | null;
}

/** An OpenAI chat message as sent on the wire: our internal keys (e.g. `reasoning`) dropped. */
export interface OpenAIWireMessage {
  role: ChatMessage['role'];
  /** Parts may carry a `cache_control` marker on OpenRouter. */
  content: string | Array<ContentPart & { cache_control?: unknown }> | null;
  tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
  name?: string;
  reasoning_content?: string;
  reasoning_details?: unknown[];
}

/** `replay`: which reasoning fields go back to this provider (reasoning-replay.ts); none by default. */
export function toOpenAIMessages(messages: ChatMessage[], replay: { echo: boolean; details: boolean } = { echo: false, details: false }): OpenAIWireMessage[] {
  return messages.map((m) => {
    const out: OpenAIWireMessage = { role: m.role, content: m.content };
    replayReasoning(m, out, replay);
    if (m.tool_calls?.length) {
      out.tool_calls = m.tool_calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.function.name, arguments: c.function.arguments } }));
    }
    if (m.tool_call_id !== undefined) out.tool_call_id = m.tool_call_id;
    if (m.name !== undefined) out.name = m.name;
    return out;
  });
}

// OpenRouter attributes traffic by these; harmless elsewhere but only sent there.
const OPENROUTER_HEADERS = { 'HTTP-Referer': 'https://github.com/nesquena/hermes-webui', 'X-Title': 'Hermes WebUI' };

export function createOpenAIProvider(options: OpenAIProviderOptions): ModelProvider {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const apiKey = options.apiKey || null;
  const isOpenRouter = options.id === 'openrouter' || /^https?:\/\/([^/]*\.)?openrouter\.ai(:\d+)?(\/|$)/i.test(baseUrl);
  const ctx: ProviderContext = { providerId: options.id, baseUrl, apiKey, keyEnv: options.keyEnv };
  const reasoningEcho = (model: string) => needsReasoningEcho(options.id, model, baseUrl);

  return {
    id: options.id,
    async *stream(request: ModelRequest): AsyncGenerator<ModelChunk> {
      const { signal } = request;
      signal.throwIfAborted();
      const wire = toOpenAIMessages(request.messages, { echo: reasoningEcho(request.model), details: isOpenRouter });
      const body: Record<string, unknown> = {
        model: request.model,
        messages: options.cacheTtl && request.promptCache !== false ? withEnvelopeCacheMarkers(wire, options.cacheTtl) : wire,
        stream: true,
        stream_options: { include_usage: true },
      };
      if (isOpenRouter && options.providerRouting) body.provider = options.providerRouting;
      if (request.tools?.length) {
        body.tools = request.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }));
      }
      if (request.maxTokens) body.max_tokens = request.maxTokens;
      if (request.temperature !== undefined) body.temperature = request.temperature;
      Object.assign(body, openAIEffortFields(request.reasoningEffort, isOpenRouter));

      const headers: Record<string, string> = {
        'Content-Type': 'application/json',
        Accept: 'text/event-stream',
        ...(isOpenRouter ? OPENROUTER_HEADERS : {}),
        ...options.headers,
      };
      if (apiKey) headers.Authorization = `Bearer ${apiKey}`;

      let response: Response;
      try {
        response = await doFetch(`${baseUrl}/chat/completions`, { method: 'POST', headers, body: JSON.stringify(body), signal });
      } catch (err) {
        ensureNotAborted(signal);
        throw unreachable(ctx, err);
      }
      if (!response.ok) {
        const text = await response.text().catch(() => '');
        ensureNotAborted(signal);
        throw describeHttpFailure(ctx, request.model, response.status, text, response.headers.get('retry-after'));
      }
      if (!response.body) throw malformed(ctx, 'the response had no body');

      // A server that ignored `stream: true` answers one JSON completion; accept it.
      if (/application\/json/i.test(response.headers.get('content-type') ?? '')) {
        let text: string;
        try {
          text = await response.text();
        } catch (err) {
          ensureNotAborted(signal);
          throw streamCutOff(ctx, err);
        }
        yield* fromCompletion(ctx, text);
        return;
      }
      yield* fromStream(ctx, response.body, signal);
    },
  };
}

interface ToolCallState {
  id?: string;
  named: boolean;
}

async function* fromStream(ctx: ProviderContext, body: ReadableStream<Uint8Array>, signal: AbortSignal): AsyncGenerator<ModelChunk> {
  const calls: ToolCallState[] = [];
  let finished = false;
  let usage: ModelChunk | null = null;
  let done = false;

  try {
    for await (const record of parseSse(body, signal)) {
      const data = record.data.trim();
      if (!data) continue;
      if (data === '[DONE]') {
        done = true;
        break;
      }
      let json: Record<string, unknown>;
      try {
        json = JSON.parse(data) as Record<string, unknown>;
      } catch {
        throw malformed(ctx, `the stream carried data that is not JSON: ${data.slice(0, 120)}`);
      }
      if (!json || typeof json !== 'object') throw malformed(ctx, `the stream carried unexpected data: ${data.slice(0, 120)}`);
      // OpenRouter and others report failures after the 200 as an `error` chunk.
      if (json.error) throw streamError(ctx, json.error);

      const u = toUsage(json.usage);
      if (u) usage = u;
      const choice = Array.isArray(json.choices) ? (json.choices as Array<Record<string, unknown>>).find((c) => (c.index ?? 0) === 0) : undefined;
      if (!choice) continue;
      const delta = (choice.delta ?? {}) as Record<string, unknown>;

      // Some servers send the same text under both names: take one.
      const reasoning = nonEmpty(delta.reasoning_content) ?? nonEmpty(delta.reasoning);
      if (reasoning) yield { type: 'reasoning', text: reasoning };
      if (Array.isArray(delta.reasoning_details) && delta.reasoning_details.length) yield { type: 'reasoning_details', details: delta.reasoning_details };
      const text = nonEmpty(delta.content);
      if (text) yield { type: 'text', text };
      if (Array.isArray(delta.tool_calls)) {
        for (const raw of delta.tool_calls as Array<Record<string, unknown>>) yield toolCallChunk(calls, raw);
      }
      if (typeof choice.finish_reason === 'string' && choice.finish_reason) {
        finished = true;
        yield { type: 'finish', reason: choice.finish_reason };
      }
    }
  } catch (err) {
    ensureNotAborted(signal);
    if (err instanceof ProviderError) throw err;
    throw streamCutOff(ctx, err);
  }

  if (!done && !finished) throw streamCutOff(ctx);
  // `[DONE]` without a finish_reason (seen on some local servers) still means a complete answer.
  if (!finished) yield { type: 'finish', reason: calls.length ? 'tool_calls' : 'stop' };
  if (usage) yield usage;
}

/**
 * Normalises one `delta.tool_calls[]` fragment. `id` and `name` are passed on once per call
 * (some servers repeat them on every fragment); a missing `index` means a new call when a new
 * id appears, else the latest call.
 */
function toolCallChunk(calls: ToolCallState[], raw: Record<string, unknown>): ModelChunk {
  const fn = (raw.function ?? {}) as Record<string, unknown>;
  const id = nonEmpty(raw.id);
  let index: number;
  if (typeof raw.index === 'number') index = raw.index;
  else if (id && !calls.some((c) => c.id === id)) index = calls.length;
  else index = Math.max(0, calls.length - 1);
  const state = (calls[index] ??= { named: false });
  const chunk: ModelChunk & { type: 'tool_call' } = { type: 'tool_call', index };
  if (id && state.id === undefined) chunk.id = state.id = id;
  const name = nonEmpty(fn.name);
  if (name && !state.named) {
    chunk.name = name;
    state.named = true;
  }
  if (typeof fn.arguments === 'string' && fn.arguments) chunk.arguments = fn.arguments;
  return chunk;
}

function* fromCompletion(ctx: ProviderContext, text: string): Generator<ModelChunk> {
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw malformed(ctx, `the response is not JSON: ${text.slice(0, 120)}`);
  }
  if (json.error) throw streamError(ctx, json.error);
  const choice = (Array.isArray(json.choices) ? json.choices[0] : undefined) as Record<string, unknown> | undefined;
  if (!choice) throw malformed(ctx, 'the response has no choices');
  const message = (choice.message ?? {}) as Record<string, unknown>;
  const reasoning = nonEmpty(message.reasoning_content) ?? nonEmpty(message.reasoning);
  if (reasoning) yield { type: 'reasoning', text: reasoning };
  if (Array.isArray(message.reasoning_details) && message.reasoning_details.length) yield { type: 'reasoning_details', details: message.reasoning_details };
  const content = nonEmpty(message.content);
  if (content) yield { type: 'text', text: content };
  const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as Array<Record<string, unknown>>) : [];
  for (const [index, call] of calls.entries()) {
    const fn = (call.function ?? {}) as Record<string, unknown>;
    yield { type: 'tool_call', index, id: String(call.id ?? ''), name: String(fn.name ?? ''), arguments: String(fn.arguments ?? '') };
  }
  yield { type: 'finish', reason: nonEmpty(choice.finish_reason) ?? (calls.length ? 'tool_calls' : 'stop') };
  const usage = toUsage(json.usage);
  if (usage) yield usage;
}

function toUsage(raw: unknown): ModelChunk | null {
  if (!raw || typeof raw !== 'object') return null;
  const u = raw as Record<string, unknown>;
  const chunk: ModelChunk & { type: 'usage' } = { type: 'usage', inputTokens: num(u.prompt_tokens) ?? 0, outputTokens: num(u.completion_tokens) ?? 0 };
  const details = (u.prompt_tokens_details ?? {}) as Record<string, unknown>;
  const cached = num(details?.cached_tokens);
  if (cached !== undefined) chunk.cacheReadTokens = cached;
  // OpenRouter reports what Anthropic wrote to its cache beside the reads.
  const written = num(details?.cache_write_tokens);
  if (written !== undefined) chunk.cacheWriteTokens = written;
  const cost = num(u.cost); // OpenRouter reports the charge in credits (USD)
  if (cost !== undefined) chunk.cost = cost;
  return chunk;
}

function streamError(ctx: ProviderContext, raw: unknown): ProviderError {
  const e = (typeof raw === 'object' && raw ? raw : { message: String(raw) }) as Record<string, unknown>;
  const message = nonEmpty(e.message) ?? 'unknown error';
  const code = e.code ?? e.type;
  return new ProviderError(
    'error',
    `${ctx.providerId} reported an error mid-stream: ${message}`,
    failureHint('provider_stream_error', { provider: ctx.providerId }),
    typeof code === 'number' ? code : undefined,
    JSON.stringify(raw).slice(0, 1200),
    typeof code === 'number' ? { status: code } : {},
  );
}

function nonEmpty(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

// ---------------------------------------------------------------------------------------------
// Failure classification, shared with anthropic.ts: the same hints whatever the wire format.

/** Who failed, for messages and hints; `apiKey` is also scrubbed from any text we keep. */
export interface ProviderContext {
  providerId: string;
  baseUrl: string;
  apiKey: string | null;
  keyEnv?: string | undefined;
}

const MAX_DETAILS = 1200;
// Many servers answer an unknown model with 400 (OpenRouter, vLLM) or 500 (some local servers).
const MODEL_MISSING = /model\b.{0,120}?\b(not found|does not exist|is not available)|\b(not a valid|unknown|invalid|no such) model\b|model_not_found/i;

/** Rethrows the signal's reason when it fired: an abort is the caller's doing, not a failure. */
export function ensureNotAborted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason ?? new DOMException('Aborted', 'AbortError');
}

/** Removes anything that looks like a credential before text reaches logs or the browser. */
export function redactSecrets(text: string, apiKey?: string | null): string {
  let out = apiKey && apiKey.length >= 6 ? text.split(apiKey).join('[redacted]') : text;
  out = out.replace(/\bsk-[A-Za-z0-9_-]{6,}/g, 'sk-[redacted]');
  out = out.replace(/\bBearer\s+[A-Za-z0-9._~+/=-]{6,}/gi, 'Bearer [redacted]');
  return out;
}

function details(ctx: ProviderContext, text: string): string | undefined {
  const clean = redactSecrets(text.trim(), ctx.apiKey);
  return clean ? clean.slice(0, MAX_DETAILS) : undefined;
}

/** The provider's own words from an error body (`{error:{message}}`, `{message}`, `{detail}`), else a snippet. */
function providerMessage(text: string): string {
  try {
    const json = JSON.parse(text) as Record<string, unknown>;
    const err = json.error;
    const candidates = [err && typeof err === 'object' ? (err as Record<string, unknown>).message : err, json.message, json.detail];
    for (const c of candidates) if (typeof c === 'string' && c.trim()) return c.trim();
  } catch {
    // not JSON: fall through to the raw text
  }
  const plain = text.replace(/\s+/g, ' ').trim();
  return plain.length > 200 ? `${plain.slice(0, 200)}…` : plain;
}

/** A non-2xx answer, classified for the `apperror` event. */
export function describeHttpFailure(ctx: ProviderContext, model: string, status: number, body: string, retryAfter: string | null): ProviderError {
  const said = redactSecrets(providerMessage(body), ctx.apiKey);
  const message = `${ctx.providerId} answered HTTP ${status}${said ? `: ${said}` : ''}`;
  const extra = details(ctx, body);
  const facts: FailureFacts = { status, retryAfter };
  if (status === 401 || status === 403) {
    const provider = ctx.providerId;
    const hint = ctx.keyEnv
      ? failureHint(ctx.apiKey ? 'provider_key_rejected_env' : 'provider_key_missing_env', { provider, env: ctx.keyEnv })
      : failureHint(ctx.apiKey ? 'provider_key_rejected_config' : 'provider_key_missing_config', { provider });
    return new ProviderError('auth_mismatch', message, hint, status, extra, facts);
  }
  if (status === 404 || MODEL_MISSING.test(said)) {
    const hint = failureHint('provider_model_not_found', { model, base_url: ctx.baseUrl });
    return new ProviderError('model_not_found', message, hint, status, extra, facts);
  }
  if (status === 429) {
    const wait = retryAfter?.trim();
    const provider = ctx.providerId;
    const hint = wait
      ? failureHint('provider_rate_limit_retry', { provider, wait: /^\d+(\.\d+)?$/.test(wait) ? `${wait} s` : wait })
      : failureHint('provider_rate_limit', { provider });
    return new ProviderError('rate_limit', message, hint, status, extra, facts);
  }
  if (status >= 500) return new ProviderError('error', message, failureHint('provider_5xx', { provider: ctx.providerId }), status, extra, facts);
  return new ProviderError('error', message, failureHint('provider_rejected', { provider: ctx.providerId, status: String(status) }), status, extra, facts);
}

/** `fetch` itself threw: refused connection, DNS failure, TLS error. */
export function unreachable(ctx: ProviderContext, err: unknown): ProviderError {
  const e = err as { message?: string; cause?: { code?: string; message?: string } } | undefined;
  const reason = e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err);
  return new ProviderError(
    'no_response',
    `Could not reach ${ctx.providerId} at ${ctx.baseUrl}: ${redactSecrets(reason, ctx.apiKey)}`,
    failureHint('provider_unreachable', { provider: ctx.providerId, base_url: ctx.baseUrl }),
    undefined,
    details(ctx, errorText(err)),
    { transport: errorCode(err) ?? errorText(err) },
  );
}

/** The transport's error code: undici puts it on `cause` (a connect failure's AggregateError on each of its errors). */
function errorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown; errors?: Array<{ code?: unknown }> } } | undefined;
  const code = e?.cause?.code ?? e?.cause?.errors?.find((x) => typeof x?.code === 'string')?.code ?? e?.code;
  return typeof code === 'string' ? code : undefined;
}

/** `message: cause` — undici hides the useful part (ECONNREFUSED, "other side closed") in `cause`. */
function errorText(err: unknown): string {
  const e = err as { message?: string; cause?: { code?: string; message?: string } } | undefined;
  const parts = [e?.message ?? String(err), e?.cause?.message ?? e?.cause?.code].filter((p): p is string => !!p);
  return parts.join(': ');
}

/** The stream stopped before the answer was complete (dropped connection, no end marker). */
export function streamCutOff(ctx: ProviderContext, err?: unknown): ProviderError {
  const why = err ? `: ${errorText(err)}` : '';
  return new ProviderError(
    'no_response',
    `${ctx.providerId} stopped mid-answer (the stream ended early${why})`,
    failureHint('provider_cut_off', { provider: ctx.providerId }),
    undefined,
    err ? details(ctx, errorText(err)) : undefined,
    { transport: (err ? errorCode(err) : undefined) ?? 'cut_off' },
  );
}

/** The 200 answer is not in the expected format: the server answered, just not in a way we can read. */
export function malformed(ctx: ProviderContext, what: string): ProviderError {
  return new ProviderError(
    'error',
    `${ctx.providerId} sent a malformed stream: ${redactSecrets(what, ctx.apiKey)}`,
    failureHint('provider_malformed', { provider: ctx.providerId, base_url: ctx.baseUrl }),
  );
}
