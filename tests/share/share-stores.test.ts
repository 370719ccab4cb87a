import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Miniflare } from 'miniflare';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { D1ShareStore } from '../../src/adapters/storage/d1/d1-shares.js';
import type { D1Database } from '../../src/adapters/storage/d1/d1-types.js';
import { applyMigrations } from '../../src/adapters/storage/d1/migrations.js';
import { buildWorkerDeps, type WorkerEnv } from '../../src/adapters/workers/worker-deps.js';
import type { ShareRecord, ShareStore } from '../../src/ports/share-store.js';
import { MemoryRunJournal } from '../../src/runs/journal.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { KEY, leaked } from '../helpers/secrets.js';

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

/** One workerd for the D1 groups; each database binding is migrated once. */
let mf: Miniflare | undefined;
const migrated = new Map<string, Promise<D1Database>>();
function d1(binding: 'CONTRACT' | 'RACE' | 'APP'): Promise<D1Database> {
  mf ??= new Miniflare({ modules: true, script: 'export default { fetch() { return new Response() } }', d1Databases: ['CONTRACT', 'RACE', 'APP'] });
  let db = migrated.get(binding);
  if (!db) {
    db = mf.getD1Database(binding).then(async (d: D1Database) => {
      await applyMigrations(d);
      return d;
    });
    migrated.set(binding, db);
  }
  return db;
}
afterAll(async () => {
  await mf?.dispose();
});

const record = (token: string, sessionId: string, over: Partial<ShareRecord> = {}): ShareRecord => ({
  token,
  source_session_id: sessionId,
  profile: 'default',
  title: `Shared ${sessionId}`,
  messages: [
    { role: 'user', content: 'hello', timestamp: 1 },
    { role: 'assistant', content: 'hi' },
  ],
  message_count: 2,
  created_at: 100,
  updated_at: 100,
  revoked_at: null,
  ...over,
});

/** What every ShareStore does, whatever keeps it. `open` gives an empty store. */
function describeShareStoreContract(name: string, open: () => Promise<{ store: ShareStore; close?: () => Promise<void> }>) {
  describe(`ShareStore contract: ${name}`, () => {
    let store: ShareStore;
    let close: (() => Promise<void>) | undefined;
    afterEach(async () => {
      await close?.();
      close = undefined;
    });
    const fresh = async () => {
      ({ store, close } = await open());
    };

    it('keeps a record by token and finds it as its session’s live link', async () => {
      await fresh();
      const token = 'Contract_Token-aaaaaaaaaa';
      expect(await store.get(token)).toBeNull();
      expect(await store.forSession('s1')).toBeNull();
      await store.put(record(token, 's1'));
      expect(await store.get(token)).toEqual(record(token, 's1'));
      expect(await store.forSession('s1')).toEqual(record(token, 's1'));
      expect(await store.forSession('s2')).toBeNull();
    });

    it('replaces by token (a refresh), and a revoked record is kept but is no live link', async () => {
      await fresh();
      const token = 'Contract_Token-bbbbbbbbbb';
      await store.put(record(token, 's1'));
      await store.put(record(token, 's1', { title: 'Refreshed', updated_at: 200 }));
      expect(await store.get(token)).toMatchObject({ title: 'Refreshed', updated_at: 200, created_at: 100 });
      await store.put(record(token, 's1', { messages: [], message_count: 0, revoked_at: 300 }));
      expect(await store.forSession('s1')).toBeNull();
      expect(await store.get(token)).toMatchObject({ revoked_at: 300, messages: [] });
      // A new link for the session after the old one stopped.
      const next = 'Contract_Token-cccccccccc';
      await store.put(record(next, 's1', { created_at: 400, updated_at: 400 }));
      expect((await store.forSession('s1'))?.token).toBe(next);
      expect((await store.list()).map((r) => r.token).sort()).toEqual([token, next].sort());
    });
  });
}

const viaApp = (storage: 'memory' | 'fs' | 'postgres') => async () => {
  const t = await makeTestApp({ storage });
  return { store: t.deps.shares!, close: () => t.close() };
};
describeShareStoreContract('memory', viaApp('memory'));
describe('share store on Postgres: a link replaced by another instance', () => {
  it('is stopped in the column and the JSON, its transcript dropped, and never served again', async () => {
    const t = await makeTestApp({ storage: 'postgres' });
    apps.push(t);
    const store = t.deps.shares!;
    await store.put(record('Pg_Replaced-aaaaaaaaaaa', 'replaced', { updated_at: 110 }));
    await store.put(record('Pg_Replacer-bbbbbbbbbbb', 'replaced', { updated_at: 120 }));
    expect((await store.forSession('replaced'))?.token).toBe('Pg_Replacer-bbbbbbbbbbb');
    expect(await store.get('Pg_Replaced-aaaaaaaaaaa')).toMatchObject({ revoked_at: 120, messages: [], message_count: 0 });
    expect((await t.call('GET', '/api/share/Pg_Replaced-aaaaaaaaaaa')).status).toBe(404);
  });
});

