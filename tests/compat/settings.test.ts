import { afterEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { INCUMBENT_SETTING_KEYS } from '../../src/shared/settings-incumbent.js';

/**
 * `GET/POST /api/settings` as the incumbent's settings panel and scripts use them (inventory
 * §1.10 and §4.3, api/routes.py, api/config.py save_settings): its keys and defaults, unknown
 * keys ignored, its auth fields after a save, its status codes for password changes.
 */
let t: TestApp;
afterEach(async () => t?.close());

/** The incumbent's defaults for the keys both servers keep (api/config.py _SETTINGS_DEFAULTS). */
const SHARED_DEFAULTS = {
  onboarding_completed: false,
  send_key: 'enter',
  show_token_usage: false,
  show_tps: false,
  show_cron_sessions: false,
  check_for_updates: true,
  theme: 'dark',
  font_size: 'default',
  session_jump_buttons: false,
  render_user_markdown: false,
  large_text_paste_as_attachment: true,
  auto_scroll_follow: true,
  worklog_details_expanded_default: false,
  pinned_sessions_limit: 3,
  bot_name: 'Hermes',
  sound_enabled: false,
  rtl: false,
  notifications_enabled: false,
  show_thinking: true,
  api_redact_enabled: true,
  sidebar_density: 'compact',
  default_message_mode: 'steer',
  hide_empty_state_suggestions: false,
};

describe('GET /api/settings', () => {
  it("answers the incumbent's defaults and auth fields, never the password hash", async () => {
    t = await makeTestApp();
    const r = await t.call('GET', '/api/settings');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject(SHARED_DEFAULTS);
    expect(r.body).toMatchObject({
      auth_enabled: false,
      password_auth_enabled: false,
      password_env_var: false,
      passkeys_enabled: false,
      passwordless_enabled: false,
    });
    expect(typeof r.body.default_workspace).toBe('string');
    expect(typeof r.body.webui_version).toBe('string');
    expect(r.body).not.toHaveProperty('password_hash');
  });
});

describe('POST /api/settings', () => {
  it('takes a whole panel save (every incumbent key, default_model among them) and unknown keys: 200, ours stored', async () => {
    t = await makeTestApp();
    const body = {
      theme: 'light',
      send_key: 'ctrl+enter',
      default_model: 'anthropic/claude-sonnet-4.6',
      default_model_provider: 'openrouter',
      skin: 'default',
      language: 'en',
      tts_enabled: false,
      hidden_tabs: [],
      max_tokens: null,
      a_key_from_a_future_version: 42,
    };
    const r = await t.call('POST', '/api/settings', body);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ theme: 'light', send_key: 'ctrl+enter', auth_enabled: false, logged_in: true, auth_just_enabled: false });
    expect(r.body.ignored_keys).toEqual(expect.arrayContaining(['default_model', 'tts_enabled', 'a_key_from_a_future_version']));
    expect(await t.deps.settings.read()).toEqual({ theme: 'light', send_key: 'ctrl+enter', skin: 'default', language: 'en' });
    expect(INCUMBENT_SETTING_KEYS).toContain('default_model');
  });

  it('legacy busy_input_mode and activity_feed_expanded_default set their new names, as the incumbent migrates them', async () => {
    t = await makeTestApp();
    const r = await t.call('POST', '/api/settings', { busy_input_mode: 'queue', activity_feed_expanded_default: true });
    expect(r.body).toMatchObject({ default_message_mode: 'queue', worklog_details_expanded_default: true });
  });

  it('a first password from this machine signs the browser in: auth_enabled, logged_in, auth_just_enabled', async () => {
    t = await makeTestApp();
    const r = await t.call('POST', '/api/settings', { _set_password: 'a long enough password' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ auth_enabled: true, password_auth_enabled: true, logged_in: true, auth_just_enabled: true });
    expect(r.res.headers.get('Set-Cookie')).toBeTruthy();
  });

  it('403 without or with a wrong current password; 409 when HERMES_WEBUI_PASSWORD decides', async () => {
    t = await makeTestApp();
    await t.setPassword('the first password');
    const me = await t.signIn('the first password');
    const headers = { Cookie: me.cookie, 'X-CSRF-Token': me.csrf };
    const missing = await t.call('POST', '/api/settings', { _set_password: 'another password' }, headers);
    expect(missing.status).toBe(403);
    expect(missing.body.error).toMatch(/Current password is required/);
    const wrong = await t.call('POST', '/api/settings', { _set_password: 'another password', _current_password: 'nope' }, headers);
    expect(wrong).toMatchObject({ status: 403, body: { error: 'Current password is incorrect' } });
    await t.close();
    t = await makeTestApp({ auth: { password: 'from the env' } });
    const env = await t.signIn('from the env');
    const fixed = await t.call(
      'POST',
      '/api/settings',
      { _set_password: 'x'.repeat(12), _current_password: 'from the env' },
      { Cookie: env.cookie, 'X-CSRF-Token': env.csrf },
    );
    expect(fixed.status).toBe(409);
  });
});

describe('GET /api/models, /api/personalities; GET/POST /api/reasoning', () => {
  it('answer the shapes the composer reads; reasoning refuses a body with nothing to set as the incumbent', async () => {
    const { makeChatApp } = await import('../helpers/chat.js');
    const c = await makeChatApp({
      extraYaml: 'agent:\n  personalities:\n    pirate: Talk like a pirate\n    kind:\n      system_prompt: Be kind\n      description: Kind one\n',
    });
    t = c;
    const models = await c.call('GET', '/api/models?freshness=session_visit');
    expect(models.status).toBe(200);
    expect(models.body).toMatchObject({ active_provider: 'custom', default_model: 'test-model', groups: [{ provider: 'custom', models: expect.any(Array) }] });
    expect(models.body.groups[0].models[0]).toMatchObject({ id: expect.any(String), label: expect.any(String) });
    expect((await c.call('GET', '/api/personalities')).body).toEqual({
      personalities: [
        { name: 'pirate', description: 'Talk like a pirate' },
        { name: 'kind', description: 'Kind one' },
      ],
    });
    const status = await c.call('GET', '/api/reasoning?model=test-model&provider=custom&base_url=');
    expect(status.body).toMatchObject({
      show_reasoning: true,
      reasoning_effort: expect.any(String),
      supported_efforts: expect.any(Array),
      supports_reasoning_effort: false,
    });
    expect(await c.call('POST', '/api/reasoning', {})).toMatchObject({ status: 400, body: { error: "reasoning: must supply 'display' or 'effort'" } });
    expect((await c.call('POST', '/api/reasoning', { display: 'bogus' })).status).toBe(400);
    const hide = await c.call('POST', '/api/reasoning', { display: 'hide', model: 'test-model', provider: 'custom', base_url: '' });
    expect(hide).toMatchObject({ status: 200, body: { show_reasoning: false } });
  });
});
