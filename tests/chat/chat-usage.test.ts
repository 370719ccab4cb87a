import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedAnthropic, type ScriptedServer } from '../fixtures/scripted-anthropic.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';
import { readStream } from '../helpers/sse.js';

const lastAnswer = (messages: any[]) => messages.filter((m) => m.role === 'assistant').at(-1);

describe('GET /api/session/usage with the scripted OpenAI-compatible server', () => {
  let t: ChatHarness;
  afterEach(async () => t?.close());

  it('refuses a missing or bad session_id and an unknown session', async () => {
    t = await makeChatApp();
    const missing = await t.call('GET', '/api/session/usage');
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/session_id/);
    expect((await t.call('GET', '/api/session/usage?session_id=../etc')).status).toBe(400);
    const unknown = await t.call('GET', '/api/session/usage?session_id=nope_0000');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('Session not found');
    // A new session: zero everything, nothing guessed.
    const sid = await t.newSession();
    const fresh = (await t.call('GET', `/api/session/usage?session_id=${sid}`)).body;
    expect(fresh).toMatchObject({ input_tokens: 0, output_tokens: 0, total_tokens: 0, estimated_cost: null, last_prompt_tokens: 0, context_length: null });
  });

  it('adds up what the provider reported (cached tokens, OpenRouter cost), stores it per answer, and knows the window and trigger', async () => {
    t = await makeChatApp({ extraYaml: '  context_length: 100000\n' });
    const sid = await t.newSession();
    t.model.enqueue([{ text: 'First answer.' }, { usage: { inputTokens: 1200, outputTokens: 80, cacheReadTokens: 1000, cost: 0.0042 } }]);
    const frames = await t.stream((await t.start(sid, 'first question')).body.stream_id);
    const metering = frames.find((f) => f.event === 'metering')!.data;
    expect(metering.usage).toMatchObject({ input_tokens: 1200, output_tokens: 80, cost: 0.0042, cache_read_tokens: 1000 });

    // A tool step: two model calls, one turn.
    t.model.enqueue(
      [
        { toolCall: { id: 'call_1', name: 'todo', args: { todos: [{ id: '1', content: 'x', status: 'pending' }] } } },
        { usage: { inputTokens: 1500, outputTokens: 20, cost: 0.001 } },
      ],
      [{ text: 'Second answer.' }, { usage: { inputTokens: 1600, outputTokens: 30, cacheReadTokens: 1400, cost: 0.002 } }],
    );
    await t.stream((await t.start(sid, 'second question')).body.stream_id);

    const usage = (await t.call('GET', `/api/session/usage?session_id=${sid}`)).body;
    expect(usage).toEqual({
      input_tokens: 1200 + 1500 + 1600,
      output_tokens: 80 + 20 + 30,
      total_tokens: 4300 + 130,
      estimated_cost: expect.closeTo(0.0072, 10),
      model: 'test-model',
      cache_read_tokens: 2400,
      cache_write_tokens: 0,
      cache_hit_percent: Math.round((2400 / 4300) * 100),
      last_prompt_tokens: 1600,
      context_length: 100000,
      // Hermes' rule for a window under 512K: 75 % of it (compression-policy.ts).
      threshold_tokens: 75000,
    });

    const { messages } = (await t.call('GET', `/api/session?session_id=${sid}`)).body.session;
    const answers = messages.filter((m: any) => m.role === 'assistant');
    expect(answers).toHaveLength(3);
    expect(answers[0]._turnUsage).toEqual({
      input_tokens: 1200,
      output_tokens: 80,
      estimated_cost: 0.0042,
      cache_read_tokens: 1000,
      cache_write_tokens: 0,
      cache_hit_percent: 83,
    });
    // The tool-call step carries nothing; the final answer carries the whole turn.
    expect(answers[1]._turnUsage).toBeUndefined();
    expect(answers[2]._turnUsage).toEqual({
      input_tokens: 3100,
      output_tokens: 50,
      estimated_cost: expect.closeTo(0.003, 10),
      cache_read_tokens: 1400,
      cache_write_tokens: 0,
      cache_hit_percent: 45,
    });
    expect(answers[2]._usedModel).toBe('test-model');
    expect(typeof answers[2]._turnDuration).toBe('number');
    expect(answers[2]._turnDuration).toBeGreaterThanOrEqual(0);
    if (answers[2]._turnDuration > 0) expect(answers[2]._turnTps).toBeCloseTo(50 / answers[2]._turnDuration, 0);
  });

  it('leaves the cost out when the provider reports none', async () => {
    t = await makeChatApp();
    const sid = await t.newSession();
    t.model.enqueue([{ text: 'No cost.' }, { usage: { inputTokens: 300, outputTokens: 10 } }]);
    await t.stream((await t.start(sid, 'q')).body.stream_id);
    expect((await t.call('GET', `/api/session/usage?session_id=${sid}`)).body.estimated_cost).toBeNull();
    const answer = lastAnswer((await t.call('GET', `/api/session?session_id=${sid}`)).body.session.messages);
    expect(answer._turnUsage).toEqual({ input_tokens: 300, output_tokens: 10, estimated_cost: null });
  });

  it('a manual compression reports the smaller context at once', async () => {
    t = await makeChatApp({ extraYaml: 'compression:\n  protect_first_n: 1\n  protect_last_n: 20\n' });
    const sid = await t.newSession();
    const long = 'lorem ipsum dolor sit amet '.repeat(200);
    for (let i = 1; i <= 3; i++) {
      t.model.enqueue([{ text: `answer ${i}: ${long}` }, { usage: { inputTokens: 4000 * i, outputTokens: 1400 } }]);
      await t.stream((await t.start(sid, `question ${i}`)).body.stream_id);
    }
    expect((await t.call('GET', `/api/session/usage?session_id=${sid}`)).body.last_prompt_tokens).toBe(12000);
    t.model.enqueue([{ text: 'SUMMARY: three questions were answered.' }]);
    const r = await t.call('POST', '/api/session/compress', { session_id: sid });
    expect(r.status).toBe(200);
    expect(r.body.session.last_prompt_tokens).toBeLessThan(12000 / 2);
    expect(r.body.session.last_prompt_tokens).toBeGreaterThan(0);
    const usage = (await t.call('GET', `/api/session/usage?session_id=${sid}`)).body;
    expect(usage.last_prompt_tokens).toBe(r.body.session.last_prompt_tokens);
    expect(r.body.session.post_compression_context_tokens_estimate).toBe(usage.last_prompt_tokens);
  });
});

