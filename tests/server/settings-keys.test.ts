import { mkdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { SETTINGS_DEFAULTS, SettingsPatchSchema, type SettingsPatch } from '../../src/shared/settings.js';
import { INCUMBENT_SETTING_KEYS } from '../../src/shared/settings-incumbent.js';

/**
 * Every key POST /api/settings accepts: a value other than its default, what GET answers after
 * it (null: the value itself), and a value of the wrong type. Adding a key to the schema without
 * a row here fails the first test.
 */
type Sample = { value: unknown; read?: unknown; wrong: unknown };
const SAMPLES: Record<keyof SettingsPatch, Sample> = {
  default_workspace: { value: '<ws>', wrong: 42 },
  onboarding_completed: { value: true, wrong: 'yes' },
  send_key: { value: 'ctrl+enter', wrong: true },
  show_token_usage: { value: true, wrong: 1.5 },
  show_tps: { value: true, wrong: 'on' },
  show_thinking: { value: false, wrong: 'off' },
  theme: { value: 'light', wrong: 'neon' },
  skin: { value: 'paper', wrong: 42 },
  font_size: { value: 'large', wrong: 14 },
  bot_name: { value: 'Ada', wrong: ['Ada'] },
  sound_enabled: { value: true, wrong: 'true' },
  notifications_enabled: { value: true, wrong: {} },
  sidebar_density: { value: 'detailed', wrong: 'cozy' },
  pinned_sessions_limit: { value: 7, wrong: '7' },
  auto_scroll_follow: { value: false, wrong: 0.5 },
  render_user_markdown: { value: true, wrong: 'markdown' },
  worklog_details_expanded_default: { value: true, wrong: [] },
  hide_empty_state_suggestions: { value: true, wrong: 'hide' },
  large_text_paste_as_attachment: { value: false, wrong: 'no' },
  session_jump_buttons: { value: true, wrong: 'show' },
  rtl: { value: true, wrong: 'rtl' },
  language: { value: 'fr', wrong: 'français!' },
  default_message_mode: { value: 'queue', wrong: 'shout' },
  check_for_updates: { value: false, wrong: 'never' },
  show_cli_sessions: { value: true, wrong: 'all' },
  show_cron_sessions: { value: true, wrong: 'yes' },
  chat_backend: { value: 'gateway', wrong: 'openai' },
  gateway_base_url: { value: 'http://127.0.0.1:9/', read: 'http://127.0.0.1:9', wrong: 'ftp://x' },
  api_redact_enabled: { value: false, wrong: 'off' },
  tts_engine: { value: 'OpenAI', read: 'openai', wrong: 'edge tts' },
  tts_voice: { value: 'nova', wrong: 5 },
  tts_rate: { value: 1.5, wrong: 'fast' },
  tts_pitch: { value: 0.5, wrong: 3 },
};

/** The incumbent's keys in the types its clients send them (static/panels.js saveSettings and autosave). */
const INCUMBENT_BODY: Record<string, unknown> = {
  ...Object.fromEntries(INCUMBENT_SETTING_KEYS.map((k) => [k, true])),
  auto_title_refresh_every: 5,
  update_channel: 'experimental',
  chat_activity_display_mode: 'transparent_stream',
  structured_code_default_view: 'auto',
  structured_code_auto_tree_lines: 10,
  inflight_state_max_sessions: 8,
  inflight_state_max_messages: 24,
  inflight_state_max_tool_calls: 48,
  inflight_state_max_string_chars: 60000,
  inflight_state_max_json_chars: 1500000,
  voice_silence_ms: 1800,
  hidden_tabs: ['tasks'],
  tab_order: ['skills', 'memory'],
  composer_control_order: ['hide_composer_model'],
  dashboard_plugins: { kanban: true },
  provider_cost_budget: null,
  max_tokens: '4096',
  default_model: 'gpt-5',
  default_model_provider: null,
  busy_input_mode: 'queue',
};

describe('POST /api/settings walks the whole schema', () => {
  let t: TestApp;
  let ws: string;
  beforeAll(async () => {
    t = await makeTestApp({ storage: 'fs' });
    ws = join(t.dir, 'other-ws');
    await mkdir(ws);
  });
  afterAll(async () => {
    await t.close();
  });

  const sampleOf = (key: keyof SettingsPatch) => (SAMPLES[key].value === '<ws>' ? ws : SAMPLES[key].value);

  it('has a sample for every key of the schema, and every sample differs from the default', () => {
    expect(Object.keys(SAMPLES).sort()).toEqual(Object.keys(SettingsPatchSchema.shape).sort());
    for (const [key, s] of Object.entries(SAMPLES)) expect(s.value, key).not.toEqual(SETTINGS_DEFAULTS[key as keyof typeof SETTINGS_DEFAULTS]);
  });

  it.each(Object.keys(SAMPLES) as Array<keyof SettingsPatch>)('%s round-trips through POST, GET and settings.json', async (key) => {
    const r = await t.call('POST', '/api/settings', { [key]: sampleOf(key) });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const expected = key === 'default_workspace' ? await realpath(ws) : (SAMPLES[key].read ?? sampleOf(key));
    expect(r.body[key]).toEqual(expected);
    expect(r.body).not.toHaveProperty('ignored_keys');
    expect((await t.call('GET', '/api/settings')).body[key]).toEqual(expected);
    expect((await t.deps.settings.read())[key]).toEqual(expected);
  });

  it.each(Object.keys(SAMPLES) as Array<keyof SettingsPatch>)('%s of the wrong type is a 400 naming it, and nothing is stored', async (key) => {
    const before = await t.deps.settings.read();
    // With a good value beside it: a refused request stores nothing at all.
    const beside = key === 'font_size' ? { theme: 'system' } : { font_size: 'small' };
    const r = await t.call('POST', '/api/settings', { [key]: SAMPLES[key].wrong, ...beside });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain(key);
    expect(await t.deps.settings.read()).toEqual(before);
  });
});

describe('POST /api/settings with the incumbent clients’ keys', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp({ storage: 'fs' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('accepts every key the incumbent sends, in its types, with ours, and stores only ours', async () => {
    // The two legacy names set our keys (the next tests); the rest is ignored.
    const { busy_input_mode: _mode, activity_feed_expanded_default: _worklog, ...ignoredBody } = INCUMBENT_BODY;
    const r = await t.call('POST', '/api/settings', { ...ignoredBody, theme: 'light', sidebar_density: 'detailed', auto_title_refresh_every: '10' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ theme: 'light', sidebar_density: 'detailed' });
    expect([...r.body.ignored_keys].sort()).toEqual(Object.keys(ignoredBody).sort());
    expect(await t.deps.settings.read()).toEqual({ theme: 'light', sidebar_density: 'detailed' });
    const g = await t.call('GET', '/api/settings');
    for (const key of Object.keys(ignoredBody)) expect(g.body, key).not.toHaveProperty(key);
  });

  it('takes auto_title_refresh_every as the number its autosave sends', async () => {
    const r = await t.call('POST', '/api/settings', { auto_title_refresh_every: 20 });
    expect(r.status).toBe(200);
    expect(r.body.ignored_keys).toEqual(['auto_title_refresh_every']);
  });

  it.each([
    [{ tts_rate: 'fast' }, 'tts_rate'],
    [{ auto_title_refresh_every: 7 }, 'auto_title_refresh_every'],
    [{ hide_composer_mic: 'yes' }, 'hide_composer_mic'],
    [{ hidden_tabs: 'tasks' }, 'hidden_tabs'],
    [{ update_channel: 'nightly' }, 'update_channel'],
  ])('a wrong type for one of its keys, %j, is still a 400 naming it', async (body, key) => {
    const r = await t.call('POST', '/api/settings', { ...body, theme: 'system' });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain(key);
    expect((await t.deps.settings.read()).theme).not.toBe('system');
  });

  it('translates its legacy names: busy_input_mode and activity_feed_expanded_default', async () => {
    const r = await t.call('POST', '/api/settings', { busy_input_mode: 'interrupt', activity_feed_expanded_default: true });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ default_message_mode: 'interrupt', worklog_details_expanded_default: true });
    expect(r.body).not.toHaveProperty('ignored_keys');
    // The current name wins when both are sent.
    const both = await t.call('POST', '/api/settings', { busy_input_mode: 'queue', default_message_mode: 'steer' });
    expect(both.body.default_message_mode).toBe('steer');
  });

  it('maps its retired theme names to dark and the skin each became, unless a skin is sent', async () => {
    const r = await t.call('POST', '/api/settings', { theme: 'nord' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ theme: 'dark', skin: 'slate' });
    const mono = await t.call('POST', '/api/settings', { theme: 'monokai' });
    expect(mono.body).toMatchObject({ theme: 'dark', skin: 'sisyphus' });
    const chosen = await t.call('POST', '/api/settings', { theme: 'solarized', skin: 'mono' });
    expect(chosen.body).toMatchObject({ theme: 'dark', skin: 'mono' });
    expect(await t.deps.settings.read()).toMatchObject({ theme: 'dark', skin: 'mono' });
  });

  it('takes its skin names as it does: trimmed, any case, and an unknown one becomes the default', async () => {
    // Poseidon is one of ours; Hepburn only the incumbent draws (kept, so it shows it again).
    expect((await t.call('POST', '/api/settings', { skin: ' Poseidon ' })).body.skin).toBe('poseidon');
    expect((await t.call('POST', '/api/settings', { skin: 'hepburn' })).body.skin).toBe('hepburn');
    const unknown = await t.call('POST', '/api/settings', { skin: 'no-such-skin' });
    expect(unknown.status).toBe(200);
    expect(unknown.body.skin).toBe('default');
    expect((await t.deps.settings.read()).skin).toBe('default');
  });

  it('ignores a key nobody knows (200, not stored, named in ignored_keys), as the incumbent does', async () => {
    const before = await t.deps.settings.read();
    const r = await t.call('POST', '/api/settings', { not_a_setting: { deep: 1 }, show_tps: true });
    expect(r.status).toBe(200);
    expect(r.body.ignored_keys).toEqual(['not_a_setting']);
    expect(r.body.show_tps).toBe(true);
    expect(await t.deps.settings.read()).toEqual({ ...before, show_tps: true });
  });

  it('accepts its unauthenticated-risk acknowledgement (not stored) and refuses its passwordless switch with 409', async () => {
    const ack = await t.call('POST', '/api/settings', { _auth_disabled_acknowledged: true });
    expect(ack.status).toBe(200);
    expect(ack.body.ignored_keys).toEqual(['_auth_disabled_acknowledged']);
    expect(await t.deps.settings.read()).not.toHaveProperty('auth_disabled_acknowledged');
    expect((await t.call('POST', '/api/settings', { _auth_disabled_acknowledged: 'yes' })).status).toBe(400);
    const before = await t.deps.settings.read();
    const passwordless = await t.call('POST', '/api/settings', { _passwordless: true, rtl: true });
    expect(passwordless.status).toBe(409);
    expect(passwordless.body.error).toMatch(/Passkeys are not supported/);
    expect(await t.deps.settings.read()).toEqual(before);
  });

  it('never lets password_hash be set', async () => {
    const r = await t.call('POST', '/api/settings', { password_hash: 'pbkdf2_sha256$1$x$y' });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('password_hash');
    expect(await t.deps.settings.read()).not.toHaveProperty('password_hash');
  });
});

describe('POST /api/settings with prototype names as keys', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp({ storage: 'memory' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('treats __proto__ and constructor as unknown names: ignored, nothing polluted', async () => {
    const r = await t.call('POST', '/api/settings', '{"__proto__":{"show_tps":true},"constructor":{"prototype":{"x":1}},"rtl":true}');
    expect(r.status).toBe(200);
    // zod's record drops a __proto__ key before the route sees it; constructor arrives and is ignored.
    expect(r.body.ignored_keys).toEqual(['constructor']);
    expect(await t.deps.settings.read()).toEqual({ rtl: true });
    expect(({} as Record<string, unknown>).show_tps).toBeUndefined();
  });
});
