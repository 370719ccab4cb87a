import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectPostgres, type Sql } from '../../../src/adapters/storage/postgres/pg-client.js';
import { applyMigrations } from '../../../src/adapters/storage/postgres/pg-migrations.js';
import { PgSessionStore } from '../../../src/adapters/storage/postgres/pg-session-store.js';
import { Conflict, NotFound, VersionConflict } from '../../../src/ports/errors.js';
import type { Message } from '../../../src/shared/session.js';
import { describeSessionStoreContract, sampleSession, testClock } from '../../contracts/session-store.contract.js';
import { testDatabase } from '../../helpers/postgres.js';

/** One database for the file; every test starts from empty tables (DELETE, so the count triggers run). */
let db: Awaited<ReturnType<typeof testDatabase>>;
/** Two pools: two instances of the server on one database. */
let sqlA: Sql;
let sqlB: Sql;
beforeAll(async () => {
  db = await testDatabase();
  sqlA = connectPostgres(db.url, { max: 4 });
  sqlB = connectPostgres(db.url, { max: 4 });
  await applyMigrations(sqlA);
});
afterAll(async () => {
  await sqlA?.end();
  await sqlB?.end();
  await db?.drop();
});

const clear = () => sqlA`DELETE FROM sessions`;
const msg = (i: number, role = 'user'): Message => ({ role, content: `message ${i}`, timestamp: 1_700_000_000 + i });
async function open(sql: Sql) {
  const store = new PgSessionStore(sql, testClock);
  await store.init();
  return store;
}

describeSessionStoreContract(
  'postgres',
  async () => {
    await clear();
    const store = await open(sqlA);
    let latest = store;
    return {
      store,
      // A new store has empty caches: everything comes from the database, as after a restart.
      reopen: async () => (latest = await open(sqlA)),
      // Garbage in the metadata column, as a hand edit or a truncated import would leave it.
      corrupt: async (id, text) => {
        await sqlA`UPDATE sessions SET meta = ${text} WHERE session_id = ${id}`;
      },
      cleanup: async () => {
        await store.dispose();
        await latest.dispose();
      },
    };
  },
  { persistent: true },
);

describe('PgSessionStore: several instances over one database', () => {
  let a: PgSessionStore;
  let b: PgSessionStore;
  beforeEach(async () => {
    await clear();
    a = await open(sqlA);
    b = await open(sqlB);
  });

  it('loses no message when two instances append to one session at once', async () => {
    const s = await a.create(sampleSession());
    await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).appendMessages(s.session_id, [msg(i)])));
    const got = (await b.get(s.session_id))!;
    expect(new Set(got.messages.map((m) => m.content)).size).toBe(30);
    const seqs = await sqlA<{ seq: number }[]>`SELECT seq FROM messages WHERE session_id = ${s.session_id} ORDER BY seq`;
    expect(seqs.map((r) => r.seq)).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  it('versioned writes from two instances: exactly one of several claims wins', async () => {
    const s = await a.create(sampleSession());
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => (i % 2 ? a : b).update(s.session_id, { title: `claim ${i}` }, { ifUpdatedAt: s.updated_at })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected' && r.reason instanceof VersionConflict)).toHaveLength(5);
  });

  it('sees writes made by another instance (its cache is checked against the version)', async () => {
    const s = await a.create(sampleSession({ title: 'first' }));
    expect((await a.get(s.session_id))!.title).toBe('first');
    await b.update(s.session_id, { title: 'second' });
    await b.appendMessages(s.session_id, [msg(1)]);
    const seen = (await a.get(s.session_id))!;
    expect(seen.title).toBe('second');
    expect(seen.messages).toEqual([msg(1)]);
    await a.appendMessages(s.session_id, [msg(2)]);
    expect((await b.get(s.session_id))!.messages).toEqual([msg(1), msg(2)]);
    // A stale read on one instance is refused on the other, naming the current version.
    const moved = await b.update(s.session_id, { title: 'by b' });
    const err = await a.update(s.session_id, { title: 'by a' }, { ifUpdatedAt: seen.updated_at }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VersionConflict);
    expect((err as VersionConflict).current).toBe(moved.updated_at);
  });

  it('reports the same revision on every instance, and moves it on any change, hand edits too', async () => {
    const s = await a.create(sampleSession({ title: 'x' }));
    const first = await a.list();
    expect(await a.list()).toBe(first);
    expect((await b.list()).revision).toBe(first.revision);
    await b.update(s.session_id, { archived: true });
    const second = await a.list();
    expect(second.revision).not.toBe(first.revision);
    expect([second.total, second.archivedCount]).toEqual([0, 1]);
    expect((await b.list()).revision).toBe(second.revision);
    const row = (await a.list({ includeArchived: true })).rows[0]!;
    await sqlA`UPDATE sessions SET archived = false, list_row = ${JSON.stringify({ ...row, archived: false, title: 'by hand' })}`;
    const third = await a.list();
    expect(third.revision).not.toBe(second.revision);
    expect(third.rows.map((r) => r.title)).toEqual(['by hand']);
    expect(await b.delete(s.session_id)).toBe(true);
    expect((await a.list()).total).toBe(0);
  });
});

