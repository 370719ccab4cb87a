import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { JWT, KEY, leaked } from '../helpers/secrets.js';
import { sidebarSessions, writeStateDb } from '../fixtures/hermes-state-db.js';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

/** state.db with the sidebar fixture plus a CLI conversation whose text names secrets, paths and tool output. */
async function appWithStateDb(): Promise<TestApp> {
  t = await makeTestApp();
  const now = Date.now() / 1000;
  writeStateDb(join(t.hermesHome, 'state.db'), [
    ...sidebarSessions(now),
    {
      id: 'cli_secret',
      source: 'cli',
      title: 'Deploy keys',
      started_at: now - 50,
      messages: [
        { role: 'user', content: `Use ${KEY} and read ${t.hermesHome}/config.yaml`, timestamp: now - 50 },
        { role: 'assistant', content: '', tool_calls: [{ id: 'c1', function: { name: 'terminal', arguments: '{"cmd":"cat secrets"}' } }], timestamp: now - 49 },
        { role: 'tool', content: `token=${JWT}`, tool_call_id: 'c1', tool_name: 'terminal', timestamp: now - 48 },
        { role: 'assistant', content: `Deployed with Bearer ${JWT}`, reasoning: 'thinking about /secret/reasoning', timestamp: now - 47 },
      ],
    },
  ]);
  expect((await t.call('POST', '/api/settings', { show_cli_sessions: true })).status).toBe(200);
  return t;
}

describe("share links for Hermes' own sessions (state.db)", () => {
  it('snapshots one from state.db with the same masking and scrubbing, stores nothing of it as a session, leaves state.db alone', async () => {
    await appWithStateDb();
    const path = join(t.hermesHome, 'state.db');
    const before = { bytes: await readFile(path), mtime: (await stat(path)).mtimeMs };
    const created = await t.call('POST', '/api/share/create', { session_id: 'cli_secret' });
    expect(created.status).toBe(200);
    const share = created.body.share;
    expect(share).toMatchObject({ url: `/share/${share.token}`, title: 'Deploy keys', message_count: 2 });
    expect(created.body.session).toMatchObject({ session_id: 'cli_secret', read_only: true, source_label: 'CLI', share_token: share.token });
    const read = await t.call('GET', `/api/share/${share.token}`);
    const text = JSON.stringify(read.body);
    expect(leaked(text)).toEqual([]);
    expect(text).not.toContain(t.hermesHome);
    expect(text).not.toContain('cat secrets');
    expect(text).not.toContain('/secret/reasoning');
    expect(read.body.share.messages.map((m: any) => m.role)).toEqual(['user', 'assistant']);
    expect(read.body.share.messages[0].content).toContain('<hermes-home>/config.yaml');
    // Still Hermes': not imported, still read-only in the list, its page shows the link.
    expect(await t.deps.sessions.get('cli_secret')).toBeNull();
    const opened = (await t.call('GET', '/api/session?session_id=cli_secret')).body.session;
    expect(opened).toMatchObject({ read_only: true, share_token: share.token, share: { token: share.token } });
    expect((await stat(path)).mtimeMs).toBe(before.mtime);
    expect((await readFile(path)).equals(before.bytes)).toBe(true);
    // Public page, then revoke: gone for anyone with the token.
    expect((await t.call('GET', `/share/${share.token}`)).status).toBe(200);
    const revoked = await t.call('POST', '/api/share/revoke', { session_id: 'cli_secret' });
    expect(revoked.status).toBe(200);
    expect(revoked.body.session.share_token).toBeNull();
    expect((await t.call('GET', `/api/share/${share.token}`)).status).toBe(404);
  });

  it('a compressed conversation is shared whole under its tip, by any segment id; sharing again keeps the link', async () => {
    await appWithStateDb();
    const first = await t.call('POST', '/api/share/create', { session_id: 'cmp_1' });
    expect(first.status).toBe(200);
    expect(first.body.session.session_id).toBe('cmp_3');
    const read = await t.call('GET', `/api/share/${first.body.share.token}`);
    expect(read.body.share.messages.length).toBe(6);
    const again = await t.call('POST', '/api/share/create', { session_id: 'cmp_3' });
    expect(again.body.share.token).toBe(first.body.share.token);
  });

  it('an id neither store knows is the incumbent 404', async () => {
    await appWithStateDb();
    const r = await t.call('POST', '/api/share/create', { session_id: 'nope_nope' });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ error: 'Session not found' });
  });
});
