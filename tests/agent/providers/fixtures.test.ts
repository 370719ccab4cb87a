import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedAnthropic } from '../../fixtures/scripted-anthropic.js';
import { startScriptedOpenAI, type ScriptedServer } from '../../fixtures/scripted-openai.js';

let openai: ScriptedServer;
let anthropic: ScriptedServer;
beforeAll(async () => {
  [openai, anthropic] = await Promise.all([startScriptedOpenAI(), startScriptedAnthropic()]);
});
afterAll(() => Promise.all([openai.close(), anthropic.close()]));

const post = (url: string, body: unknown = { model: 'm' }) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** `data:` payloads (and event names) exactly as a client reads them off the wire. */
async function wire(res: Response): Promise<Array<{ event?: string; data: string }>> {
  const text = await res.text();
  return text
    .split('\n\n')
    .filter(Boolean)
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? '';
      return event ? { event, data } : { data };
    });
}

describe('scripted-openai wire format', () => {
  it('streams chat.completion.chunk objects, fragmented tool calls, usage and [DONE]', async () => {
    openai.enqueue([{ text: 'Hi' }, { toolCall: { id: 'c1', name: 'ls', args: { path: '/' } } }, { usage: { inputTokens: 3, outputTokens: 4 } }]);
    const res = await post(`${openai.url}/chat/completions`, { model: 'gpt-x', messages: [] });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const records = await wire(res);
    expect(records.at(-1)).toEqual({ data: '[DONE]' });
    const chunks = records.slice(0, -1).map((r) => JSON.parse(r.data));
    for (const c of chunks) expect(c).toMatchObject({ object: 'chat.completion.chunk', model: 'gpt-x', id: chunks[0].id });
    expect(chunks[0].choices[0]).toEqual({ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null });
    expect(chunks[1].choices[0].delta).toEqual({ content: 'Hi' });
    expect(chunks[2].choices[0].delta.tool_calls[0]).toEqual({ index: 0, id: 'c1', type: 'function', function: { name: 'ls', arguments: '' } });
    const argPieces = chunks.slice(3, -2).map((c) => c.choices[0].delta.tool_calls[0].function.arguments);
    expect(argPieces.length).toBeGreaterThan(1);
    expect(argPieces.join('')).toBe('{"path":"/"}');
    // The finish is inserted before usage, as OpenAI orders them.
    expect(chunks.at(-2).choices[0]).toEqual({ index: 0, delta: {}, finish_reason: 'tool_calls' });
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } });
  });

  it('records requests; answers from the router, then the queue, then the fallback, else a loud 500', async () => {
    openai.requests.length = 0;
    openai.setRouter((req) => (req.body.title ? [{ text: 'routed' }] : undefined));
    openai.setFallback(() => ({ status: 503, body: { error: { message: 'fallback' } } }));
    openai.enqueue([{ text: 'queued' }]);
    const routed = await wire(await post(`${openai.url}/chat/completions`, { title: true }));
    expect(routed.some((r) => r.data.includes('routed'))).toBe(true);
    expect(openai.pending()).toBe(1);
    expect((await wire(await post(`${openai.url}/chat/completions`))).some((r) => r.data.includes('queued'))).toBe(true);
    expect((await post(`${openai.url}/chat/completions`)).status).toBe(503);
    openai.setRouter(null);
    openai.setFallback(null);
    const empty = await post(`${openai.url}/chat/completions`);
    expect(empty.status).toBe(500);
    expect(await empty.text()).toContain('no script queued');
    expect(openai.requests.map((r) => r.body)).toEqual([{ title: true }, { model: 'm' }, { model: 'm' }, { model: 'm' }]);
    expect(openai.requests[0]!.headers['content-type']).toBe('application/json');
  });

  it('a scripted status carries its headers; a reset closes the socket before any byte; both are recorded', async () => {
    const before = openai.requests.length;
    openai.enqueue({ status: 429, headers: { 'Retry-After': '0' } }, { reset: true });
    const limited = await post(`${openai.url}/chat/completions`);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('0');
    expect(await limited.json()).toMatchObject({ error: { message: 'scripted-openai: scripted HTTP 429' } });
    const reset = await post(`${openai.url}/chat/completions`).then(
      () => null,
      (err: any) => err,
    );
    expect(reset?.cause?.code).toBe('UND_ERR_SOCKET');
    expect(openai.requests.length - before).toBe(2);
  });

  it('clear() drops queued scripts', async () => {
    openai.enqueue([{ text: 'a' }], [{ text: 'b' }]);
    openai.clear();
    expect(openai.pending()).toBe(0);
  });
});

describe('scripted-anthropic wire format', () => {
  it('streams the Messages API event sequence with real shapes', async () => {
    anthropic.enqueue([
      { reasoning: 'hm' },
      { text: 'Hi' },
      { toolCall: { id: 'toolu_1', name: 'ls', args: { a: 1 } } },
      { usage: { inputTokens: 10, outputTokens: 5, cacheReadTokens: 2 } },
    ]);
    const records = await wire(await post(`${anthropic.url}/messages`, { model: 'claude-x' }));
    expect(records.map((r) => r.event)).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_delta', // signature_delta closes a thinking block
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      ...Array(records.length - 13).fill('content_block_delta'),
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const data = records.map((r) => JSON.parse(r.data));
    for (const [i, d] of data.entries()) expect(d.type).toBe(records[i]!.event);
    expect(data[0].message).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'claude-x',
      content: [],
      usage: { input_tokens: 10, cache_read_input_tokens: 2 },
    });
    expect(data[2]).toEqual({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } });
    expect(data[4].delta.type).toBe('signature_delta');
    expect(data[7]).toEqual({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hi' } });
    expect(data[9]).toEqual({ type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_1', name: 'ls', input: {} } });
    const json = data.filter((d) => d.delta?.type === 'input_json_delta').map((d) => d.delta.partial_json);
    expect(json.join('')).toBe('{"a":1}');
    expect(data.at(-2)).toEqual({ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 5 } });
  });

  it('answers errors in the Anthropic error shape', async () => {
    anthropic.enqueue({ status: 529 });
    const res = await post(`${anthropic.url}/messages`);
    expect(res.status).toBe(529);
    expect(await res.json()).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'scripted-anthropic: scripted HTTP 529' } });
  });

  it('resets the connection before any byte when scripted to', async () => {
    anthropic.enqueue({ reset: true });
    await expect(post(`${anthropic.url}/messages`)).rejects.toMatchObject({ cause: { code: 'UND_ERR_SOCKET' } });
  });
});
