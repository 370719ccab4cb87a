import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src/agent/messages.js';
import { createAnthropicProvider, toAnthropicMessages } from '../../../src/agent/providers/anthropic.js';
import { ProviderError } from '../../../src/agent/providers/types.js';
import { startScriptedAnthropic, type ScriptedServer } from '../../fixtures/scripted-anthropic.js';
import { collect, failure, providerError, refusedUrl, request, textOf, toolCalls } from './helpers.js';

const KEY = 'sk-ant-api03-secretsecretsecret';
let server: ScriptedServer;

beforeAll(async () => {
  server = await startScriptedAnthropic();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  expect(server.pending()).toBe(0);
});

const provider = (extra: Partial<Parameters<typeof createAnthropicProvider>[0]> = {}) =>
  createAnthropicProvider({ id: 'anthropic', baseUrl: server.url, apiKey: KEY, keyEnv: 'ANTHROPIC_API_KEY', ...extra });

const call = (id: string, name: string, args: string) => ({ id, type: 'function' as const, function: { name, arguments: args } });

describe('toAnthropicMessages', () => {
  it('lifts system messages into `system`, joined', () => {
    const out = toAnthropicMessages([
      { role: 'system', content: 'You are Hermes.' },
      { role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
      { role: 'user', content: 'Hi' },
    ]);
    expect(out).toEqual({ system: 'You are Hermes.\n\nBe brief.', messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }] });
  });

  it('turns tool calls into tool_use blocks (bad JSON → {}) and consecutive tool results into one user message', () => {
    const out = toAnthropicMessages([
      { role: 'user', content: 'Look around' },
      {
        role: 'assistant',
        content: 'Sure.',
        reasoning: 'not replayed',
        tool_calls: [call('call_1', 'ls', '{"path":"/tmp"}'), call('call_2', 'read', '{oops')],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'a.txt' },
      { role: 'tool', tool_call_id: 'call_2', content: '' },
      { role: 'assistant', content: 'Done.' },
    ]);
    expect(out.system).toBeUndefined();
    expect(out.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Look around' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Sure.' },
          { type: 'tool_use', id: 'call_1', name: 'ls', input: { path: '/tmp' } },
          { type: 'tool_use', id: 'call_2', name: 'read', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_1', content: 'a.txt' },
          { type: 'tool_result', tool_use_id: 'call_2' },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
    ]);
  });

  it('merges same-role neighbours so roles alternate, dropping empty text', () => {
    const out = toAnthropicMessages([
      { role: 'user', content: 'one' },
      { role: 'user', content: 'two' },
      { role: 'assistant', content: '' },
      { role: 'assistant', content: 'three' },
      { role: 'tool', tool_call_id: 'x', content: 'r' },
      { role: 'user', content: 'four' },
    ]);
    expect(out.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(out.messages[0]!.content).toEqual([
      { type: 'text', text: 'one' },
      { type: 'text', text: 'two' },
    ]);
    expect(out.messages[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'x', content: 'r' },
      { type: 'text', text: 'four' },
    ]);
  });

  it('converts image data URLs to base64 blocks and other URLs to url blocks', () => {
    const out = toAnthropicMessages([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
        ],
      },
    ]);
    expect(out.messages[0]!.content).toEqual([
      { type: 'text', text: 'What is this?' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
    ]);
  });

  it('keeps images a tool returned inside its tool_result, and makes foreign tool ids valid', () => {
    const out = toAnthropicMessages([
      { role: 'assistant', content: null, tool_calls: [call('functions.shot:0', 'shot', '{}')] },
      {
        role: 'tool',
        tool_call_id: 'functions.shot:0',
        content: [
          { type: 'text', text: 'screen' },
          { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,AAAA' } },
        ],
      } as ChatMessage,
    ]);
    expect(out.messages[0]!.content).toEqual([{ type: 'tool_use', id: 'functions_shot_0', name: 'shot', input: {} }]);
    expect(out.messages[1]!.content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'functions_shot_0',
        content: [
          { type: 'text', text: 'screen' },
          { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'AAAA' } },
        ],
      },
    ]);
  });
});

