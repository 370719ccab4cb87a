import type { ChatMessage, ContentPart } from '../messages.js';
import { describeHttpFailure, ensureNotAborted, malformed, redactSecrets, streamCutOff, unreachable, type ProviderContext } from './openai.js';
import { cacheMarker, lastCarriers, MESSAGE_BREAKPOINTS, type CacheMarker, type CacheTtl } from './prompt-cache.js';
import { parseSse } from './sse.js';
import { ProviderError, type ModelChunk, type ModelProvider, type ModelRequest } from './types.js';
import { anthropicThinking } from '../reasoning.js';

export interface AnthropicProviderOptions {
  id: string;
  /** Without `/v1` (as the official SDK takes it); a trailing `/v1` is tolerated. */
  baseUrl?: string;
  apiKey?: string | null;
  /** The environment variable the key comes from, named in the auth-failure hint. */
  keyEnv?: string;
  fetch?: typeof fetch;
  /** Mark the prompt for Anthropic's cache (prompt-cache.ts); null or absent: no markers. */
  cacheTtl?: CacheTtl | null;
}

export type AnthropicBlock = (
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string } }
  | { type: 'tool_use'; id: string; name: string; input: unknown }
  | { type: 'tool_result'; tool_use_id: string; content?: string | MediaBlock[] }
) & { cache_control?: CacheMarker };

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicBlock[];
}

const DEFAULT_MAX_TOKENS = 8192;
const STOP_REASONS: Record<string, string> = { end_turn: 'stop', stop_sequence: 'stop', tool_use: 'tool_calls', max_tokens: 'length' };

/**
 * Our OpenAI-format transcript in Messages API shape: system text lifted out, tool calls and
 * results as blocks, and same-role neighbours merged because the API requires alternation.
 * Reasoning is not replayed: thinking blocks need the provider's signature, which we don't keep.
 */
export function toAnthropicMessages(messages: ChatMessage[]): { system?: string; messages: AnthropicMessage[] } {
  const { lastBlocks: _, ...converted } = convertMessages(messages);
  return converted;
}

