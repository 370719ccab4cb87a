import { afterEach, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { makeTestApp, type TestApp } from '../helpers/app.js';

/**
 * Rows of docs/compat.md marked "Same" that no other compat test drove: sign-in, the default
 * model, personalities and session search, with the incumbent's bodies and answer keys.
 */
let t: TestApp;
afterEach(async () => t?.close());

describe('/api/auth/*', () => {
  it('status answers its keys; login without a password set is {ok, message}', async () => {
    t = await makeTestApp();
    const s = await t.call('GET', '/api/auth/status');
    expect(s.status).toBe(200);
    for (const key of [
      'auth_enabled',
      'logged_in',
      'oidc_enabled',
      'password_auth_enabled',
      'passwordless_enabled',
      'passkeys_enabled',
      'passkeys_count',
      'passkey_feature_flag',
      'auth_disabled_acknowledged',
    ]) {
      expect(s.body, key).toHaveProperty(key);
    }
    // logged_in is true with no password (a documented difference: every caller has full access).
    expect(s.body).toMatchObject({ auth_enabled: false, logged_in: true, passkeys_enabled: false, passwordless_enabled: false });
    expect(await t.call('POST', '/api/auth/login', { password: 'x' })).toMatchObject({ status: 200, body: { ok: true, message: 'Auth not enabled' } });
  });

  it('login: 401 "Invalid password", then {ok} with a cookie; logout {ok}; 429 after 5 misses', async () => {
    t = await makeTestApp();
    await t.setPassword('correct horse battery');
    expect(await t.call('POST', '/api/auth/login', { password: 'wrong', remember: true })).toMatchObject({ status: 401, body: { error: 'Invalid password' } });
    const ok = await t.call('POST', '/api/auth/login', { password: 'correct horse battery' });
    expect(ok).toMatchObject({ status: 200, body: { ok: true } });
    const cookie = (ok.res.headers.get('set-cookie') ?? '').split(';')[0]!;
    expect(cookie).toMatch(/=/);
    expect((await t.call('GET', '/api/auth/status', undefined, { Cookie: cookie })).body).toMatchObject({
      auth_enabled: true,
      logged_in: true,
      password_auth_enabled: true,
    });
    expect(await t.call('POST', '/api/auth/logout', {}, { Cookie: cookie })).toMatchObject({ status: 200, body: { ok: true } });
    expect((await t.call('GET', '/api/auth/status', undefined, { Cookie: cookie })).body.logged_in).toBe(false);
    for (let i = 0; i < 5; i++) await t.call('POST', '/api/auth/login', { password: `miss-${i}` });
    const limited = await t.call('POST', '/api/auth/login', { password: 'correct horse battery' });
    expect(limited.status).toBe(429);
    expect(typeof limited.body.error).toBe('string');
  });
});

describe('POST /api/default-model, /api/models/refresh', () => {
  it('default-model {model, provider} answers {ok, model, provider} and writes model.default', async () => {
    t = await makeTestApp({ configYaml: 'model:\n  provider: openrouter # mine\n  default: a/b\n' });
    const r = await t.call('POST', '/api/default-model', { model: ' openai/gpt-5 ', provider: 'auto', advanced: {} });
    expect(r).toMatchObject({ status: 200, body: { ok: true, model: 'openai/gpt-5', provider: 'openrouter' } });
    const text = await readFile(join(t.hermesHome, 'config.yaml'), 'utf8');
    expect(text).toContain('# mine');
    expect(parse(text).model.default).toBe('openai/gpt-5');
    for (const body of [{}, { model: '  ' }])
      expect(await t.call('POST', '/api/default-model', body)).toMatchObject({ status: 400, body: { error: 'model is required' } });
  });

  it('models/refresh takes {provider} and answers the catalog', async () => {
    t = await makeTestApp();
    const r = await t.call('POST', '/api/models/refresh', { provider: 'openrouter' });
    expect(r.status).toBe(200);
    expect(r.body).toHaveProperty('groups');
    expect(Array.isArray(r.body.models)).toBe(true);
  });
});

describe('/api/personalities, POST /api/personality/set', () => {
  const CONFIG = 'agent:\n  personalities:\n    pirate:\n      system_prompt: Talk like a pirate.\n      tone: salty\n    terse: Be brief.\n';

  it('lists {personalities: [{name, description}]} and sets one as {ok, personality, prompt}', async () => {
    t = await makeTestApp({ configYaml: CONFIG });
    const list = await t.call('GET', '/api/personalities');
    expect(list.status).toBe(200);
    expect(list.body.personalities.map((p: { name: string }) => p.name).sort()).toEqual(['pirate', 'terse']);
    for (const p of list.body.personalities) expect(typeof p.description).toBe('string');
    const sid = await t.newSession();
    const set = await t.call('POST', '/api/personality/set', { session_id: sid, name: 'pirate' });
    expect(set).toMatchObject({ status: 200, body: { ok: true, personality: 'pirate', prompt: 'Talk like a pirate.\nTone: salty' } });
    expect((await t.call('POST', '/api/personality/set', { session_id: sid, name: '' })).body).toEqual({ ok: true, personality: null, prompt: '' });
  });

  it('answers its texts: require() on session_id, a missing name, an unknown one', async () => {
    t = await makeTestApp({ configYaml: CONFIG });
    const sid = await t.newSession();
    expect(await t.call('POST', '/api/personality/set', { name: 'pirate' })).toMatchObject({
      status: 400,
      body: { error: 'Missing required field(s): session_id' },
    });
    expect(await t.call('POST', '/api/personality/set', { session_id: sid })).toMatchObject({ status: 400, body: { error: 'Missing required field: name' } });
    expect(await t.call('POST', '/api/personality/set', { session_id: sid, name: 'ghost' })).toMatchObject({
      status: 404,
      body: { error: 'Personality "ghost" not found in config.yaml' },
    });
  });
});

describe('GET /api/sessions/search', () => {
  it('answers {sessions, query, count, all_profiles, active_profile} with match_type', async () => {
    t = await makeTestApp();
    const sid = await t.newSession();
    await t.call('POST', '/api/session/rename', { session_id: sid, title: 'Kraken migration plan' });
    const r = await t.call('GET', '/api/sessions/search?q=KRAKEN&content=1&depth=5');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ query: 'kraken', count: 1, all_profiles: false });
    expect(typeof r.body.active_profile).toBe('string');
    expect(r.body.sessions[0]).toMatchObject({ session_id: sid, match_type: 'title' });
    const none = await t.call('GET', '/api/sessions/search?q=nothing-like-this');
    expect(none.body).toMatchObject({ sessions: [], count: 0 });
  });
});