describe('Anthropic provider: requests', () => {
  it('posts to /v1/messages with x-api-key, anthropic-version, system, tools and a default max_tokens', async () => {
    server.enqueue([{ text: 'ok' }]);
    await collect(
      provider(),
      request({
        model: 'claude-sonnet-4-5',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hi' },
        ],
        tools: [{ name: 'read_file', description: 'Read', parameters: { type: 'object', properties: {} } }],
      }),
    );
    const [req] = server.requests;
    expect(req!.path).toBe('/v1/messages');
    expect(req!.headers['x-api-key']).toBe(KEY);
    expect(req!.headers['anthropic-version']).toBe('2023-06-01');
    expect(req!.headers.authorization).toBeUndefined();
    expect(req!.body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 8192,
      system: 'Be brief.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      tools: [{ name: 'read_file', description: 'Read', input_schema: { type: 'object', properties: {} } }],
      stream: true,
    });
  });

  it('takes the base URL with or without /v1, and honours maxTokens', async () => {
    server.enqueue([{ text: 'ok' }]);
    await collect(provider({ baseUrl: server.url.replace(/\/v1$/, '') }), request({ maxTokens: 100 }));
    expect(server.requests[0]!.path).toBe('/v1/messages');
    expect(server.requests[0]!.body.max_tokens).toBe(100);
  });
});