describeShareStoreContract('fs', viaApp('fs'));
describeShareStoreContract('postgres', viaApp('postgres'));
describeShareStoreContract('d1', async () => {
  const db = await d1('CONTRACT');
  await db.prepare('DELETE FROM shares').run();
  return { store: new D1ShareStore(db) };
});

describe('share store on D1 (workerd’s D1 through Miniflare)', () => {
  it('two isolates making a link for one session at once leave exactly one live, the other stopped and emptied', async () => {
    const db = await d1('RACE');
    const a = new D1ShareStore(db);
    const b = new D1ShareStore(db);
    await Promise.all([
      a.put(record('Race_Token-aaaaaaaaaaaa', 'raced', { updated_at: 110 })),
      b.put(record('Race_Token-bbbbbbbbbbbb', 'raced', { updated_at: 120 })),
    ]);
    const live = (await db.prepare("SELECT token FROM shares WHERE session_id = 'raced' AND revoked_at IS NULL").all<{ token: string }>()).results;
    expect(live).toHaveLength(1);
    const winner = live[0]!.token;
    expect((await a.forSession('raced'))?.token).toBe(winner);
    const loser = (await b.list()).find((r) => r.token !== winner)!;
    expect(loser).toMatchObject({ revoked_at: expect.any(Number), messages: [], message_count: 0 });
    // The body agrees with the column, so a copy elsewhere (migrate) keeps it stopped.
    const body = await db.prepare('SELECT body FROM shares WHERE token = ?1').bind(loser.token).first<{ body: string }>();
    expect(JSON.parse(body!.body)).toMatchObject({ revoked_at: loser.revoked_at, messages: [] });
  });

  it('a row damaged outside the app is no link, and the others still list', async () => {
    const db = await d1('RACE');
    await db
      .prepare("INSERT INTO shares (token, session_id, profile, revoked_at, body) VALUES ('Broken_Token-aaaaaaaaaa', 'b', 'default', NULL, 'not json')")
      .run();
    const store = new D1ShareStore(db);
    expect(await store.get('Broken_Token-aaaaaaaaaa')).toBeNull();
    expect(await store.forSession('b')).toBeNull();
    expect((await store.list()).map((r) => r.token)).not.toContain('Broken_Token-aaaaaaaaaa');
  });

  it('the Workers app makes, serves and stops a link: secrets masked, paths scrubbed, images inlined, no script', async () => {
    const DB = await d1('APP');
    const unused = (what: string) => () => {
      throw new Error(`${what} is not used by these requests`);
    };
    const env: WorkerEnv = { DB, SESSION_RUNS: { idFromName: unused('SESSION_RUNS'), get: unused('SESSION_RUNS') }, ASSETS: { fetch: unused('ASSETS') } };
    const deps = buildWorkerDeps(env, { kind: 'runs', journal: new MemoryRunJournal(), background: () => {} });
    const app = createApp(deps);
    const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
      const res = await app.request(path, {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const id = (await call('POST', '/api/session/new', {})).body.session.session_id as string;
    const pixel = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    await deps.sessions.appendMessages(id, [
      {
        role: 'user',
        content: [
          { type: 'text', text: `Key ${KEY}; see /workspace/src/app.ts and /hermes/config.yaml` },
          { type: 'image_url', image_url: { url: pixel } },
        ],
      },
      { role: 'assistant', content: 'The chart: MEDIA:chart.png' },
    ]);
    expect((await call('POST', '/api/share/create', { session_id: '../x' })).status).toBe(400);
    const created = await call('POST', '/api/share/create', { session_id: id });
    expect(created.status).toBe(200);
    const token = created.body.share.token as string;
    expect(created.body.session).toMatchObject({ share_token: token, share: { url: `/share/${token}` } });

    const read = await call('GET', `/api/share/${token}`);
    expect(read.status).toBe(200);
    const text = JSON.stringify(read.body);
    expect(leaked(text)).toEqual([]);
    const [user, answer] = read.body.share.messages;
    expect(user.content).toContain('<workspace>/src/app.ts');
    expect(user.content).toContain('<hermes-home>/config.yaml');
    expect(user.content).toContain(`![image](${pixel})`);
    // No file system on Workers: a workspace file is noted, never read.
    expect(answer.content).toBe('The chart: *[Local attachment omitted from public share]*');

    const page = await app.request(`/share/${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain(`<img src="${pixel}"`);
    expect(leaked(html)).toEqual([]);

    // Another isolate (a new deps over the same D1) sees the link, then stops it.
    const other = createApp(buildWorkerDeps(env, { kind: 'runs', journal: new MemoryRunJournal(), background: () => {} }));
    const revoked = await other.request('/api/share/revoke', {
      method: 'POST',
      body: JSON.stringify({ session_id: id }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(revoked.status).toBe(200);
    expect((await call('GET', `/api/share/${token}`)).status).toBe(404);
    expect((await app.request(`/share/${token}`)).status).toBe(404);
    expect((await call('GET', `/api/session?session_id=${id}`)).body.session).toMatchObject({ share_token: null, share: null });
  });
});
