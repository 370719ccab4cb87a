import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedAnthropic } from '../fixtures/scripted-anthropic.js';
import { startScriptedOpenAI, type ScriptedServer } from '../fixtures/scripted-openai.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { isTitleRequest, TITLE } from '../helpers/chat.js';
import { readStream, type Frame } from '../helpers/sse.js';

const isAnthropicTitle = (req: { body: any }) => JSON.stringify(req.body?.system ?? '').includes('Write a title');

async function turn(t: TestApp, sid: string, message: string): Promise<Frame[]> {
  const r = await t.call('POST', '/api/chat/start', { session_id: sid, message });
  expect(r.status).toBe(200);
  const frames = await readStream(await t.app.request(`/api/chat/stream?stream_id=${r.body.stream_id}`));
  expect(frames.at(-1)!.event).toBe('stream_end');
  return frames;
}

/** Every cache_control marker of an Anthropic request body, with where it sits. */
function anthropicMarkers(body: any): Array<{ at: string; marker: unknown }> {
  const out: Array<{ at: string; marker: unknown }> = [];
  for (const [i, b] of (Array.isArray(body.system) ? body.system : []).entries())
    if (b.cache_control) out.push({ at: `system[${i}]`, marker: b.cache_control });
  for (const [i, m] of body.messages.entries())
    for (const [k, b] of (Array.isArray(m.content) ? m.content : []).entries())
      if (b.cache_control) out.push({ at: `messages[${i}][${k}]`, marker: b.cache_control });
  return out;
}

describe('prompt caching on the Anthropic Messages API (scripted server counting cache hits)', () => {
  let t: TestApp | null = null;
  let model: ScriptedServer | null = null;
  afterEach(async () => {
    await t?.close();
    await model?.close();
    t = model = null;
  });

  async function app(extraYaml = '') {
    model = await startScriptedAnthropic({ promptCache: true });
    model.setRouter((req) => (isAnthropicTitle(req) ? [{ text: 'A title' }] : undefined));
    t = await makeTestApp({
      configYaml: `model:\n  default: claude-sonnet-4-5\n  provider: anthropic\n  base_url: ${model.url}\n${extraYaml}`,
      agentEnv: { ANTHROPIC_API_KEY: 'sk-ant-test' },
    });
    return { t, model };
  }

  it('a 10-turn session (with tool steps) is billed ≥ 70 % from the cache; markers as Hermes places them', async () => {
    const { t, model } = await app();
    await writeFile(join(t.workspace, 'notes.md'), '# Notes\n\nSomething worth reading.\n');
    const sid = await t.newSession();
    for (let n = 1; n <= 10; n++) {
      // Every other turn reads a file first, so steps end in tool results as well as user text.
      if (n % 2) model.enqueue([{ toolCall: { id: `toolu_${n}`, name: 'read_file', args: { path: 'notes.md' } } }], [{ text: `Read it (turn ${n}).` }]);
      else model.enqueue([{ text: `Answer ${n}.` }]);
      const frames = await turn(t, sid, `Question ${n}?`);
      const done = frames.find((f) => f.event === 'done')!.data;
      if (n > 1) expect(done.usage.cache_hit_percent).toBeGreaterThan(50);
      expect(frames.filter((f) => f.event === 'metering').every((f) => typeof f.data.usage.cache_read_tokens === 'number')).toBe(true);
    }

    const turns = model.requests.filter((r) => !isAnthropicTitle(r));
    expect(turns).toHaveLength(15);
    for (const req of turns) {
      const markers = anthropicMarkers(req.body);
      // System prompt plus the last three messages: Anthropic's limit of four.
      expect(markers[0]).toEqual({ at: 'system[0]', marker: { type: 'ephemeral' } });
      expect(markers).toHaveLength(1 + Math.min(3, req.body.messages.length));
    }
    // The title request is one-off: nothing to cache.
    const title = model.requests.find(isAnthropicTitle)!;
    expect(typeof title.body.system).toBe('string');
    expect(anthropicMarkers(title.body)).toEqual([]);

    const s = (await t.call('GET', `/api/session?session_id=${sid}`)).body.session;
    // input_tokens is the whole prompt (uncached + read + written), as the incumbent counts it.
    expect(s.cache_read_tokens / s.input_tokens).toBeGreaterThanOrEqual(0.7);
    expect(s.cache_write_tokens).toBeGreaterThan(0);
  });

  it('prompt_caching.cache_ttl: 1h marks with the hour TTL; cache_ttl: off sends none', async () => {
    {
      const { t, model } = await app('prompt_caching:\n  cache_ttl: 1h\n');
      model.enqueue([{ text: 'hi' }]);
      await turn(t, await t.newSession(), 'hello');
      const req = model.requests.find((r) => !isAnthropicTitle(r))!;
      expect(anthropicMarkers(req.body).map((m) => m.marker)).toEqual([
        { type: 'ephemeral', ttl: '1h' },
        { type: 'ephemeral', ttl: '1h' },
      ]);
      await t.close();
      await model.close();
    }
    const { t, model } = await app('prompt_caching:\n  cache_ttl: off\n');
    model.enqueue([{ text: 'hi' }]);
    await turn(t, await t.newSession(), 'hello');
    const req = model.requests.find((r) => !isAnthropicTitle(r))!;
    expect(typeof req.body.system).toBe('string');
    expect(anthropicMarkers(req.body)).toEqual([]);
  });
});

