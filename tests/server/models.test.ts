import { afterEach, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/app.js';

describe('GET /api/models', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('answers an empty catalog (200, not an error) when no model is configured', async () => {
    t = await makeTestApp();
    const r = await t.call('GET', '/api/models');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ default_model: null, active_provider: null, models: [], groups: [], fetched_at: null, stale: false });
  });

  it('lists the default model and every custom provider model as custom:<name>:<model>', async () => {
    t = await makeTestApp({
      configYaml: [
        'model:',
        '  default: gpt-5',
        '  provider: openai',
        '  base_url: http://127.0.0.1:9/v1',
        'custom_providers:',
        '  - name: local',
        '    base_url: http://127.0.0.1:1234/v1',
        '    models:',
        '      qwen3-8b: {}',
        '      llama-3:',
        '        context_length: 8192',
        '  - name: lab',
        '    base_url: http://127.0.0.1:5678/v1',
        '    models:',
        '      big: {}',
      ].join('\n'),
    });
    const r = await t.call('GET', '/api/models');
    expect(r.status).toBe(200);
    expect(r.body.default_model).toBe('gpt-5');
    expect(r.body.active_provider).toBe('openai');
    expect(r.body.models).toEqual([
      { id: 'gpt-5', label: 'gpt-5', provider: 'openai' },
      // No probe answered: OpenAI's well-known models are offered beside the configured one.
      { id: 'gpt-5-mini', label: 'gpt-5-mini', provider: 'openai' },
      { id: 'gpt-4.1', label: 'gpt-4.1', provider: 'openai' },
      { id: 'custom:local:qwen3-8b', label: 'qwen3-8b', provider: 'custom:local' },
      { id: 'custom:local:llama-3', label: 'llama-3', provider: 'custom:local' },
      { id: 'custom:lab:big', label: 'big', provider: 'custom:lab' },
    ]);
    expect(r.body.groups.map((g: any) => [g.provider, g.models.map((m: any) => m.id)])).toEqual([
      ['openai', ['gpt-5', 'gpt-5-mini', 'gpt-4.1']],
      ['custom:local', ['custom:local:qwen3-8b', 'custom:local:llama-3']],
      ['custom:lab', ['custom:lab:big']],
    ]);
  });

  it('accepts the short `model: <id>` form, with the provider left to auto-detection', async () => {
    t = await makeTestApp({ configYaml: 'model: anthropic/claude-sonnet-4.6\n' });
    const r = await t.call('GET', '/api/models');
    expect(r.status).toBe(200);
    expect(r.body.default_model).toBe('anthropic/claude-sonnet-4.6');
    expect(r.body.active_provider).toBeNull();
    expect(r.body.groups).toEqual([
      { provider: 'auto', label: 'auto', models: [{ id: 'anthropic/claude-sonnet-4.6', label: 'anthropic/claude-sonnet-4.6' }], source: 'config' },
    ]);
    expect(r.body.models).toEqual([{ id: 'anthropic/claude-sonnet-4.6', label: 'anthropic/claude-sonnet-4.6', provider: 'auto' }]);
  });

  it('reports a config.yaml that does not parse in `error`, with an empty catalog', async () => {
    t = await makeTestApp({ configYaml: 'model: [unclosed\n' });
    const r = await t.call('GET', '/api/models');
    expect(r.status).toBe(200);
    expect(r.body.models).toEqual([]);
    expect(r.body.default_model).toBeNull();
    expect(r.body.error).toMatch(/config\.yaml/);
  });

  it('is never cached', async () => {
    t = await makeTestApp();
    const r = await t.call('GET', '/api/models');
    expect(r.res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('POST /api/default-model', () => {
  it('sets model.default in config.yaml, keeping comments and other keys; the catalog follows', async () => {
    const t = await makeTestApp({
      configYaml: '# my config\nmodel:\n  default: old-model # current\n  provider: custom\n  base_url: http://127.0.0.1:9/v1\nagent:\n  max_turns: 12\n',
    });
    try {
      const r = await t.call('POST', '/api/default-model', { model: 'new-model' });
      expect(r).toMatchObject({ status: 200, body: { ok: true, default_model: 'new-model' } });
      const yaml = await readFile(join(t.hermesHome, 'config.yaml'), 'utf8');
      expect(yaml).toContain('# my config');
      expect(yaml).toContain('default: new-model');
      expect(yaml).toContain('max_turns: 12');
      expect(yaml).not.toContain('old-model');
      expect((await t.call('GET', '/api/models')).body.default_model).toBe('new-model');
      expect((await t.call('POST', '/api/default-model', { model: '  ' })).status).toBe(400);
    } finally {
      await t.close();
    }
  });

  it('a config.yaml that does not parse is refused with 400 and left untouched', async () => {
    const t = await makeTestApp({ configYaml: 'model: [broken' });
    try {
      const r = await t.call('POST', '/api/default-model', { model: 'x' });
      expect(r.status).toBe(400);
      expect(await readFile(join(t.hermesHome, 'config.yaml'), 'utf8')).toBe('model: [broken');
    } finally {
      await t.close();
    }
  });
});
