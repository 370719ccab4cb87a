import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChatMessage } from '../../../src/agent/messages.js';
import { createOpenAIProvider, redactSecrets, toOpenAIMessages } from '../../../src/agent/providers/openai.js';
import { ProviderError } from '../../../src/agent/providers/types.js';
import { startScriptedOpenAI, type ScriptedServer } from '../../fixtures/scripted-openai.js';
import { collect, failure, providerError, refusedUrl, request, textOf, toolCalls } from './helpers.js';

const KEY = 'sk-test-abcdef1234567890';
let server: ScriptedServer;

beforeAll(async () => {
  server = await startScriptedOpenAI();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  server.setFallback(null);
  expect(server.pending()).toBe(0); // the previous test consumed its scripts
});

const provider = (extra: Partial<Parameters<typeof createOpenAIProvider>[0]> = {}) =>
  createOpenAIProvider({ id: 'custom', baseUrl: server.url, apiKey: KEY, keyEnv: 'TEST_API_KEY', ...extra });

describe('toOpenAIMessages', () => {
  it('keeps only the wire keys: reasoning and unknown keys are not sent', () => {
    const messages = [
      { role: 'system', content: 'Be brief.' },
      {
        role: 'assistant',
        content: null,
        reasoning: 'thinking…',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{"p":1}' }, extra: 1 }],
        timestamp: 5,
      },
      { role: 'tool', content: 'ok', tool_call_id: 'c1', name: 'read' },
    ] as unknown as ChatMessage[];
    expect(toOpenAIMessages(messages)).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{"p":1}' } }] },
      { role: 'tool', content: 'ok', tool_call_id: 'c1', name: 'read' },
    ]);
  });
});

describe('OpenAI provider: requests', () => {
  it('posts a streaming chat completion with tools, max_tokens and a Bearer key', async () => {
    server.enqueue([{ text: 'ok' }]);
    await collect(
      provider(),
      request({
        messages: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello', reasoning: 'secret thoughts' },
        ],
        tools: [{ name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } }],
        maxTokens: 512,
        temperature: 0.2,
      }),
    );
    const [req] = server.requests;
    expect(req!.path).toBe('/v1/chat/completions');
    expect(req!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req!.headers['http-referer']).toBeUndefined();
    expect(req!.body).toEqual({
      model: 'test-model',
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello' },
      ],
      stream: true,
      stream_options: { include_usage: true },
      tools: [
        {
          type: 'function',
          function: { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } },
        },
      ],
      max_tokens: 512,
      temperature: 0.2,
    });
  });

  it('sends no Authorization header for keyless servers and omits tools when there are none', async () => {
    server.enqueue([{ text: 'ok' }]);
    await collect(provider({ apiKey: null }), request({ tools: [] }));
    const [req] = server.requests;
    expect(req!.headers.authorization).toBeUndefined();
    expect(req!.body).not.toHaveProperty('tools');
    expect(req!.body).not.toHaveProperty('max_tokens');
  });

  it('adds OpenRouter attribution headers and custom headers', async () => {
    server.enqueue([{ text: 'ok' }]);
    await collect(provider({ id: 'openrouter', headers: { 'X-Extra': 'yes' } }));
    const [req] = server.requests;
    expect(req!.headers['x-title']).toBe('Hermes WebUI');
    expect(req!.headers['http-referer']).toMatch(/^https:\/\//);
    expect(req!.headers['x-extra']).toBe('yes');
  });
});