describe('Anthropic provider: streaming', () => {
  it('maps thinking, text, tool_use (by ordinal, not block index), stop reason and usage', async () => {
    const args = { path: '/etc/hosts', limit: 10 };
    server.enqueue([
      { reasoning: 'Need to ' },
      { reasoning: 'read it.' },
      { text: 'Reading ' },
      { text: 'now.' },
      { toolCall: { id: 'toolu_01', name: 'read_file', args } },
      { toolCall: { id: 'toolu_02', name: 'terminal', args: { command: 'uptime' } } },
      { finish: 'tool_calls' },
      { usage: { inputTokens: 900, outputTokens: 55, cacheReadTokens: 800, cacheWriteTokens: 64 } },
    ]);
    const chunks = await collect(provider());
    expect(textOf(chunks, 'reasoning')).toBe('Need to read it.');
    expect(textOf(chunks)).toBe('Reading now.');
    // Blocks 0 (thinking) and 1 (text) precede the calls: their indexes must still be 0 and 1.
    const headers = chunks.filter((c) => c.type === 'tool_call' && c.id);
    expect(headers).toEqual([
      { type: 'tool_call', index: 0, id: 'toolu_01', name: 'read_file' },
      { type: 'tool_call', index: 1, id: 'toolu_02', name: 'terminal' },
    ]);
    expect(toolCalls(chunks).map((c) => JSON.parse(c.arguments))).toEqual([args, { command: 'uptime' }]);
    expect(chunks.slice(-2)).toEqual([
      { type: 'finish', reason: 'tool_calls' },
      // Anthropic's input_tokens (900) leaves the cached parts out; the prompt is all of it.
      { type: 'usage', inputTokens: 900 + 800 + 64, outputTokens: 55, cacheReadTokens: 800, cacheWriteTokens: 64 },
    ]);
    expect(chunks.filter((c) => c.type === 'usage')).toHaveLength(1);
  });

  it('maps end_turn → stop and max_tokens → length', async () => {
    server.enqueue([{ text: 'a' }, { finish: 'stop' }], [{ text: 'b' }, { finish: 'length' }]);
    expect((await collect(provider())).filter((c) => c.type === 'finish')).toEqual([{ type: 'finish', reason: 'stop' }]);
    expect((await collect(provider())).filter((c) => c.type === 'finish')).toEqual([{ type: 'finish', reason: 'length' }]);
  });

  it('gives a parameterless tool call "{}" as its arguments', async () => {
    const ev = (name: string, data: object) => ({ raw: `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}` });
    server.enqueue([
      ev('content_block_start', { index: 0, content_block: { type: 'tool_use', id: 'toolu_x', name: 'get_time', input: {} } }),
      ev('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: '' } }),
      ev('content_block_stop', { index: 0 }),
      { finish: 'tool_calls' },
    ]);
    expect(toolCalls(await collect(provider()))).toEqual([{ id: 'toolu_x', name: 'get_time', arguments: '{}' }]);
  });
});

describe('Anthropic provider: failures', () => {
  it.each([
    [401, 'auth_mismatch'],
    [403, 'auth_mismatch'],
    [404, 'model_not_found'],
    [429, 'rate_limit'],
    [529, 'error'],
  ] as const)('HTTP %i → %s', async (status, type) => {
    server.enqueue({ status, headers: status === 429 ? { 'retry-after': '30' } : {} });
    const err = await providerError(provider(), request({ model: 'claude-nope' }));
    expect(err.type).toBe(type);
    expect(err.status).toBe(status);
    if (type === 'auth_mismatch') expect(err.hint).toContain('ANTHROPIC_API_KEY');
    if (type === 'model_not_found') expect(err.hint).toContain('"claude-nope"');
    if (type === 'rate_limit') expect(err.hint).toContain('30');
    if (status === 529) expect(err.hint).toMatch(/try again/);
    expect(err.details).toContain(`scripted HTTP ${status}`);
  });

  it('an error event mid-stream → ProviderError with the provider message', async () => {
    server.enqueue([{ text: 'Hel' }, { streamError: { type: 'overloaded_error', message: 'Overloaded' } }]);
    const { chunks, error } = await failure(provider());
    expect(textOf(chunks)).toBe('Hel');
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ type: 'error', message: expect.stringContaining('Overloaded') });
  });

  it('a rate_limit_error event is classified as rate_limit', async () => {
    server.enqueue([{ streamError: { type: 'rate_limit_error', message: 'Too many tokens' } }]);
    expect((await providerError(provider())).type).toBe('rate_limit');
  });

  it('a stream without message_stop → no_response', async () => {
    server.enqueue([{ text: 'Half' }, { end: true }]);
    expect((await providerError(provider())).type).toBe('no_response');
  });

  it('a dropped socket → no_response', async () => {
    server.enqueue([{ text: 'Half' }, { drop: true }]);
    const { chunks, error } = await failure(provider());
    expect(textOf(chunks)).toBe('Half');
    expect(error).toMatchObject({ name: 'ProviderError', type: 'no_response' });
  });

  it('non-JSON data → error (malformed)', async () => {
    server.enqueue([{ raw: 'event: content_block_delta\ndata: {nope' }]);
    const err = await providerError(provider());
    expect(err.type).toBe('error');
    expect(err.message).toContain('not JSON');
  });

  it('connection refused → no_response with the base URL in the hint', async () => {
    const url = (await refusedUrl()).replace(/\/v1$/, '');
    const err = await providerError(createAnthropicProvider({ id: 'anthropic', baseUrl: url, apiKey: KEY }));
    expect(err.type).toBe('no_response');
    expect(err.hint).toContain(url);
  });

  it('abort mid-stream stops within 100 ms with an AbortError', async () => {
    server.enqueue([{ text: 'first' }, { delayMs: 5000 }, { text: 'never' }]);
    const ac = new AbortController();
    const it = provider()
      .stream(request({ signal: ac.signal }))
      [Symbol.asyncIterator]();
    expect((await it.next()).value).toEqual({ type: 'text', text: 'first' });
    const next = it.next();
    const t0 = Date.now();
    ac.abort();
    await expect(next).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - t0).toBeLessThan(100);
  });
});
