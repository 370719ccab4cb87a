import { stat, readFile, rm, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { FsPushStore } from '../../src/adapters/storage/fs/fs-push-store.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { startPushEndpoint, type PushEndpoint } from '../fixtures/push-endpoint.js';

const LOCAL = { HERMES_WEBUI_PUSH_ALLOW_LOCAL: '1' };

describe('Web Push keys and subscriptions', () => {
  const open: Array<TestApp | PushEndpoint> = [];
  const dirs: string[] = [];
  afterEach(async () => {
    for (const o of open.splice(0)) await o.close();
    for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
  });

  it('generates the VAPID key pair once and keeps it across a restart (0600 files)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hermes-push-'));
    dirs.push(dir);
    const first = await makeTestApp({ storage: 'fs', dir });
    open.push(first);
    const a = await first.call('GET', '/api/push/vapid-public-key');
    expect(a.status).toBe(200);
    const key = Buffer.from(a.body.public_key, 'base64url');
    expect(key.length).toBe(65);
    expect(key[0]).toBe(4);
    expect(a.body.public_key).toMatch(/^[A-Za-z0-9_-]+$/);
    expect((await first.call('GET', '/api/push/vapid-public-key')).body.public_key).toBe(a.body.public_key);
    const file = join(first.stateDir, 'push_vapid.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    await first.close();
    open.pop();

    const second = await makeTestApp({ storage: 'fs', dir });
    open.push(second);
    expect((await second.call('GET', '/api/push/vapid-public-key')).body.public_key).toBe(a.body.public_key);
    expect(JSON.parse(await readFile(file, 'utf8')).private_key).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('validates the PushSubscription JSON and keeps one record per endpoint, per profile', async () => {
    const t = await makeTestApp({ storage: 'fs', env: LOCAL });
    open.push(t);
    const ep = await startPushEndpoint();
    open.push(ep);
    const sub = ep.subscription();

    const bad = async (body: unknown, pattern: RegExp) => {
      const r = await t.call('POST', '/api/push/subscribe', body);
      expect(r.status).toBe(400);
      expect(r.body.error).toMatch(pattern);
    };
    await bad({ keys: sub.keys }, /endpoint/);
    await bad({ endpoint: sub.endpoint }, /keys/);
    await bad({ ...sub, keys: { ...sub.keys, p256dh: Buffer.alloc(64, 4).toString('base64url') } }, /p256dh.*65 bytes/);
    await bad({ ...sub, keys: { ...sub.keys, p256dh: Buffer.alloc(65, 3).toString('base64url') } }, /p256dh/);
    await bad({ ...sub, keys: { ...sub.keys, auth: Buffer.alloc(15).toString('base64url') } }, /auth.*16 bytes/);
    await bad({ ...sub, keys: { ...sub.keys, auth: 'not base64 !!' } }, /auth/);
    await bad({ ...sub, endpoint: 'ftp://127.0.0.1/x' }, /http:\/\/ or https:\/\//);
    await bad('not json', /JSON|json/);

    expect(
      (await t.call('POST', '/api/push/subscribe', sub, { 'User-Agent': 'Mozilla/5.0 (Linux; Android 14) Chrome/131.0 Mobile Safari/537.36' })).body,
    ).toEqual({ ok: true });
    // The same endpoint again replaces the record (new keys win).
    const renewed = { ...sub, keys: { ...sub.keys, auth: Buffer.alloc(16, 9).toString('base64url') } };
    expect((await t.call('POST', '/api/push/subscribe', renewed)).status).toBe(200);
    const stored = await t.deps.push!.store.list();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ endpoint: sub.endpoint, profile: 'default', keys: renewed.keys, expiration_time: null });
    const file = join(t.stateDir, 'push_subscriptions.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8')).subscriptions[0].endpoint).toBe(sub.endpoint);

    expect((await t.call('POST', '/api/push/unsubscribe', {})).status).toBe(400);
    expect((await t.call('POST', '/api/push/unsubscribe', { endpoint: sub.endpoint })).body).toEqual({ ok: true });
    expect(await t.deps.push!.store.list()).toEqual([]);
    // Unsubscribing twice is not an error: the server may have dropped it already (410).
    expect((await t.call('POST', '/api/push/unsubscribe', { endpoint: sub.endpoint })).status).toBe(200);
  });

  it('refuses http, loopback, private and link-local endpoints without HERMES_WEBUI_PUSH_ALLOW_LOCAL', async () => {
    const t = await makeTestApp();
    open.push(t);
    const ep = await startPushEndpoint();
    open.push(ep);
    const keys = ep.subscription().keys;
    const refused = async (endpoint: string, pattern: RegExp) => {
      const r = await t.call('POST', '/api/push/subscribe', { endpoint, expirationTime: null, keys });
      expect(r.status, endpoint).toBe(400);
      expect(r.body.error, endpoint).toMatch(pattern);
    };
    await refused(ep.subscription().endpoint, /must be an https:\/\/ URL/);
    for (const host of [
      '127.0.0.1',
      '[::1]',
      '10.1.2.3',
      '192.168.0.7',
      '172.20.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '[fe80::1]',
      '[fd00::5]',
      'localhost',
      'printer.local',
    ]) {
      await refused(`https://${host}/push/1`, /public address/);
    }
    await refused('https://user:pw@push.example.com/x', /user name or password/);
    expect(await t.deps.push!.store.list()).toEqual([]);
  });

  it('two servers starting on one state dir agree on one key pair', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hermes-push-'));
    dirs.push(dir);
    const [a, b] = await Promise.all([new FsPushStore(dir).vapidKeys(), new FsPushStore(dir).vapidKeys()]);
    expect(a).toEqual(b);
    expect(await new FsPushStore(dir).vapidKeys()).toEqual(a);
  });

  it('answers 501 where the deployment cannot send Web Push (no deps.push, as on Workers)', async () => {
    const t = await makeTestApp();
    open.push(t);
    const app = createApp({ ...t.deps, push: undefined });
    for (const [method, path] of [
      ['GET', '/api/push/vapid-public-key'],
      ['POST', '/api/push/subscribe'],
      ['POST', '/api/push/unsubscribe'],
    ] as const) {
      const res = await app.request(path, { method, headers: { 'Content-Type': 'application/json' }, ...(method === 'POST' ? { body: '{}' } : {}) });
      expect(res.status, path).toBe(501);
      expect((await res.json()).error).toMatch(/Web Push is not available/);
    }
  });

  it('with a password, a browser must send the sign-in CSRF token to subscribe or to answer an approval (as the service worker does)', async () => {
    const t = await makeTestApp({ env: LOCAL });
    open.push(t);
    await t.setPassword('correct horse');
    const { cookie, csrf } = await t.signIn('correct horse');
    const ep = await startPushEndpoint();
    open.push(ep);
    const self = 'http://127.0.0.1:8787';
    const browser = (path: string, body: unknown, token?: string) =>
      t.app.request(self + path, {
        method: 'POST',
        headers: {
          Origin: self,
          'Sec-Fetch-Site': 'same-origin',
          Cookie: cookie,
          'Content-Type': 'application/json',
          ...(token ? { 'X-Hermes-CSRF-Token': token } : {}),
        },
        body: JSON.stringify(body),
      });
    expect((await browser('/api/push/subscribe', ep.subscription())).status).toBe(403);
    expect((await browser('/api/push/subscribe', ep.subscription(), csrf)).status).toBe(200);
    const sid = await (async () => {
      const r = await t.app.request(self + '/api/session/new', {
        method: 'POST',
        headers: { Origin: self, 'Sec-Fetch-Site': 'same-origin', Cookie: cookie, 'X-Hermes-CSRF-Token': csrf, 'Content-Type': 'application/json' },
        body: '{}',
      });
      return ((await r.json()) as { session: { session_id: string } }).session.session_id;
    })();
    const answer = { session_id: sid, approval_id: 'aaaaaaaaaaaaaaaa', choice: 'once' };
    expect((await browser('/api/approval/respond', answer)).status).toBe(403);
    const reached = await browser('/api/approval/respond', answer, csrf);
    expect(reached.status).toBe(404);
    expect(((await reached.json()) as { error: string }).error).toMatch(/Approval request not found/);
  });
});
