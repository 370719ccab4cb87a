import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';
import { createOpenAIProvider } from '../../src/agent/providers/openai.js';
import { createAnthropicProvider } from '../../src/agent/providers/anthropic.js';
import { startScriptedOpenAI, type ScriptedServer } from '../fixtures/scripted-openai.js';
import { startScriptedAnthropic } from '../fixtures/scripted-anthropic.js';
import { collect, request } from './providers/helpers.js';
import type { ReasoningEffort } from '../../src/agent/reasoning.js';
import type { ModelRequest } from '../../src/agent/providers/types.js';

const CONFIG =
  '# shared with the CLI\nmodel:\n  default: anthropic/claude-sonnet-4.6 # the default\n  provider: openrouter\nagent:\n  max_turns: 40 # keep me\ndisplay:\n  compact: true\nunknown_key: [1, 2]\n';

describe('GET|POST /api/reasoning', () => {
  let t: TestApp;
  afterEach(async () => t?.close());
  const configPath = () => join(t.hermesHome, 'config.yaml');

  it('reports the defaults and the efforts the configured model takes', async () => {
    t = await makeTestApp({ configYaml: CONFIG });
    const r = await t.call('GET', '/api/reasoning');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      show_reasoning: true,
      reasoning_effort: '',
      supported_efforts: ['minimal', 'low', 'medium', 'high', 'xhigh', 'max'],
      supports_reasoning_effort: true,
      supports_thinking_toggle: true,
    });
  });

  it('gates on the model asked about: a model without reasoning levels gets none, o3 gets three', async () => {
    t = await makeTestApp({ configYaml: CONFIG });
    const plain = await t.call('GET', '/api/reasoning?model=llama3.2&provider=ollama');
    expect(plain.body).toMatchObject({ supported_efforts: [], supports_reasoning_effort: false, reasoning_effort: '' });
    const o3 = await t.call('GET', '/api/reasoning?model=o3-mini&provider=openai');
    expect(o3.body.supported_efforts).toEqual(['low', 'medium', 'high']);
  });

  it('writes agent.reasoning_effort and display.show_reasoning, keeping comments and unknown keys', async () => {
    t = await makeTestApp({ configYaml: CONFIG });
    const e = await t.call('POST', '/api/reasoning', { effort: 'HIGH' });
    expect(e.status).toBe(200);
    expect(e.body.reasoning_effort).toBe('high');
    const d = await t.call('POST', '/api/reasoning', { display: 'hide' });
    expect(d.body).toMatchObject({ show_reasoning: false, reasoning_effort: 'high' });
    const text = await readFile(configPath(), 'utf8');
    expect(text).toBe(
      '# shared with the CLI\nmodel:\n  default: anthropic/claude-sonnet-4.6 # the default\n  provider: openrouter\nagent:\n  max_turns: 40 # keep me\n  reasoning_effort: high\ndisplay:\n  compact: true\n  show_reasoning: false\nunknown_key: [ 1, 2 ]\n',
    );
    // '' clears the override: the key goes, the provider default applies.
    const cleared = await t.call('POST', '/api/reasoning', { effort: '', display: 'on' });
    expect(cleared.body).toMatchObject({ reasoning_effort: '', show_reasoning: true });
    expect(await readFile(configPath(), 'utf8')).not.toContain('reasoning_effort');
  });

  it('adds the sections to a config that has none', async () => {
    t = await makeTestApp({ configYaml: 'model: gpt-5\n' });
    await t.call('POST', '/api/reasoning', { effort: 'none' });
    expect(await readFile(configPath(), 'utf8')).toBe('model: gpt-5\nagent:\n  reasoning_effort: none\n');
    expect((await t.call('GET', '/api/reasoning')).body.reasoning_effort).toBe('none');
  });

  it('refuses bad input with 400 and an error, and never rewrites a malformed file', async () => {
    t = await makeTestApp({ configYaml: CONFIG });
    for (const body of [{}, { effort: 'extreme' }, { display: 'maybe' }, { effort: 3 }]) {
      const r = await t.call('POST', '/api/reasoning', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(typeof r.body.error).toBe('string');
    }
    expect((await t.call('POST', '/api/reasoning', { effort: 'extreme' })).body.error).toMatch(/none, minimal, low, medium, high, xhigh, max/);
    expect((await t.call('GET', `/api/reasoning?model=${'x'.repeat(300)}`)).status).toBe(400);
    const bad = 'model: [unclosed\n';
    await writeFile(configPath(), bad);
    const r = await t.call('POST', '/api/reasoning', { effort: 'low' });
    expect(r.status).toBe(409);
    expect(r.body.error).toMatch(/not valid YAML/);
    expect(await readFile(configPath(), 'utf8')).toBe(bad);
    expect((await t.call('GET', '/api/reasoning')).status).toBe(409);
  });
});