describe('PgSessionStore: each instance refreshes its copy of the list with what changed', () => {
  let a: PgSessionStore;
  let b: PgSessionStore;
  beforeEach(async () => {
    await clear();
    a = await open(sqlA);
    b = await open(sqlB);
  });
  const ids = async (store: PgSessionStore) => (await store.list({ includeArchived: true })).rows.map((r) => r.session_id);

  it('drops a session another instance deleted, or that was damaged by hand, and reads again after a TRUNCATE', async () => {
    const [s1, s2, s3] = [sampleSession({ updated_at: 3 }), sampleSession({ updated_at: 2 }), sampleSession({ updated_at: 1 })];
    for (const s of [s1, s2, s3]) await a.create(s);
    expect(await ids(a)).toEqual([s1.session_id, s2.session_id, s3.session_id]);
    await b.delete(s2.session_id);
    await sqlB`UPDATE sessions SET list_row = '{oops' WHERE session_id = ${s3.session_id}`;
    expect(await ids(a)).toEqual([s1.session_id]);
    expect((await a.problems()).map((p) => p.session_id)).toEqual([s3.session_id]);
    await sqlB`TRUNCATE sessions CASCADE`;
    expect(await ids(a)).toEqual([]);
    const again = await b.create(sampleSession());
    expect(await ids(a)).toEqual([again.session_id]);
  });

  it('a copy older than the tombstones kept is read again whole', async () => {
    const [s1, s2, s3] = [sampleSession({ updated_at: 3 }), sampleSession({ updated_at: 2 }), sampleSession({ updated_at: 1 })];
    for (const s of [s1, s2, s3]) await a.create(s);
    expect(await ids(a)).toHaveLength(3);
    await b.delete(s1.session_id);
    // A day later, the next deletion prunes the first one's tombstone.
    await sqlB`UPDATE session_tombstones SET deleted_at = now() - interval '2 days'`;
    await b.delete(s2.session_id);
    expect(await sqlB`SELECT session_id FROM session_tombstones`).toEqual([{ session_id: s2.session_id }]);
    expect(await ids(a)).toEqual([s3.session_id]);
    expect((await a.list()).revision).toBe((await b.list()).revision);
  });
});