/** toAnthropicMessages plus, per transcript message, the block it ended with (where a cache breakpoint goes). */
function convertMessages(messages: ChatMessage[]): { system?: string; messages: AnthropicMessage[]; lastBlocks: AnthropicBlock[] } {
  const system: string[] = [];
  const out: AnthropicMessage[] = [];
  // The last block each transcript message became: where its cache breakpoint goes.
  const lastBlocks: AnthropicBlock[] = [];
  const push = (role: AnthropicMessage['role'], blocks: AnthropicBlock[]) => {
    if (!blocks.length) return;
    lastBlocks.push(blocks[blocks.length - 1]!);
    const last = out[out.length - 1];
    if (last?.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };

  for (const m of messages) {
    if (m.role === 'system') {
      const text = textOf(m.content);
      if (text) system.push(text);
    } else if (m.role === 'tool') {
      const parts = contentBlocks(m.content);
      const block: AnthropicBlock = { type: 'tool_result', tool_use_id: toolId(m.tool_call_id ?? '') };
      // Plain text stays a string; images (e.g. a screenshot tool) need the block form. Empty output is left out: the API rejects empty text.
      if (parts.length) block.content = parts.every((b) => b.type === 'text') ? parts.map((b) => (b as { text: string }).text).join('\n') : parts;
      push('user', [block]);
    } else if (m.role === 'assistant') {
      const blocks: AnthropicBlock[] = contentBlocks(m.content);
      for (const call of m.tool_calls ?? []) {
        blocks.push({ type: 'tool_use', id: toolId(call.id), name: call.function.name, input: parseArgs(call.function.arguments) });
      }
      push('assistant', blocks);
    } else {
      push('user', contentBlocks(m.content));
    }
  }
  return system.length ? { system: system.join('\n\n'), messages: out, lastBlocks } : { messages: out, lastBlocks };
}

function textOf(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  return (content ?? []).flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n');
}

type MediaBlock = Extract<AnthropicBlock, { type: 'text' | 'image' }>;

function contentBlocks(content: ChatMessage['content']): MediaBlock[] {
  // The API rejects empty text blocks.
  if (typeof content === 'string') return content ? [{ type: 'text', text: content }] : [];
  return (content ?? []).flatMap((p: ContentPart): MediaBlock[] => {
    if (p.type === 'text') return p.text ? [{ type: 'text', text: p.text }] : [];
    const m = /^data:([^;,]+);base64,(.*)$/s.exec(p.image_url.url);
    if (m) return [{ type: 'image', source: { type: 'base64', media_type: m[1]!, data: m[2]! } }];
    return [{ type: 'image', source: { type: 'url', url: p.image_url.url } }];
  });
}

/** Tool arguments are JSON text; the API wants an object. */
function parseArgs(args: string): unknown {
  try {
    const value: unknown = JSON.parse(args);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

/** Anthropic requires `^[a-zA-Z0-9_-]+$`; ids minted by other providers may not match. */
function toolId(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, '_') || 'tool';
}

export function createAnthropicProvider(options: AnthropicProviderOptions): ModelProvider {
  const baseUrl = (options.baseUrl ?? 'https://api.anthropic.com').replace(/\/+$/, '');
  const url = `${baseUrl.replace(/\/v1$/, '')}/v1/messages`;
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const apiKey = options.apiKey || null;
  const ctx: ProviderContext = { providerId: options.id, baseUrl, apiKey, keyEnv: options.keyEnv };

  return {
    id: options.id,
    async *stream(request: ModelRequest): AsyncGenerator<ModelChunk> {
      const { signal } = request;
      signal.throwIfAborted();
      const { system, messages, lastBlocks } = convertMessages(request.messages);
      const body: Record<string, unknown> = { model: request.model, max_tokens: request.maxTokens || DEFAULT_MAX_TOKENS, messages, stream: true };
      if (system) body.system = system;
      if (options.cacheTtl && request.promptCache !== false) {
        // Hermes' system-and-3: the system prompt (tools before it are cached with it) and the
        // last three messages, so the next request reads back what this one writes.
        const marker = cacheMarker(options.cacheTtl);
        if (system) body.system = [{ type: 'text', text: system, cache_control: marker }];
        for (const i of lastCarriers(lastBlocks, MESSAGE_BREAKPOINTS, () => true)) lastBlocks[i]!.cache_control = marker;
      }
      if (request.tools?.length) body.tools = request.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters }));
      const thinking = anthropicThinking(request.reasoningEffort, request.model);
      Object.assign(body, thinking.fields);
      if (thinking.minMaxTokens && (body.max_tokens as number) < thinking.minMaxTokens) body.max_tokens = thinking.minMaxTokens;
      if (request.temperature !== undefined && !thinking.dropTemperature) body.temperature = request.temperature;

      const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'text/event-stream', 'anthropic-version': '2023-06-01' };
      if (apiKey) headers['x-api-key'] = apiKey;

      let response: Response;
      try {
        response = await doFetch(url, { method: 'POST', headers, body: JSON.stringify(body), signal });
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
      yield* fromStream(ctx, request.model, response.body, signal);
    },
  };
}

interface ToolBlock {
  ordinal: number;
  sentArgs: boolean;
}