describe('providers carry the effort', () => {
  let openai: ScriptedServer;
  let anthropic: ScriptedServer;
  beforeAll(async () => {
    openai = await startScriptedOpenAI();
    anthropic = await startScriptedAnthropic();
  });
  afterAll(async () => {
    await openai.close();
    await anthropic.close();
  });

  const openaiBody = async (id: string, baseUrl: string, effort: ReasoningEffort | null) => {
    openai.requests.length = 0;
    openai.enqueue([{ text: 'ok' }]);
    await collect(createOpenAIProvider({ id, baseUrl, apiKey: 'k' }), request({ reasoningEffort: effort }));
    return openai.requests[0]!.body;
  };
  const anthropicBody = async (model: string, effort: ReasoningEffort | null, extra: Partial<ModelRequest> = {}) => {
    anthropic.requests.length = 0;
    anthropic.enqueue([{ text: 'ok' }]);
    await collect(createAnthropicProvider({ id: 'anthropic', baseUrl: anthropic.url, apiKey: 'k' }), request({ model, reasoningEffort: effort, ...extra }));
    return anthropic.requests[0]!.body;
  };

  it('OpenAI-compatible: reasoning_effort (max as xhigh, none and unset send nothing)', async () => {
    expect((await openaiBody('custom', openai.url, 'high')).reasoning_effort).toBe('high');
    expect((await openaiBody('custom', openai.url, 'max')).reasoning_effort).toBe('xhigh');
    expect(await openaiBody('custom', openai.url, 'none')).not.toHaveProperty('reasoning_effort');
    expect(await openaiBody('custom', openai.url, null)).not.toHaveProperty('reasoning_effort');
  });

  it('OpenRouter: the reasoning object, and thinking switched off for none', async () => {
    const high = await openaiBody('openrouter', openai.url, 'medium');
    expect(high.reasoning).toEqual({ enabled: true, effort: 'medium' });
    expect(high).not.toHaveProperty('reasoning_effort');
    expect((await openaiBody('openrouter', openai.url, 'none')).reasoning).toEqual({ enabled: false });
  });

  it('Anthropic: adaptive thinking on 4.6+, a token budget on older models (no temperature, room for the answer)', async () => {
    const adaptive = await anthropicBody('claude-opus-4-7', 'high', { temperature: 0.3 });
    expect(adaptive.thinking).toEqual({ type: 'adaptive' });
    expect(adaptive.output_config).toEqual({ effort: 'high' });
    expect(adaptive).not.toHaveProperty('temperature');
    expect((await anthropicBody('claude-sonnet-4-6', 'xhigh')).output_config).toEqual({ effort: 'max' });
    expect((await anthropicBody('claude-opus-4-7', 'none')).thinking).toEqual({ type: 'disabled' });
    const budget = await anthropicBody('claude-3-7-sonnet-20250219', 'medium', { temperature: 0.3, maxTokens: 4096 });
    expect(budget.thinking).toEqual({ type: 'enabled', budget_tokens: 8000 });
    expect(budget.max_tokens).toBeGreaterThan(8000);
    expect(budget).not.toHaveProperty('temperature');
    const off = await anthropicBody('claude-3-7-sonnet-20250219', 'none', { temperature: 0.3 });
    expect(off).not.toHaveProperty('thinking');
    expect(off.temperature).toBe(0.3);
  });
});

describe('a chat turn carries the configured effort', () => {
  let t: ChatHarness;
  afterEach(async () => t?.close());

  it('an effort set through the route reaches the next model request', async () => {
    t = await makeChatApp();
    const sid = await t.newSession();
    t.model.enqueue([{ text: 'before' }], [{ text: 'after' }]);
    await t.stream((await t.start(sid, 'one')).body.stream_id);
    expect(t.turnRequests()[0]).not.toHaveProperty('reasoning_effort');
    expect((await t.call('POST', '/api/reasoning', { effort: 'low' })).status).toBe(200);
    await t.stream((await t.start(sid, 'two')).body.stream_id);
    expect(t.turnRequests()[1].reasoning_effort).toBe('low');
  });
});
