import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { startScriptedOpenAI, type ScriptedServer } from '../fixtures/scripted-openai.js';

/**
 * Settings → Providers as the incumbent's panel drives it (static/panels.js, api/providers.py):
 * the row fields its cards read, save/remove answers and texts, and its self-hosted preset body.
 */
let t: TestApp;
let model: ScriptedServer;
beforeAll(async () => {
  model = await startScriptedOpenAI();
});
afterAll(async () => model.close());
afterEach(async () => t?.close());

const INCUMBENT_ROW_KEYS = [
  'id',
  'display_name',
  'has_key',
  'configurable',
  'is_self_hosted',
  'base_url',
  'is_plugin_provider',
  'is_oauth',
  'key_source',
  'auth_error',
  'models',
  'models_total',
];

describe('GET /api/providers', () => {
  it('answers {providers, active_provider} with the fields its cards read, models as {id, label}', async () => {
    t = await makeTestApp({
      configYaml: `model:\n  provider: custom\n  default: scripted-model\n  base_url: ${model.url}\ncustom_providers:\n  - name: mine\n    base_url: ${model.url}\n    api_key: sk-abcdefgh\n`,
    });
    const r = await t.call('GET', '/api/providers');
    expect(r.status).toBe(200);
    expect(r.body.active_provider).toBe('custom');
    for (const row of r.body.providers) {
      for (const key of INCUMBENT_ROW_KEYS) expect(row, `${row.id}.${key}`).toHaveProperty(key);
      expect(['none', 'env_file', 'env_var', 'config_yaml', 'oauth']).toContain(row.key_source);
      for (const m of row.models) expect(Object.keys(m).sort()).toEqual(['id', 'label']);
    }
    const mine = r.body.providers.find((p: { id: string }) => p.id === 'custom:mine');
    expect(mine).toMatchObject({ is_custom: true, configurable: false, has_key: true, key_source: 'config_yaml' });
    const active = r.body.providers.find((p: { id: string }) => p.id === 'custom');
    expect(active.models).toContainEqual({ id: 'scripted-model', label: 'scripted-model' });
    expect(active.models_total).toBeGreaterThan(0);
  });
});

describe('POST /api/providers, /api/providers/delete', () => {
  it('saves a key as {ok, provider, display_name, action} and removes it the same way', async () => {
    t = await makeTestApp();
    const saved = await t.call('POST', '/api/providers', { provider: 'OpenAI', api_key: '  sk-test-1234567890 ', source: 'panel' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({ ok: true, provider: 'openai', display_name: 'OpenAI', action: 'updated' });
    expect(await readFile(join(t.hermesHome, '.env'), 'utf8')).toContain('OPENAI_API_KEY=sk-test-1234567890');
    const gone = await t.call('POST', '/api/providers/delete', { provider: 'openai' });
    expect(gone.body).toEqual({ ok: true, provider: 'openai', display_name: 'OpenAI', action: 'removed' });
    expect(await readFile(join(t.hermesHome, '.env'), 'utf8')).not.toContain('sk-test-1234567890');
    // An empty key removes it too, as its set_provider_key(id, None).
    expect((await t.call('POST', '/api/providers', { provider: 'openai', api_key: '' })).body).toMatchObject({ ok: true, action: 'removed' });
  });

  it("answers the incumbent's texts for a missing provider, a short key, a line break and an unknown provider", async () => {
    t = await makeTestApp();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ api_key: 'sk-12345678' }, 'provider is required'],
      [{ provider: 'openai', api_key: 'short' }, 'API key appears too short.'],
      [{ provider: 'openai', api_key: 'sk-1234\n5678' }, 'API key must not contain newline characters.'],
      [{ provider: 'nosuch', api_key: 'sk-12345678' }, "Cannot configure API key for 'nosuch'. This provider does not have a known env var mapping."],
    ];
    for (const [body, error] of cases)
      expect(await t.call('POST', '/api/providers', body), JSON.stringify(body)).toMatchObject({ status: 400, body: { error } });
    expect(await t.call('POST', '/api/providers/delete', {})).toMatchObject({ status: 400, body: { error: 'provider is required' } });
  });
});

describe('POST /api/providers/self-hosted', () => {
  it('takes its preset body {provider, base_url, model, api_key} and makes it the active provider', async () => {
    t = await makeTestApp({ configYaml: '# mine\nagent:\n  max_turns: 7\n' });
    const r = await t.call('POST', '/api/providers/self-hosted', { provider: 'LMStudio', base_url: `${model.url}/`, model: 'scripted-model' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toEqual({ ok: true, provider: 'lmstudio', base_url: model.url, model: 'scripted-model' });
    const config = parse(await readFile(join(t.hermesHome, 'config.yaml'), 'utf8'));
    expect(config).toMatchObject({ agent: { max_turns: 7 }, model: { provider: 'lmstudio', default: 'scripted-model', base_url: model.url } });
  });

  it('answers its texts for what a preset lacks', async () => {
    t = await makeTestApp();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ provider: 'openai', base_url: model.url, model: 'm' }, 'unsupported self-hosted provider: openai'],
      [{ provider: 'ollama', base_url: model.url }, 'model is required'],
      [{ provider: 'ollama', model: 'm' }, 'base_url is required for this provider'],
      [{ provider: 'ollama', model: 'm', base_url: 'ftp://x' }, 'base_url must start with http:// or https://'],
    ];
    for (const [body, error] of cases)
      expect(await t.call('POST', '/api/providers/self-hosted', body), JSON.stringify(body)).toMatchObject({ status: 400, body: { error } });
  });

  it('still takes our named endpoint body {name, base_url, models}', async () => {
    t = await makeTestApp();
    const r = await t.call('POST', '/api/providers/self-hosted', { name: 'lab', base_url: model.url, models: ['scripted-model'] });
    expect(r).toMatchObject({ status: 200, body: { ok: true, provider: { id: 'custom:lab', kind: 'custom' } } });
  });
});