describe('PgSessionStore: storage details', () => {
  let store: PgSessionStore;
  beforeEach(async () => {
    await clear();
    store = await open(sqlA);
  });

  it('an append inserts rows and leaves the stored transcript as it was', async () => {
    const s = await store.create(sampleSession({ messages: [msg(0), msg(1)] }));
    const before = await sqlA<{ seq: number; xmin: string }[]>`SELECT seq, xmin::text FROM messages WHERE session_id = ${s.session_id} ORDER BY seq`;
    await store.appendMessages(s.session_id, [msg(2)]);
    await store.update(s.session_id, { title: 'renamed' });
    const after = await sqlA<{ seq: number; xmin: string }[]>`SELECT seq, xmin::text FROM messages WHERE session_id = ${s.session_id} ORDER BY seq`;
    expect(after.slice(0, 2)).toEqual(before);
    expect(after.map((r) => r.seq)).toEqual([0, 1, 2]);
  });

  it('replaces from the first changed message, and repairs numbering left with a gap', async () => {
    const s = await store.create(sampleSession({ messages: [msg(0), msg(1), msg(2), msg(3)] }));
    await store.replaceMessages(s.session_id, [msg(0), msg(9)]);
    expect((await store.get(s.session_id))!.messages).toEqual([msg(0), msg(9)]);
    await sqlA`DELETE FROM messages WHERE session_id = ${s.session_id} AND seq = 0`;
    const fresh = await open(sqlA);
    await fresh.appendMessages(s.session_id, [msg(10)]);
    const seqs = await sqlA<{ seq: number }[]>`SELECT seq FROM messages WHERE session_id = ${s.session_id} ORDER BY seq`;
    expect(seqs.map((r) => r.seq)).toEqual([0, 1]);
    expect((await fresh.get(s.session_id))!.messages).toEqual([msg(9), msg(10)]);
  });

  it('keeps odd text exactly: unicode, lone surrogates, NUL escapes, big messages', async () => {
    const odd: Message[] = [
      { role: 'user', content: 'naïve 日本語 🚀 \u0000 "quoted" \\ back' },
      { role: 'assistant', content: 'half a pair: \ud800 …' },
      { role: 'tool', content: 'x'.repeat(2_000_000) },
    ];
    const s = await store.create(sampleSession({ messages: odd }));
    expect((await (await open(sqlA)).get(s.session_id))!.messages).toEqual(odd);
    expect(await store.problems()).toEqual([]);
  });

  it('reports a damaged message, refuses the session, and deleting it still works', async () => {
    const s = await store.create(sampleSession({ messages: [msg(0), msg(1)] }));
    await sqlA`UPDATE messages SET body = '[1, 2' WHERE session_id = ${s.session_id} AND seq = 1`;
    const fresh = await open(sqlA);
    const problems = await fresh.problems();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ session_id: s.session_id });
    expect(problems[0]!.error).toMatch(/invalid JSON in message 1/);
    await expect(fresh.get(s.session_id)).rejects.toBeInstanceOf(Conflict);
    await expect(fresh.appendMessages(s.session_id, [msg(2)])).rejects.toBeInstanceOf(Conflict);
    expect(await fresh.delete(s.session_id)).toBe(true);
    expect(await fresh.problems()).toEqual([]);
    await expect(fresh.update(s.session_id, { title: 'x' })).rejects.toBeInstanceOf(NotFound);
  });

  it('importSession stores exactly the session given, replacing one with its id, and can run again', async () => {
    const original = sampleSession({ title: 'imported', created_at: 1_600_000_000.25, updated_at: 1_650_000_000.5, messages: [msg(0), msg(1)] });
    await store.importSession(original);
    await store.importSession(original);
    expect(await store.get(original.session_id)).toEqual(original);
    const changed = { ...original, title: 'again', messages: [msg(5)] };
    await sqlA`UPDATE sessions SET meta = 'garbage' WHERE session_id = ${original.session_id}`;
    await store.importSession(changed);
    expect(await (await open(sqlA)).get(original.session_id)).toEqual(changed);
    const page = await store.list();
    expect(page.rows.map((r) => [r.title, r.updated_at, r.message_count])).toEqual([['again', 1_650_000_000.5, 1]]);
    expect(await store.problems()).toEqual([]);
  });

  it('searches content case-insensitively beyond ASCII, ignoring matches in JSON keys', async () => {
    const a = sampleSession({ title: 'A', messages: [{ role: 'user', content: 'Über den FLUSS' }] });
    const b = sampleSession({ title: 'B', messages: [{ role: 'user', content: 'nothing', role_hint: 'fluss' }] });
    const c = sampleSession({ title: 'Fluss notes' });
    for (const s of [a, b, c]) await store.create(s);
    const hits = await store.search('über den fluss', { content: true });
    expect(hits.map((h) => [h.session_id, h.match_type])).toEqual([[a.session_id, 'content']]);
    const both = await store.search('FLUSS', { content: true });
    expect(both.map((h) => h.session_id).sort()).toEqual([a.session_id, c.session_id].sort());
  });
});