describe('GET /api/session/usage with the scripted Anthropic server', () => {
  let t: TestApp | null = null;
  let model: ScriptedServer | null = null;
  afterEach(async () => {
    await t?.close();
    await model?.close();
    t = model = null;
  });

  it('counts cache reads and writes into the prompt, as Anthropic reports them apart', async () => {
    model = await startScriptedAnthropic();
    model.setRouter((req) => (JSON.stringify(req.body?.system ?? '').includes('Write a title') ? [{ text: 'A title' }] : undefined));
    t = await makeTestApp({
      configYaml: `model:\n  default: claude-sonnet-4-5\n  provider: anthropic\n  base_url: ${model.url}\n`,
      agentEnv: { ANTHROPIC_API_KEY: 'sk-ant-test' },
    });
    const sid = await t.newSession();
    model.enqueue([{ text: 'Cached answer.' }, { usage: { inputTokens: 200, outputTokens: 40, cacheReadTokens: 1000, cacheWriteTokens: 300 } }]);
    const start = await t.call('POST', '/api/chat/start', { session_id: sid, message: 'hello' });
    const frames = await readStream(await t.app.request(`/api/chat/stream?stream_id=${start.body.stream_id}`));
    expect(frames.find((f) => f.event === 'done')!.data.usage).toMatchObject({
      input_tokens: 1500,
      cache_read_tokens: 1000,
      cache_write_tokens: 300,
      cache_hit_percent: 67,
    });

    const usage = (await t.call('GET', `/api/session/usage?session_id=${sid}`)).body;
    expect(usage).toMatchObject({
      input_tokens: 1500,
      output_tokens: 40,
      total_tokens: 1540,
      estimated_cost: null,
      cache_read_tokens: 1000,
      cache_write_tokens: 300,
      cache_hit_percent: 67,
      last_prompt_tokens: 1500,
      // No context_length configured: the Anthropic default window.
      context_length: 200000,
      threshold_tokens: 150000,
    });
    const answer = lastAnswer((await t.call('GET', `/api/session?session_id=${sid}`)).body.session.messages);
    expect(answer._turnUsage).toEqual({
      input_tokens: 1500,
      output_tokens: 40,
      estimated_cost: null,
      cache_read_tokens: 1000,
      cache_write_tokens: 300,
      cache_hit_percent: 67,
    });
  });
});