describe('OpenAI provider: streaming', () => {
  it('streams text deltas in order, then finish', async () => {
    server.enqueue([{ text: 'Hel' }, { text: 'lo, ' }, { text: 'wörld 😀' }, { finish: 'stop' }]);
    const chunks = await collect(provider());
    expect(chunks).toEqual([
      { type: 'text', text: 'Hel' },
      { type: 'text', text: 'lo, ' },
      { type: 'text', text: 'wörld 😀' },
      { type: 'finish', reason: 'stop' },
    ]);
  });

  it('maps reasoning_content and reasoning to reasoning chunks, apart from the text', async () => {
    server.enqueue([{ reasoning: 'Let me ' }, { reasoning: 'think.', field: 'reasoning' }, { text: 'Answer' }]);
    const chunks = await collect(provider());
    expect(textOf(chunks, 'reasoning')).toBe('Let me think.');
    expect(textOf(chunks)).toBe('Answer');
    expect(chunks.filter((c) => c.type === 'reasoning')).toHaveLength(2);
  });

  it('passes tool-call fragments through; concatenated by index they rebuild each call', async () => {
    const args1 = { path: '/tmp/a b.txt', lines: [1, 2, 3], note: 'ünïcode "quoted"' };
    const args2 = { command: 'ls -la' };
    server.enqueue([
      { text: 'Checking.' },
      { toolCall: { id: 'call_1', name: 'read_file', args: args1 } },
      { toolCall: { id: 'call_2', name: 'terminal', args: args2 } },
    ]);
    const chunks = await collect(provider());
    const fragments = chunks.filter((c) => c.type === 'tool_call');
    expect(fragments.length).toBeGreaterThan(4); // really fragmented, not one chunk per call
    expect(fragments.filter((c) => c.type === 'tool_call' && c.name)).toHaveLength(2);
    const calls = toolCalls(chunks);
    expect(calls.map((c) => ({ ...c, arguments: JSON.parse(c.arguments) }))).toEqual([
      { id: 'call_1', name: 'read_file', arguments: args1 },
      { id: 'call_2', name: 'terminal', arguments: args2 },
    ]);
    expect(chunks.at(-1)).toEqual({ type: 'finish', reason: 'tool_calls' });
  });

  it('normalises servers that repeat id/name on every fragment or omit index', async () => {
    const frag = (tc: Record<string, unknown>) => ({
      raw: `data: ${JSON.stringify({ choices: [{ index: 0, delta: { tool_calls: [tc] }, finish_reason: null }] })}`,
    });
    server.enqueue([
      frag({ id: 'a', type: 'function', function: { name: 'one', arguments: '{"x":' } }),
      frag({ id: 'a', type: 'function', function: { name: 'one', arguments: '1}' } }),
      frag({ id: 'b', type: 'function', function: { name: 'two', arguments: '{}' } }),
      { finish: 'tool_calls' },
    ]);
    const chunks = await collect(provider());
    expect(chunks.filter((c) => c.type === 'tool_call')).toEqual([
      { type: 'tool_call', index: 0, id: 'a', name: 'one', arguments: '{"x":' },
      { type: 'tool_call', index: 0, arguments: '1}' },
      { type: 'tool_call', index: 1, id: 'b', name: 'two', arguments: '{}' },
    ]);
  });

  it('reports usage once, at the end, with cached tokens and OpenRouter cost', async () => {
    server.enqueue([{ text: 'Hi' }, { finish: 'stop' }, { usage: { inputTokens: 1200, outputTokens: 34, cacheReadTokens: 1024, cost: 0.00042 } }]);
    const chunks = await collect(provider());
    expect(chunks.filter((c) => c.type === 'usage')).toHaveLength(1);
    expect(chunks.at(-1)).toEqual({ type: 'usage', inputTokens: 1200, outputTokens: 34, cacheReadTokens: 1024, cost: 0.00042 });
    expect(chunks.findIndex((c) => c.type === 'finish')).toBeLessThan(chunks.length - 1);
  });

  it('emits no usage chunk when the server sends none', async () => {
    server.enqueue([{ text: 'Hi' }]);
    expect((await collect(provider())).some((c) => c.type === 'usage')).toBe(false);
  });

  it('accepts a stream that has a finish_reason but no [DONE]', async () => {
    server.enqueue([{ text: 'Hi' }, { finish: 'length' }, { end: true }]);
    expect((await collect(provider())).at(-1)).toEqual({ type: 'finish', reason: 'length' });
  });

  it('accepts [DONE] without a finish_reason, supplying one', async () => {
    server.enqueue([
      { raw: `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }] })}` },
      { raw: 'data: [DONE]' },
      { end: true },
    ]);
    expect(await collect(provider())).toEqual([
      { type: 'text', text: 'Hi' },
      { type: 'finish', reason: 'stop' },
    ]);
  });

  it('accepts a server that ignored stream:true and answered one JSON completion', async () => {
    server.enqueue({
      status: 200,
      body: {
        choices: [{ index: 0, message: { role: 'assistant', content: 'Whole answer', reasoning_content: 'hmm' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 5, completion_tokens: 2 },
      },
    });
    expect(await collect(provider())).toEqual([
      { type: 'reasoning', text: 'hmm' },
      { type: 'text', text: 'Whole answer' },
      { type: 'finish', reason: 'stop' },
      { type: 'usage', inputTokens: 5, outputTokens: 2 },
    ]);
  });
});

describe('OpenAI provider: failures', () => {
  it('401 → auth_mismatch naming the key variable; details redact keys', async () => {
    server.enqueue({ status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}. Header was Bearer abc.def.ghijkl` } } });
    const err = await providerError(provider());
    expect(err.type).toBe('auth_mismatch');
    expect(err.status).toBe(401);
    expect(err.hint).toContain('TEST_API_KEY');
    expect(err.message).toContain('Incorrect API key provided');
    expect(`${err.message} ${err.details}`).not.toContain('abcdef1234567890');
    expect(err.details).not.toContain('abc.def.ghijkl');
    expect(err.details).toContain('redacted');
  });

  it('403 → auth_mismatch too, and a keyless provider is told to set one', async () => {
    server.enqueue({ status: 403, body: { error: { message: 'forbidden' } } });
    const err = await providerError(provider({ apiKey: '' }));
    expect(err.type).toBe('auth_mismatch');
    expect(err.hint).toMatch(/needs an API key.*TEST_API_KEY/);
  });

  it('404 → model_not_found with the model in the hint', async () => {
    server.enqueue({ status: 404, body: { error: { message: 'The model `gpt-9` does not exist' } } });
    const err = await providerError(provider(), request({ model: 'gpt-9' }));
    expect(err.type).toBe('model_not_found');
    expect(err.hint).toContain('"gpt-9"');
    expect(err.hint).toContain(server.url);
  });

  it('a 400 whose body says the model is unknown → model_not_found', async () => {
    server.enqueue({ status: 400, body: { error: { message: 'qwen-x is not a valid model ID' } } });
    expect((await providerError(provider(), request({ model: 'qwen-x' }))).type).toBe('model_not_found');
  });

  it('another 400 → error with the provider message', async () => {
    server.enqueue({ status: 400, body: { error: { message: 'messages: too long' } } });
    const err = await providerError(provider());
    expect(err.type).toBe('error');
    expect(err.message).toContain('messages: too long');
  });

  it('429 → rate_limit with Retry-After in the hint', async () => {
    server.enqueue({ status: 429, body: { error: { message: 'slow down' } }, headers: { 'retry-after': '17' } });
    const err = await providerError(provider());
    expect(err.type).toBe('rate_limit');
    expect(err.hint).toContain('17');
    server.enqueue({ status: 429, body: 'Too Many Requests' });
    expect((await providerError(provider())).hint).toMatch(/wait a moment/);
  });

  it('5xx → error "the provider failed; try again", details trimmed to 1,200 chars', async () => {
    server.enqueue({ status: 502, body: `<html>${'bad gateway '.repeat(500)}</html>` });
    const err = await providerError(provider());
    expect(err.type).toBe('error');
    expect(err.status).toBe(502);
    expect(err.hint).toMatch(/the provider failed; try again/i);
    expect(err.details!.length).toBe(1200);
  });

  it('an empty fixture queue fails loudly as a 500, not a hang', async () => {
    const err = await providerError(provider());
    expect(err.type).toBe('error');
    expect(err.message).toContain('no script queued');
  });

  it('connection refused → no_response asking whether the server runs', async () => {
    const url = await refusedUrl();
    const err = await providerError(createOpenAIProvider({ id: 'ollama', baseUrl: url }));
    expect(err.type).toBe('no_response');
    expect(err.hint).toBe(`Is the server at ${url} running and reachable from this machine?`);
    expect(err.message).toContain('ECONNREFUSED');
  });

  it('a socket dropped mid-stream → no_response, after the text that did arrive', async () => {
    server.enqueue([{ text: 'Partial ' }, { text: 'answer' }, { drop: true }]);
    const { chunks, error } = await failure(provider());
    expect(textOf(chunks)).toBe('Partial answer');
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).type).toBe('no_response');
  });

  it('a stream that ends without [DONE] or finish_reason → no_response (truncated)', async () => {
    server.enqueue([{ text: 'Half' }, { end: true }]);
    const err = await providerError(provider());
    expect(err.type).toBe('no_response');
    expect(err.message).toMatch(/stopped mid-answer/);
  });

  it('non-JSON data → error (malformed), pointing at base_url / api_mode', async () => {
    server.enqueue([{ text: 'ok' }, { raw: 'data: {"choices": [' }]);
    const err = await providerError(provider());
    expect(err.type).toBe('error');
    expect(err.hint).toMatch(/base_url and api_mode/);
    expect(err.message).toContain('not JSON');
  });

  it('an {"error": …} chunk mid-stream → error with the provider message', async () => {
    server.enqueue([{ text: 'Hi' }, { streamError: { message: 'Upstream provider overloaded', code: 502 } }]);
    const { chunks, error } = await failure(provider());
    expect(textOf(chunks)).toBe('Hi');
    expect(error).toMatchObject({ name: 'ProviderError', type: 'error' });
    expect((error as ProviderError).message).toContain('Upstream provider overloaded');
  });
});

describe('OpenAI provider: abort', () => {
  it('abort mid-stream stops within 100 ms with an AbortError, not a ProviderError', async () => {
    server.enqueue([{ text: 'first' }, { delayMs: 5000 }, { text: 'never' }]);
    const ac = new AbortController();
    const seen: string[] = [];
    let abortedAt = 0;
    const started = Date.now();
    const run = (async () => {
      for await (const c of provider().stream(request({ signal: ac.signal }))) {
        if (c.type === 'text') seen.push(c.text);
        if (c.type === 'text' && c.text === 'first') {
          abortedAt = Date.now();
          ac.abort();
        }
      }
    })();
    const error = await run.then(
      () => null,
      (e: unknown) => e,
    );
    expect(Date.now() - abortedAt).toBeLessThan(100);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('AbortError');
    expect(seen).toEqual(['first']);
  });

  it('abort while the stream is idle (no consumer pull pending) rejects the next read promptly', async () => {
    server.enqueue([{ text: 'a' }, { delayMs: 5000 }, { text: 'b' }]);
    const ac = new AbortController();
    const it = provider()
      .stream(request({ signal: ac.signal }))
      [Symbol.asyncIterator]();
    expect(await it.next()).toEqual({ done: false, value: { type: 'text', text: 'a' } });
    const next = it.next();
    setTimeout(() => ac.abort(), 20);
    const t0 = Date.now();
    await expect(next).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - t0).toBeLessThan(120);
  });

  it('rethrows a custom abort reason, and an already-aborted signal sends nothing', async () => {
    const ac = new AbortController();
    const reason = new Error('user pressed stop');
    ac.abort(reason);
    const { error } = await failure(provider(), request({ signal: ac.signal }));
    expect(error).toBe(reason);
    expect(server.requests).toHaveLength(0);
  });
});

describe('redactSecrets', () => {
  it('removes sk- keys, Bearer tokens and the configured key', () => {
    const out = redactSecrets('key sk-or-v1-0123456789abcdef, header Bearer eyJhbGciOi.x.y, raw my-own-secret-key', 'my-own-secret-key');
    expect(out).toBe('key sk-[redacted], header Bearer [redacted], raw [redacted]');
  });
});
