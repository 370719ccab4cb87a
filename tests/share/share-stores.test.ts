import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';

const apps: TestApp[] = [];
afterEach(async () => {
  // A second app on a first one's database or folder closes first.
  for (const t of apps.reverse()) await t.close();
  apps.length = 0;
});

async function sharedSession(t: TestApp, text = 'hello there'): Promise<{ id: string; token: string }> {
  const id = await t.newSession();
  await t.deps.sessions.appendMessages(id, [
    { role: 'user', content: text },
    { role: 'assistant', content: 'general kenobi' },
  ]);
  const r = await t.call('POST', '/api/share/create', { session_id: id });
  expect(r.status).toBe(200);
  return { id, token: r.body.share.token };
}

describe('share store on Postgres (two instances)', () => {
  it('a link made on one instance is served and stopped on the other; one live link per session', async () => {
    const a = await makeTestApp({ storage: 'postgres' });
    apps.push(a);
    const b = await makeTestApp({ storage: 'postgres', databaseUrl: a.databaseUrl! });
    apps.push(b);
    const { id, token } = await sharedSession(a);
    const read = await b.call('GET', `/api/share/${token}`);
    expect(read.status).toBe(200);
    expect(read.body.share.messages).toEqual([
      { role: 'user', content: 'hello there' },
      { role: 'assistant', content: 'general kenobi' },
    ]);
    expect((await b.call('GET', `/api/session?session_id=${id}`)).body.session.share_token).toBe(token);
    // Refreshing on B keeps A's token.
    expect((await b.call('POST', '/api/share/create', { session_id: id })).body.share.token).toBe(token);
    expect((await b.call('POST', '/api/share/revoke', { session_id: id })).status).toBe(200);
    expect((await a.call('GET', `/api/share/${token}`)).status).toBe(404);
    expect((await a.app.request(`/share/${token}`)).status).toBe(404);
    expect((await a.call('GET', `/api/session?session_id=${id}`)).body.session.share).toBeNull();
    // The stopped row keeps no transcript.
    expect(await a.deps.shares!.get(token)).toMatchObject({ messages: [], revoked_at: expect.any(Number) });
    expect((await b.deps.shares!.list()).map((r) => r.token)).toEqual([token]);
  });
});

describe('share store in the state dir', () => {
  it('writes the incumbent’s shares/<token>.json and finds the live link again after a restart', async () => {
    const a = await makeTestApp({ storage: 'fs' });
    apps.push(a);
    const { id, token } = await sharedSession(a);
    const file = JSON.parse(await readFile(join(a.stateDir, 'shares', `${token}.json`), 'utf8'));
    expect(file).toMatchObject({ token, source_session_id: id, title: expect.any(String), message_count: 2, revoked_at: null });
    expect(typeof file.created_at).toBe('number');

    const b = await makeTestApp({ storage: 'fs', dir: a.dir });
    apps.push(b);
    expect((await b.call('GET', `/api/session?session_id=${id}`)).body.session.share).toMatchObject({ token });
    expect((await b.call('POST', '/api/share/revoke', { session_id: id })).status).toBe(200);
    expect((await b.call('GET', `/api/share/${token}`)).status).toBe(404);
    expect(await readdir(join(a.stateDir, 'shares'))).toEqual([`${token}.json`]);
  });

  it('serves a link the Python server made (its file, no profile field), and not one it revoked', async () => {
    const t = await makeTestApp({ storage: 'fs' });
    apps.push(t);
    const dir = join(t.stateDir, 'shares');
    await mkdir(dir, { recursive: true });
    const live = 'Incumbent_Token-abcdefgh';
    const dead = 'Revoked_Token-abcdefghij';
    const base = {
      source_session_id: 'old1',
      title: 'From Python',
      messages: [{ role: 'user', content: 'hi' }],
      message_count: 1,
      created_at: 1,
      updated_at: 1,
    };
    await writeFile(join(dir, `${live}.json`), JSON.stringify({ token: live, ...base, revoked_at: null }));
    await writeFile(join(dir, `${dead}.json`), JSON.stringify({ token: dead, ...base, source_session_id: 'old2', revoked_at: 5 }));
    const read = await t.call('GET', `/api/share/${live}`);
    expect(read.status).toBe(200);
    expect(read.body.share).toEqual({ title: 'From Python', messages: [{ role: 'user', content: 'hi' }], message_count: 1, created_at: 1, updated_at: 1 });
    expect((await t.call('GET', `/api/share/${dead}`)).status).toBe(404);
    expect(await t.deps.shares!.forSession('old1')).toMatchObject({ token: live });
    expect(await t.deps.shares!.forSession('old2')).toBeNull();
    expect((await t.deps.shares!.list()).map((r) => r.token).sort()).toEqual([live, dead].sort());
  });
});
