import { stat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { FsAuthStore } from '../../src/adapters/storage/fs/fs-auth-store.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

const SELF = 'http://127.0.0.1:8787';
const PASSWORD = 'correct horse';
let t: TestApp;
afterEach(async () => t?.close());

/** A request as a browser page of this server makes it. */
function browser(
  app: { request: (url: string, init?: RequestInit) => Response | Promise<Response> },
  method: string,
  path: string,
  opts: { cookie?: string; csrf?: string; body?: unknown; origin?: string } = {},
) {
  const headers: Record<string, string> = { Origin: opts.origin ?? SELF, 'Sec-Fetch-Site': opts.origin && opts.origin !== SELF ? 'cross-site' : 'same-origin' };
  if (opts.cookie) headers.Cookie = opts.cookie;
  if (opts.csrf) headers['X-Hermes-CSRF-Token'] = opts.csrf;
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
  return app.request(SELF + path, { method, headers, ...(opts.body !== undefined ? { body: JSON.stringify(opts.body) } : {}) });
}

describe('auth off (no password)', () => {
  it('lets everything through and says so in status; login answers "Auth not enabled"', async () => {
    t = await makeTestApp();
    expect((await t.call('GET', '/api/sessions')).status).toBe(200);
    const s = await t.call('GET', '/api/auth/status');
    expect(s.body).toMatchObject({ auth_enabled: false, logged_in: true, password_auth_enabled: false, oidc_enabled: false, passkeys_enabled: false });
    expect(s.body).not.toHaveProperty('csrf_token');
    expect((await t.call('POST', '/api/auth/login', { password: 'x' })).body).toEqual({ ok: true, message: 'Auth not enabled' });
  });

  it('sets the first password only from this machine, and signs that browser in', async () => {
    t = await makeTestApp({ clientAddress: '203.0.113.9' });
    const remote = await t.call('POST', '/api/settings', { _set_password: PASSWORD });
    expect(remote.status).toBe(403);
    expect(remote.body.error).toMatch(/only be set from this machine/);
    expect((await t.deps.settings.read()).password_hash).toBeUndefined();
    await t.close();

    t = await makeTestApp();
    // A request relayed by a proxy on loopback is not "this machine".
    const proxied = await t.call('POST', '/api/settings', { _set_password: PASSWORD }, { 'X-Forwarded-For': '198.51.100.7' });
    expect(proxied.status).toBe(403);
    const short = await t.call('POST', '/api/settings', { _set_password: 'short' });
    expect(short.status).toBe(400);
    expect(short.body.error).toMatch(/at least 8 characters/);

    const r = await t.call('POST', '/api/settings', { _set_password: PASSWORD, theme: 'light' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ auth_enabled: true, theme: 'light' });
    expect(JSON.stringify(r.body)).not.toMatch(/pbkdf2|password_hash/);
    const cookie = r.res.headers.get('Set-Cookie')!;
    expect(cookie).toMatch(/^hermes_session=[0-9a-f]{64}\.[0-9a-f]{64}; HttpOnly; SameSite=Lax; Path=\/; Max-Age=2592000$/);
    const stored = (await t.deps.settings.read()).password_hash as string;
    expect(stored).toMatch(/^pbkdf2_sha256\$600000\$/);
    // The new cookie works at once.
    expect((await t.call('GET', '/api/sessions', undefined, { Cookie: cookie.split(';')[0]! })).status).toBe(200);
    expect((await t.call('GET', '/api/sessions')).status).toBe(401);
  });
});

describe('auth on', () => {
  it('answers 401 JSON to the API and redirects pages to /login with the whole target in next=', async () => {
    t = await makeTestApp();
    await t.setPassword(PASSWORD);
    const api = await t.call('GET', '/api/sessions');
    expect(api.status).toBe(401);
    expect(api.body).toEqual({ error: 'Authentication required' });
    for (const [path, next] of [
      ['/', '%2F'],
      ['/session/abc123?x=1&next=//evil.com', '%2Fsession%2Fabc123%3Fx%3D1%26next%3D%2F%2Fevil.com'],
    ] as const) {
      const res = await t.app.request(path, { redirect: 'manual' });
      expect(res.status).toBe(302);
      expect(res.headers.get('Location')).toBe(`/login?next=${next}`);
    }
    // The public part: sign-in page and API, health, the service worker, static files.
    for (const path of ['/api/auth/status', '/health', '/login', '/sw.js', '/manifest.webmanifest', '/assets/app.js', '/icons/icon-192.png']) {
      const res = await t.app.request(path, { redirect: 'manual' });
      expect([200, 404], path).toContain(res.status);
    }
    expect((await t.call('GET', '/api/auth/status')).body).toMatchObject({ auth_enabled: true, logged_in: false });
    // Files, uploads and raw files are not public.
    expect((await t.app.request('/api/file/raw?session_id=abc&path=x')).status).toBe(401);
    expect((await t.app.request('/api/upload', { method: 'POST' })).status).toBe(401);
  });

  it('signs in with the right password only, and the cookie opens the API until logout revokes it', async () => {
    t = await makeTestApp();
    await t.setPassword(PASSWORD);
    const wrong = await t.call('POST', '/api/auth/login', { password: 'wrong horse' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'Invalid password' });
    expect(wrong.res.headers.get('Set-Cookie')).toBeNull();
    expect((await t.call('POST', '/api/auth/login', {})).status).toBe(400);
    expect((await t.call('POST', '/api/auth/login', { password: 42 })).status).toBe(400);

    const { cookie, csrf } = await t.signIn(PASSWORD);
    expect(csrf).toMatch(/^[0-9a-f]{64}$/);
    expect((await t.call('GET', '/api/sessions', undefined, { Cookie: cookie })).status).toBe(200);
    const status = await t.call('GET', '/api/auth/status', undefined, { Cookie: cookie });
    expect(status.body).toMatchObject({ auth_enabled: true, logged_in: true, session_ttl: 2592000 });

    const out = await browser(t.app, 'POST', '/api/auth/logout', { cookie, csrf });
    expect(out.status).toBe(200);
    expect(out.headers.get('Set-Cookie')).toMatch(/^hermes_session=; HttpOnly; SameSite=Lax; Path=\/; Max-Age=0/);
    expect((await t.call('GET', '/api/sessions', undefined, { Cookie: cookie })).status).toBe(401);
    expect((await t.call('POST', '/api/auth/logout')).status).toBe(401);
  });

  it('refuses forged, tampered, unknown and expired cookies', async () => {
    t = await makeTestApp();
    await t.setPassword(PASSWORD);
    let now = Date.now() / 1000;
    const app = createApp({ ...t.deps, clock: { now: () => now } });
    const login = await app.request('/api/auth/login', {
      method: 'POST',
      body: JSON.stringify({ password: PASSWORD }),
      headers: { 'Content-Type': 'application/json' },
    });
    const cookie = login.headers.get('Set-Cookie')!.split(';')[0]!;
    const value = cookie.split('=')[1]!;
    const [token, sig] = value.split('.') as [string, string];
    const get = (c: string) => app.request('/api/sessions', { headers: { Cookie: c } });
    expect((await get(cookie)).status).toBe(200);
    const flip = (s: string) => s.slice(0, -1) + (s.endsWith('0') ? '1' : '0');
    for (const bad of [
      `hermes_session=${token}.${flip(sig)}`,
      `hermes_session=${flip(token)}.${sig}`,
      `hermes_session=${'a'.repeat(64)}.${'b'.repeat(64)}`,
      `hermes_session=${token}`,
      `hermes_session=.${sig}`,
      `hermes_session=${token}.${sig}.x`,
      `other=${value}`,
      `hermes_session=${encodeURIComponent('../../etc/passwd')}`,
    ]) {
      expect((await get(bad)).status, bad).toBe(401);
    }
    now += 30 * 86400 + 1;
    expect((await get(cookie)).status).toBe(401);
  });

  it('honours HERMES_WEBUI_SESSION_TTL, the cookie name and the Secure rules', async () => {
    t = await makeTestApp({ auth: { sessionTtlSeconds: 3600, cookieName: 'hermes_b', trustForwardedProto: true } });
    await t.setPassword(PASSWORD);
    const plain = await t.call('POST', '/api/auth/login', { password: PASSWORD });
    expect(plain.res.headers.get('Set-Cookie')).toMatch(/^hermes_b=.*; Max-Age=3600$/);
    const proxied = await t.call('POST', '/api/auth/login', { password: PASSWORD }, { 'X-Forwarded-Proto': 'https' });
    expect(proxied.res.headers.get('Set-Cookie')).toMatch(/; Secure$/);
    const tls = await t.app.request('https://hermes.example/api/auth/login', {
      method: 'POST',
      body: JSON.stringify({ password: PASSWORD }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(tls.headers.get('Set-Cookie')).toMatch(/; Secure$/);
    await t.close();
    // Without the opt-in, X-Forwarded-Proto is not believed.
    t = await makeTestApp();
    await t.setPassword(PASSWORD);
    const untrusted = await t.call('POST', '/api/auth/login', { password: PASSWORD }, { 'X-Forwarded-Proto': 'https' });
    expect(untrusted.res.headers.get('Set-Cookie')).not.toMatch(/Secure/);
  });

  it('HERMES_WEBUI_PASSWORD wins over settings and cannot be changed through settings', async () => {
    t = await makeTestApp({ auth: { password: 'from the env' } });
    await t.setPassword('from settings');
    expect((await t.call('POST', '/api/auth/login', { password: 'from settings' })).status).toBe(401);
    const { cookie } = await t.signIn('from the env');
    const change = await t.call('POST', '/api/settings', { _set_password: 'new password', _current_password: 'from the env' }, { Cookie: cookie });
    expect(change.status).toBe(409);
    expect(change.body.error).toContain('HERMES_WEBUI_PASSWORD');
    expect((await t.call('GET', '/api/settings', undefined, { Cookie: cookie })).body).toMatchObject({ auth_enabled: true, password_env_var: true });
  });

  it('changes the password only with the current one, signing other browsers out', async () => {
    t = await makeTestApp();
    await t.setPassword(PASSWORD);
    const me = await t.signIn(PASSWORD);
    const other = await t.signIn(PASSWORD);
    // 403 without the current password, as the incumbent refuses it.
    const missing = await t.call('POST', '/api/settings', { _set_password: 'a new password' }, { Cookie: me.cookie });
    expect(missing.status).toBe(403);
    expect(missing.body.error).toMatch(/Current password is required/);
    const wrong = await t.call('POST', '/api/settings', { _set_password: 'a new password', _current_password: 'nope' }, { Cookie: me.cookie });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error).toBe('Current password is incorrect');
    const ok = await t.call('POST', '/api/settings', { _set_password: 'a new password', _current_password: PASSWORD }, { Cookie: me.cookie });
    expect(ok.status).toBe(200);
    expect((await t.call('GET', '/api/sessions', undefined, { Cookie: me.cookie })).status).toBe(200);
    expect((await t.call('GET', '/api/sessions', undefined, { Cookie: other.cookie })).status).toBe(401);
    expect((await t.call('POST', '/api/auth/login', { password: PASSWORD })).status).toBe(401);
    await t.signIn('a new password');
  });

  it('clears the password with the current one (everyone signed out), but not while bound to a public address', async () => {
    t = await makeTestApp({ auth: { publicBind: true } });
    await t.setPassword(PASSWORD);
    const me = await t.signIn(PASSWORD);
    const refused = await t.call('POST', '/api/settings', { _clear_password: true, _current_password: PASSWORD }, { Cookie: me.cookie });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/non-loopback/);
    await t.close();

    t = await makeTestApp();
    await t.setPassword(PASSWORD);
    const again = await t.signIn(PASSWORD);
    const cleared = await t.call('POST', '/api/settings', { _clear_password: true, _current_password: PASSWORD }, { Cookie: again.cookie });
    expect(cleared.status).toBe(200);
    expect(cleared.body.auth_enabled).toBe(false);
    expect((await t.deps.settings.read()).password_hash).toBeNull();
    expect((await t.call('GET', '/api/sessions')).status).toBe(200);
  });
});

describe('login rate limit', () => {
  it('answers 429 after 5 failures in 60 s from one address, even to the right password, until the window passes', async () => {
    t = await makeTestApp();
    await t.setPassword(PASSWORD);
    let now = 1_800_000_000;
    let address = '198.51.100.1';
    const app = createApp({ ...t.deps, clock: { now: () => now }, clientAddress: () => address });
    const login = (password: string) =>
      app.request('/api/auth/login', { method: 'POST', body: JSON.stringify({ password }), headers: { 'Content-Type': 'application/json' } });
    for (let i = 0; i < 5; i++) expect((await login(`wrong ${i}`)).status).toBe(401);
    const limited = await login(PASSWORD);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('Retry-After')).toBe('60');
    expect(await limited.json()).toEqual({ error: 'Too many attempts. Try again in 60 seconds.', retry_after: 60 });
    // Another address is not held up.
    address = '198.51.100.2';
    expect((await login(PASSWORD)).status).toBe(200);
    address = '198.51.100.1';
    now += 30;
    expect((await login(PASSWORD)).status).toBe(429);
    now += 31;
    expect((await login(PASSWORD)).status).toBe(200);
    // Success clears the ledger.
    for (let i = 0; i < 4; i++) expect((await login(`wrong ${i}`)).status).toBe(401);
    expect((await login(PASSWORD)).status).toBe(200);
  });

  it('also counts wrong current passwords in settings', async () => {
    t = await makeTestApp();
    await t.setPassword(PASSWORD);
    const { cookie } = await t.signIn(PASSWORD);
    for (let i = 0; i < 5; i++) {
      expect((await t.call('POST', '/api/settings', { _set_password: 'another password', _current_password: `guess ${i}` }, { Cookie: cookie })).status).toBe(
        403,
      );
    }
    expect((await t.call('POST', '/api/settings', { _set_password: 'another password', _current_password: PASSWORD }, { Cookie: cookie })).status).toBe(429);
  });

  it('is kept on disk (0600, like the keys and sessions) and survives a restart', async () => {
    t = await makeTestApp({ storage: 'fs' });
    await t.setPassword(PASSWORD);
    const { cookie } = await t.signIn(PASSWORD);
    for (let i = 0; i < 5; i++) expect((await t.call('POST', '/api/auth/login', { password: 'nope' })).status).toBe(401);
    expect((await t.call('POST', '/api/auth/login', { password: PASSWORD })).status).toBe(429);

    // A new process: fresh adapter instances over the same state directory.
    const restarted = createApp({ ...t.deps, auth: new FsAuthStore(t.stateDir) });
    const again = await restarted.request('/api/auth/login', {
      method: 'POST',
      body: JSON.stringify({ password: PASSWORD }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(again.status).toBe(429);
    // The signed-in browser is still signed in after the restart.
    expect((await restarted.request('/api/sessions', { headers: { Cookie: cookie } })).status).toBe(200);

    for (const file of ['.signing_key', '.sessions.json', '.login_attempts.json']) {
      expect(((await stat(join(t.stateDir, file))).mode & 0o777).toString(8), file).toBe('600');
    }
    expect((await readFile(join(t.stateDir, '.signing_key'))).length).toBe(32);
    const sessions = JSON.parse(await readFile(join(t.stateDir, '.sessions.json'), 'utf8'));
    expect(Object.keys(sessions)).toContain(cookie.split('=')[1]!.split('.')[0]);
  });
});

describe('incumbent state', () => {
  it('keeps sessions signed in by the Python server and checks its password hash', async () => {
    const { writeFile } = await import('node:fs/promises');
    const { createHmac, pbkdf2Sync, randomBytes } = await import('node:crypto');
    t = await makeTestApp({ storage: 'fs' });
    const signing = randomBytes(32);
    const pbkdf2Key = randomBytes(32);
    await writeFile(join(t.stateDir, '.signing_key'), signing, { mode: 0o600 });
    await writeFile(join(t.stateDir, '.pbkdf2_key'), pbkdf2Key, { mode: 0o600 });
    const token = randomBytes(32).toString('hex');
    await writeFile(join(t.stateDir, '.sessions.json'), JSON.stringify({ [token]: Date.now() / 1000 + 3600 }));
    await t.deps.settings.write({ password_hash: pbkdf2Sync('python password', pbkdf2Key, 600_000, 32, 'sha256').toString('hex') });
    const app = createApp({ ...t.deps, auth: new FsAuthStore(t.stateDir) });
    const sig = createHmac('sha256', signing).update(token).digest('hex');
    expect((await app.request('/api/sessions', { headers: { Cookie: `hermes_session=${token}.${sig}` } })).status).toBe(200);
    // Its older 32-character signatures too.
    expect((await app.request('/api/sessions', { headers: { Cookie: `hermes_session=${token}.${sig.slice(0, 32)}` } })).status).toBe(200);
    const login = await app.request('/api/auth/login', {
      method: 'POST',
      body: JSON.stringify({ password: 'python password' }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(login.status).toBe(200);
    // Its CSRF token derivation matches.
    const csrf = createHmac('sha256', signing).update(`csrf:${token}`).digest('hex');
    const res = await browser(app, 'POST', '/api/session/new', { cookie: `hermes_session=${token}.${sig}`, csrf, body: {} });
    expect(res.status).toBe(200);
  });
});

describe('CSRF', () => {
  it('refuses state-changing requests from another origin with a message about proxy headers, auth on or off', async () => {
    t = await makeTestApp();
    for (const headers of <Record<string, string>[]>[
      { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' },
      { Origin: 'http://127.0.0.1:3000' },
      { Origin: 'null' },
      { Referer: 'https://evil.example/page' },
      { 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Site': 'same-site' },
      // Sec-Fetch-Site is the browser's word; a matching Origin does not outvote it.
      { Origin: SELF, 'Sec-Fetch-Site': 'cross-site' },
    ]) {
      const res = await t.app.request(SELF + '/api/session/new', { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json', ...headers } });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(((await res.json()) as { error: string }).error).toMatch(/^Cross-origin mismatch - check reverse proxy headers/);
    }
    expect((await t.deps.sessions.list()).total).toBe(0);
    // Same origin, by Origin, Referer or Sec-Fetch-Site, and tools that send none of them, pass.
    for (const headers of <Record<string, string>[]>[
      { Origin: SELF },
      { Referer: `${SELF}/session/x` },
      { 'Sec-Fetch-Site': 'same-origin' },
      {},
      { Origin: 'http://127.0.0.1', Host: '127.0.0.1:80' },
    ]) {
      const res = await t.app.request(SELF + '/api/session/new', { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json', ...headers } });
      expect(res.status, JSON.stringify(headers)).toBe(200);
    }
  });

  it('lets a reverse proxy in by HERMES_WEBUI_ALLOWED_ORIGINS or a trusted X-Forwarded-Host', async () => {
    const proxyHeaders = { Origin: 'https://hermes.example.com', Host: '127.0.0.1:8787', 'Sec-Fetch-Site': 'same-origin', 'Content-Type': 'application/json' };
    t = await makeTestApp();
    expect((await t.app.request(SELF + '/api/session/new', { method: 'POST', body: '{}', headers: proxyHeaders })).status).toBe(403);
    expect(
      (await t.app.request(SELF + '/api/session/new', { method: 'POST', body: '{}', headers: { ...proxyHeaders, 'X-Forwarded-Host': 'hermes.example.com' } }))
        .status,
    ).toBe(403);
    await t.close();
    t = await makeTestApp({ auth: { allowedOrigins: ['https://hermes.example.com'] } });
    expect((await t.app.request(SELF + '/api/session/new', { method: 'POST', body: '{}', headers: proxyHeaders })).status).toBe(200);
    await t.close();
    t = await makeTestApp({ auth: { trustForwardedHost: true } });
    expect(
      (await t.app.request(SELF + '/api/session/new', { method: 'POST', body: '{}', headers: { ...proxyHeaders, 'X-Forwarded-Host': 'hermes.example.com' } }))
        .status,
    ).toBe(200);
    // A proxy that passes Host through and ends TLS needs nothing at all.
    await t.close();
    t = await makeTestApp();
    expect(
      (
        await t.app.request('http://hermes.example.com/api/session/new', {
          method: 'POST',
          body: '{}',
          headers: { ...proxyHeaders, Host: 'hermes.example.com' },
        })
      ).status,
    ).toBe(200);
  });

  it('with auth on, a browser must send the session CSRF token; tools without Origin need only the cookie', async () => {
    t = await makeTestApp();
    await t.setPassword(PASSWORD);
    const { cookie, csrf } = await t.signIn(PASSWORD);
    const other = await t.signIn(PASSWORD);
    expect(other.csrf).not.toBe(csrf);
    const missing = await browser(t.app, 'POST', '/api/session/new', { cookie, body: {} });
    expect(missing.status).toBe(403);
    expect(await missing.json()).toEqual({ error: 'Session expired - reload the page' });
    expect((await browser(t.app, 'POST', '/api/session/new', { cookie, csrf: other.csrf, body: {} })).status).toBe(403);
    expect((await browser(t.app, 'POST', '/api/session/new', { cookie, csrf: csrf.toUpperCase(), body: {} })).status).toBe(403);
    expect((await browser(t.app, 'POST', '/api/session/new', { cookie, csrf, body: {} })).status).toBe(200);
    const viaHeader = await t.app.request(SELF + '/api/session/new', {
      method: 'POST',
      body: '{}',
      headers: { 'Content-Type': 'application/json', Origin: SELF, Cookie: cookie, 'X-CSRF-Token': csrf },
    });
    expect(viaHeader.status).toBe(200);
    expect((await t.call('POST', '/api/session/new', {}, { Cookie: cookie })).status).toBe(200);
    // Reads need no token.
    expect((await browser(t.app, 'GET', '/api/sessions', { cookie })).status).toBe(200);
    // Login needs no token (there is no session yet) but must come from this origin.
    expect((await browser(t.app, 'POST', '/api/auth/login', { body: { password: PASSWORD } })).status).toBe(200);
    expect((await browser(t.app, 'POST', '/api/auth/login', { body: { password: PASSWORD }, origin: 'https://evil.example' })).status).toBe(403);
  });
});