describe('OpenRouter: Claude gets cache markers in content parts; provider_routing goes out as `provider`', () => {
  let t: TestApp | null = null;
  let model: ScriptedServer | null = null;
  afterEach(async () => {
    await t?.close();
    await model?.close();
    t = model = null;
  });

  async function app(modelId: string, extraYaml = '') {
    model = await startScriptedOpenAI();
    model.setRouter((req) => (isTitleRequest(req) ? [{ text: TITLE }] : undefined));
    t = await makeTestApp({
      configYaml: `model:\n  default: ${modelId}\n  provider: openrouter\n  base_url: ${model.url}\n${extraYaml}`,
      agentEnv: { OPENROUTER_API_KEY: 'sk-or-test' },
    });
    return { t, model };
  }

  const routing =
    'provider_routing:\n  sort: throughput\n  only: [anthropic, bedrock]\n  ignore: [deepinfra]\n  order: [anthropic]\n  require_parameters: true\n  data_collection: deny\n';

  it('anthropic/claude-* : system and the last three messages carry cache_control; routing is sent', async () => {
    const { t, model } = await app('anthropic/claude-sonnet-4.6', routing);
    const sid = await t.newSession();
    model.enqueue([{ text: 'one' }], [{ text: 'two' }]);
    await turn(t, sid, 'first');
    await turn(t, sid, 'second');
    const [, second] = model.requests.filter((r) => !isTitleRequest(r)).map((r) => r.body);
    expect(second.provider).toEqual({
      only: ['anthropic', 'bedrock'],
      ignore: ['deepinfra'],
      order: ['anthropic'],
      sort: 'throughput',
      require_parameters: true,
      data_collection: 'deny',
    });
    const marked = second.messages.map((m: any) => Array.isArray(m.content) && m.content.some((p: any) => p.cache_control));
    // system, user 'first', assistant 'one', user 'second': the system and the last three.
    expect(second.messages.map((m: any) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(marked).toEqual([true, true, true, true]);
    expect(second.messages[3].content).toEqual([{ type: 'text', text: 'second', cache_control: { type: 'ephemeral' } }]);
    // The title request stays plain.
    expect(typeof model.requests.find(isTitleRequest)!.body.messages[0].content).toBe('string');
  });

  it('a model that is not Claude gets no markers, but the routing still', async () => {
    const { t, model } = await app('openai/gpt-5', routing);
    model.enqueue([{ text: 'ok' }]);
    await turn(t, await t.newSession(), 'hello');
    const body = model.requests.find((r) => !isTitleRequest(r))!.body;
    expect(body.messages.every((m: any) => typeof m.content === 'string')).toBe(true);
    expect(body.provider.sort).toBe('throughput');
  });

  it('provider_routing is OpenRouter-only: a custom endpoint never sees `provider`', async () => {
    model = await startScriptedOpenAI();
    model.setRouter((req) => (isTitleRequest(req) ? [{ text: TITLE }] : undefined));
    t = await makeTestApp({ configYaml: `model:\n  default: claude-local\n  provider: custom\n  base_url: ${model.url}\n${routing}` });
    model.enqueue([{ text: 'ok' }]);
    await turn(t, await t.newSession(), 'hello');
    const body = model.requests.find((r) => !isTitleRequest(r))!.body;
    expect(body).not.toHaveProperty('provider');
    expect(body.messages.every((m: any) => typeof m.content === 'string')).toBe(true);
  });
});