async function* fromStream(ctx: ProviderContext, model: string, body: ReadableStream<Uint8Array>, signal: AbortSignal): AsyncGenerator<ModelChunk> {
  // Raw content-block index → the tool call's ordinal among this response's tool calls.
  const tools = new Map<number, ToolBlock>();
  const usage: ModelChunk & { type: 'usage' } = { type: 'usage', inputTokens: 0, outputTokens: 0 };
  let sawUsage = false;
  let uncached = 0;
  let stopped = false;

  const takeUsage = (raw: unknown) => {
    if (!raw || typeof raw !== 'object') return;
    const u = raw as Record<string, unknown>;
    // message_delta counts are cumulative, so later values replace earlier ones.
    if (isNum(u.input_tokens)) uncached = u.input_tokens;
    if (isNum(u.output_tokens)) usage.outputTokens = u.output_tokens;
    if (isNum(u.cache_read_input_tokens)) usage.cacheReadTokens = u.cache_read_input_tokens;
    if (isNum(u.cache_creation_input_tokens)) usage.cacheWriteTokens = u.cache_creation_input_tokens;
    // Anthropic counts cached tokens apart from input_tokens; the prompt is all three (as OpenAI's prompt_tokens).
    usage.inputTokens = uncached + (usage.cacheReadTokens ?? 0) + (usage.cacheWriteTokens ?? 0);
    sawUsage = true;
  };

  try {
    for await (const record of parseSse(body, signal)) {
      if (!record.data.trim()) continue;
      let ev: Record<string, unknown>;
      try {
        ev = JSON.parse(record.data) as Record<string, unknown>;
      } catch {
        throw malformed(ctx, `the stream carried data that is not JSON: ${record.data.slice(0, 120)}`);
      }
      if (!ev || typeof ev !== 'object') throw malformed(ctx, `the stream carried unexpected data: ${record.data.slice(0, 120)}`);
      const type = (ev.type as string | undefined) ?? record.event;

      if (type === 'message_start') {
        takeUsage((ev.message as Record<string, unknown> | undefined)?.usage);
      } else if (type === 'content_block_start') {
        const block = (ev.content_block ?? {}) as Record<string, unknown>;
        if (block.type === 'tool_use') {
          const ordinal = tools.size;
          tools.set(Number(ev.index), { ordinal, sentArgs: false });
          yield { type: 'tool_call', index: ordinal, id: String(block.id ?? ''), name: String(block.name ?? '') };
        } else if (block.type === 'text' && typeof block.text === 'string' && block.text) {
          yield { type: 'text', text: block.text };
        } else if (block.type === 'thinking' && typeof block.thinking === 'string' && block.thinking) {
          yield { type: 'reasoning', text: block.thinking };
        }
      } else if (type === 'content_block_delta') {
        const delta = (ev.delta ?? {}) as Record<string, unknown>;
        if (delta.type === 'text_delta' && typeof delta.text === 'string' && delta.text) {
          yield { type: 'text', text: delta.text };
        } else if (delta.type === 'thinking_delta' && typeof delta.thinking === 'string' && delta.thinking) {
          yield { type: 'reasoning', text: delta.thinking };
        } else if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string' && delta.partial_json) {
          const tool = tools.get(Number(ev.index));
          if (tool) {
            tool.sentArgs = true;
            yield { type: 'tool_call', index: tool.ordinal, arguments: delta.partial_json };
          }
        }
      } else if (type === 'content_block_stop') {
        // A call without parameters streams no JSON at all; give the consumer valid JSON.
        const tool = tools.get(Number(ev.index));
        if (tool && !tool.sentArgs) {
          tool.sentArgs = true;
          yield { type: 'tool_call', index: tool.ordinal, arguments: '{}' };
        }
      } else if (type === 'message_delta') {
        takeUsage(ev.usage);
        const reason = (ev.delta as Record<string, unknown> | undefined)?.stop_reason;
        if (typeof reason === 'string' && reason) yield { type: 'finish', reason: STOP_REASONS[reason] ?? reason };
      } else if (type === 'message_stop') {
        stopped = true;
        break;
      } else if (type === 'error') {
        throw streamError(ctx, model, ev.error);
      }
      // `ping` and block types we don't surface (signatures, redacted thinking) are skipped.
    }
  } catch (err) {
    ensureNotAborted(signal);
    if (err instanceof ProviderError) throw err;
    throw streamCutOff(ctx, err);
  }
  if (!stopped) throw streamCutOff(ctx);
  if (sawUsage) yield usage;
}

/** An `error` event after the 200 (e.g. `overloaded_error`), classified like its HTTP twin. */
function streamError(ctx: ProviderContext, model: string, raw: unknown): ProviderError {
  const e = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const status =
    (
      { authentication_error: 401, permission_error: 403, not_found_error: 404, rate_limit_error: 429, overloaded_error: 529, api_error: 500 } as Record<
        string,
        number
      >
    )[String(e.type)] ?? 400;
  const base = describeHttpFailure(ctx, model, status, JSON.stringify({ error: e }), null);
  const message = redactSecrets(`${ctx.providerId} reported ${String(e.type ?? 'an error')} mid-stream: ${String(e.message ?? 'no message')}`, ctx.apiKey);
  // No HTTP status for the apperror (the answer was a 200), but retries judge it by the one it stands for.
  return new ProviderError(base.type, message, base.codedHint, undefined, base.details, { status });
}

function isNum(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}
