import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { startScriptedOpenAI, type ScriptedServer } from '../fixtures/scripted-openai.js';

/**
 * `/api/onboarding/*` with the incumbent wizard's bodies (inventory §1.8, api/onboarding.py):
 * its status blocks (`system`, `settings`), `confirm_overwrite` on setup, the status after
 * setup and completion, and its local-network gate.
 */
let t: TestApp;
let model: ScriptedServer;
beforeAll(async () => {
  model = await startScriptedOpenAI();
});
afterAll(async () => model.close());
afterEach(async () => t?.close());

describe('GET /api/onboarding/status', () => {
  it('answers the incumbent fields with its system and settings blocks', async () => {
    t = await makeTestApp({ configYaml: `model:\n  provider: custom\n  default: scripted-model\n  base_url: ${model.url}\n` });
    const r = await t.call('GET', '/api/onboarding/status');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      completed: true,
      onboarding_completed: false,
      hermes_found: true,
      imports_ok: true,
      config_exists: true,
      config_path: join(t.hermesHome, 'config.yaml'),
      default_model: 'scripted-model',
      password_enabled: false,
      bot_name: 'Hermes',
      system: {
        hermes_found: true,
        imports_ok: true,
        missing_modules: [],
        import_errors: {},
        config_path: join(t.hermesHome, 'config.yaml'),
        config_exists: true,
        env_path: join(t.hermesHome, '.env'),
        provider_configured: true,
        chat_ready: true,
        current_provider: 'custom',
        current_model: 'scripted-model',
      },
      settings: { default_model: 'scripted-model', password_enabled: false, bot_name: 'Hermes' },
    });
    expect(typeof r.body.default_workspace).toBe('string');
    expect(r.body.settings.default_workspace).toBe(r.body.default_workspace);
  });

  it('answers the setup, workspaces and models blocks its onboarding.js reads', async () => {
    t = await makeTestApp({ configYaml: `model:\n  provider: custom\n  default: scripted-model\n  base_url: ${model.url}\n` });
    const r = await t.call('GET', '/api/onboarding/status');
    expect(r.body.system).toMatchObject({
      provider_ready: true,
      setup_state: 'ready',
      provider_note_key: 'onboarding_notice_system_ready',
      provider_note_args: [],
      current_base_url: model.url,
    });
    expect(typeof r.body.system.provider_note).toBe('string');
    const setup = r.body.setup;
    expect(setup).toMatchObject({ current_is_oauth: false, current: { provider: 'custom', model: 'scripted-model', base_url: model.url } });
    expect(typeof setup.unsupported_note).toBe('string');
    const custom = setup.providers.find((p: { id: string }) => p.id === 'custom');
    expect(Object.keys(custom).sort()).toEqual(
      [
        'id',
        'label',
        'env_var',
        'default_model',
        'default_base_url',
        'requires_base_url',
        'key_optional',
        'models',
        'category',
        'quick',
        'oauth_provider',
        'oauth_label',
      ].sort(),
    );
    expect(custom).toMatchObject({ requires_base_url: true, key_optional: true, category: 'self_hosted' });
    const openrouter = setup.providers.find((p: { id: string }) => p.id === 'openrouter');
    expect(openrouter).toMatchObject({ env_var: 'OPENROUTER_API_KEY', requires_base_url: false, category: 'easy_start', quick: true });
    for (const m of openrouter.models) expect(Object.keys(m).sort()).toEqual(['id', 'label']);
    // Every provider is in exactly one category, as its optgroups are built from them.
    const listed = setup.categories.flatMap((c: { id: string; label: string; providers: string[] }) => c.providers);
    expect(listed.sort()).toEqual(setup.providers.map((p: { id: string }) => p.id).sort());
    // `workspaces` is what GET /api/workspaces lists, as {items, last}.
    const ws = (await t.call('GET', '/api/workspaces')).body;
    expect(r.body.workspaces).toEqual({ items: ws.workspaces, last: ws.last });
    expect(r.body.workspaces.items).toContainEqual({ path: t.workspace, name: expect.any(String) });
    // `models` is what GET /api/models answers.
    const catalog = (await t.call('GET', '/api/models')).body;
    expect(Object.keys(r.body.models).sort()).toEqual(Object.keys(catalog).sort());
    expect(r.body.models.models).toEqual(catalog.models);
    expect(r.body.models.models).toContainEqual({ id: 'scripted-model', label: 'scripted-model', provider: 'custom' });
  });

  it('names what is missing in setup_state when the provider has no key', async () => {
    t = await makeTestApp({ configYaml: 'model:\n  provider: openrouter\n  default: anthropic/claude-sonnet-4.6\n' });
    const r = await t.call('GET', '/api/onboarding/status');
    expect(r.body.system).toMatchObject({
      provider_configured: true,
      chat_ready: false,
      setup_state: 'provider_incomplete',
      current_base_url: expect.toBeOneOf([null, expect.any(String)]),
    });
    expect(r.body.setup.current).toMatchObject({ provider: 'openrouter', model: 'anthropic/claude-sonnet-4.6' });
  });

  it('says chat is not ready on a fresh HERMES_HOME', async () => {
    t = await makeTestApp();
    const r = await t.call('GET', '/api/onboarding/status');
    expect(r.body).toMatchObject({ completed: false, system: { config_exists: false, provider_configured: false, chat_ready: false } });
  });
});

