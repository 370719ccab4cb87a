import { afterEach, describe, expect, it } from 'vitest';
import { isPrivateAddress } from '../../src/http/client.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp | null = null;
afterEach(async () => {
  await t?.close();
  t = null;
});

describe('who may open the terminal (a shell is remote code execution)', () => {
  it('classifies nearby addresses', () => {
    for (const a of [
      '127.0.0.1',
      '::1',
      '10.1.2.3',
      '172.16.0.9',
      '172.31.255.1',
      '192.168.1.4',
      '169.254.3.3',
      'fd12::1',
      'fe80::1%eth0',
      '::ffff:192.168.0.2',
    ])
      expect(isPrivateAddress(a), a).toBe(true);
    for (const a of ['8.8.8.8', '172.32.0.1', '100.64.0.1', '2001:db8::1', '::ffff:8.8.8.8', '', 'unknown']) expect(isPrivateAddress(a), a).toBe(false);
  });

  it('refuses a public client without a password, with every endpoint', async () => {
    t = await makeTestApp({ clientAddress: '203.0.113.9' });
    const sid = await t.newSession();
    for (const [method, path, body] of [
      ['POST', '/api/terminal/start', { session_id: sid }],
      ['POST', '/api/terminal/input', { session_id: sid, data: 'id\n' }],
      ['POST', '/api/terminal/resize', { session_id: sid, rows: 30, cols: 90 }],
      ['POST', '/api/terminal/close', { session_id: sid }],
      ['GET', `/api/terminal/output?session_id=${sid}`, undefined],
    ] as const) {
      const r = await t.call(method, path, body);
      expect(r.status, path).toBe(403);
      expect(r.body.error).toMatch(/only from this machine or a private network/);
    }
    expect(t.deps.terminals!.count).toBe(0);
  });

  it('refuses a loopback request relayed by an untrusted proxy', async () => {
    t = await makeTestApp({ clientAddress: '127.0.0.1' });
    const sid = await t.newSession();
    const r = await t.call('POST', '/api/terminal/start', { session_id: sid }, { 'X-Forwarded-For': '198.51.100.7' });
    expect(r.status).toBe(403);
  });

  it('allows a private-network client', async () => {
    t = await makeTestApp({ clientAddress: '192.168.1.20' });
    const sid = await t.newSession();
    const r = await t.call('POST', '/api/terminal/start', { session_id: sid });
    expect(r.status).toBe(200);
    expect(r.body.running).toBe(true);
  });

  it('allows a signed-in browser from anywhere', async () => {
    t = await makeTestApp({ clientAddress: '203.0.113.9' });
    await t.setPassword('terminal password');
    const { cookie, csrf } = await t.signIn('terminal password');
    const headers = { Cookie: cookie, 'X-Hermes-CSRF-Token': csrf, Origin: 'http://localhost' };
    const created = await t.call('POST', '/api/session/new', {}, headers);
    const sid = created.body.session.session_id;
    const r = await t.call('POST', '/api/terminal/start', { session_id: sid }, headers);
    expect(r.status).toBe(200);
    // Without the cookie the sign-in guard answers first.
    expect((await t.call('POST', '/api/terminal/start', { session_id: sid })).status).toBe(401);
  });
});