describe('POST /api/onboarding/setup, /probe, /complete', () => {
  it('takes confirm_overwrite (and fields it does not use) over an existing config.yaml, and answers the status', async () => {
    t = await makeTestApp({ configYaml: '# mine\nagent:\n  max_turns: 7\n' });
    const r = await t.call('POST', '/api/onboarding/setup', {
      provider: 'custom',
      model: 'scripted-model',
      base_url: model.url,
      api_key: '',
      confirm_overwrite: true,
      workspace: t.workspace,
      wizard_step: 3,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ completed: true, system: { chat_ready: true, current_model: 'scripted-model' } });
    // Edited in place: the comment and the other keys stay (so the overwrite needs no confirmation here).
    const text = await readFile(join(t.hermesHome, 'config.yaml'), 'utf8');
    expect(text).toContain('# mine');
    expect(parse(text)).toMatchObject({ agent: { max_turns: 7 }, model: { default: 'scripted-model', provider: 'custom' } });
  });

  it('without confirm_overwrite the setup still applies (nothing is replaced, so there is nothing to confirm)', async () => {
    t = await makeTestApp({ configYaml: 'agent:\n  max_turns: 7\n' });
    const r = await t.call('POST', '/api/onboarding/setup', { provider: 'custom', model: 'scripted-model', base_url: model.url });
    expect(r.status).toBe(200);
    expect(r.body).not.toHaveProperty('requires_confirm');
  });

  it('probe takes the incumbent body with extra fields and answers {ok, models}', async () => {
    t = await makeTestApp();
    const r = await t.call('POST', '/api/onboarding/probe', { provider: 'custom', base_url: model.url, api_key: '', source: 'wizard' });
    expect(r.status).toBe(200);
    expect(r.body.ok).toBe(true);
    expect(Array.isArray(r.body.models)).toBe(true);
  });

  it('complete answers the status, completed', async () => {
    t = await makeTestApp();
    const r = await t.call('POST', '/api/onboarding/complete', {});
    expect(r).toMatchObject({ status: 200, body: { ok: true, completed: true, onboarding_completed: true, system: expect.any(Object) } });
  });

  it('403 from another machine without a password, as the incumbent gates it', async () => {
    t = await makeTestApp({ clientAddress: '203.0.113.9' });
    for (const path of ['/api/onboarding/setup', '/api/onboarding/probe', '/api/onboarding/complete'])
      expect((await t.call('POST', path, { provider: 'custom', model: 'm', base_url: model.url })).status, path).toBe(403);
  });
});
