import { execFile } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Miniflare } from 'miniflare';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { D1SessionStore } from '../../src/adapters/storage/d1/d1-session-store.js';
import { D1JsonDocument, D1RunStreams, D1SettingsStore } from '../../src/adapters/storage/d1/d1-stores.js';
import { jsonChunks, type D1Database } from '../../src/adapters/storage/d1/d1-types.js';
import { applyMigrations, appliedMigrations, MIGRATIONS, splitSqlStatements } from '../../src/adapters/storage/d1/migrations.js';
import { Conflict, VersionConflict } from '../../src/ports/errors.js';
import type { Message } from '../../src/shared/session.js';
import { describeSessionStoreContract, sampleSession, testClock } from '../contracts/session-store.contract.js';

const root = join(import.meta.dirname, '..', '..');
const WORKER = 'export default { fetch() { return new Response() } }';

/** One workerd for the whole file; each group of tests gets its own database binding. */
let mf: Miniflare | undefined;
function miniflare(): Miniflare {
  mf ??= new Miniflare({ modules: true, script: WORKER, d1Databases: ['DB', 'STORES', 'MIGRATE', 'RACE'] });
  return mf;
}
const migrated = new Map<string, Promise<D1Database>>();
/** A D1 binding with the schema applied (once per binding). */
function database(binding: 'DB' | 'STORES'): Promise<D1Database> {
  let db = migrated.get(binding);
  if (!db) {
    db = miniflare()
      .getD1Database(binding)
      .then(async (d: D1Database) => {
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

const msg = (i: number, role = 'user'): Message => ({ role, content: `message ${i}`, timestamp: 1_700_000_000 + i });

async function clearSessions(db: D1Database) {
  await db.batch([db.prepare('DELETE FROM messages'), db.prepare('DELETE FROM sessions')]);
}

describeSessionStoreContract(
  'd1',
  async () => {
    const db = await database('DB');
    await clearSessions(db);
    const open = async () => {
      const s = new D1SessionStore(db, testClock);
      await s.init();
      return s;
    };
    const store = await open();
    let latest = store;
    return {
      store,
      reopen: async () => (latest = await open()),
      // Garbage in the metadata column, as a hand edit or a truncated import would leave it.
      corrupt: async (id, text) => {
        await db.prepare('UPDATE sessions SET meta = ?1 WHERE session_id = ?2').bind(text, id).run();
      },
      cleanup: async () => {
        await store.dispose();
        await latest.dispose();
      },
    };
  },
  { persistent: true },
);

describe('D1SessionStore: several instances over one database', () => {
  let db: D1Database;
  let a: D1SessionStore;
  let b: D1SessionStore;
  beforeEach(async () => {
    db = await database('DB');
    await clearSessions(db);
    a = new D1SessionStore(db, testClock);
    b = new D1SessionStore(db, testClock);
  });

  it('loses no message when two instances append to one session at once', async () => {
    const s = await a.create(sampleSession());
    await Promise.all(Array.from({ length: 24 }, (_, i) => (i % 2 ? a : b).appendMessages(s.session_id, [msg(i)])));
    const got = (await b.get(s.session_id))!;
    expect(got.messages).toHaveLength(24);
    expect(new Set(got.messages.map((m) => m.content)).size).toBe(24);
    const stored = await db.prepare('SELECT seq FROM messages WHERE session_id = ?1 ORDER BY seq').bind(s.session_id).all<{ seq: number }>();
    expect(stored.results.map((r) => r.seq)).toEqual(Array.from({ length: 24 }, (_, i) => i));
  });

  it('sees writes made by another instance (its cache is checked against D1)', async () => {
    const s = await a.create(sampleSession({ title: 'first' }));
    expect((await a.get(s.session_id))!.title).toBe('first');
    await b.update(s.session_id, { title: 'second' });
    await b.appendMessages(s.session_id, [msg(1)]);
    const seen = (await a.get(s.session_id))!;
    expect(seen.title).toBe('second');
    expect(seen.messages).toEqual([msg(1)]);
    // …and appends on top of them rather than over them.
    await a.appendMessages(s.session_id, [msg(2)]);
    expect((await b.get(s.session_id))!.messages).toEqual([msg(1), msg(2)]);
  });

  it('a versioned write based on a stale read fails across instances', async () => {
    const s = await a.create(sampleSession());
    const moved = await b.update(s.session_id, { title: 'by b' });
    const err = await a.update(s.session_id, { title: 'by a' }, { ifUpdatedAt: s.updated_at }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VersionConflict);
    expect((err as VersionConflict).current).toBe(moved.updated_at);
    expect((await a.get(s.session_id))!.title).toBe('by b');
  });

  it('moves the list revision when another instance writes, and reuses a page when nothing moved', async () => {
    const s = await a.create(sampleSession({ title: 'x' }));
    const first = await a.list();
    expect(await a.list()).toBe(first);
    await b.update(s.session_id, { archived: true });
    const second = await a.list();
    expect(second.revision).not.toBe(first.revision);
    expect(second.total).toBe(0);
    expect(second.archivedCount).toBe(1);
    expect((await a.list({ includeArchived: true })).total).toBe(1);
    await b.delete(s.session_id);
    const third = await a.list({ includeArchived: true });
    expect([third.total, third.archivedCount]).toEqual([0, 0]);
  });

  it('deleting a session while another instance writes to it leaves nothing behind', async () => {
    const s = await a.create(sampleSession({ messages: [msg(0)] }));
    await Promise.allSettled([b.appendMessages(s.session_id, [msg(1)]), a.delete(s.session_id), b.appendMessages(s.session_id, [msg(2)])]);
    const left = await db.prepare('SELECT count(*) AS n FROM messages WHERE session_id = ?1').bind(s.session_id).first<{ n: number }>();
    const session = await b.get(s.session_id);
    expect(left!.n).toBe(session ? session.messages.length : 0);
  });
});

describe('D1SessionStore: storage', () => {
  let db: D1Database;
  let store: D1SessionStore;
  beforeEach(async () => {
    db = await database('DB');
    await clearSessions(db);
    store = new D1SessionStore(db, testClock);
  });

  const rows = async (id: string) =>
    (await db.prepare('SELECT seq, body FROM messages WHERE session_id = ?1 ORDER BY seq').bind(id).all<{ seq: number; body: string }>()).results;

  it('keeps one row per message, written in chunks, and rewrites only what changed', async () => {
    const many = Array.from({ length: 130 }, (_, i) => msg(i, i % 2 ? 'assistant' : 'user'));
    const s = await store.create(sampleSession({ messages: many }));
    expect((await rows(s.session_id)).map((r) => r.seq)).toEqual(many.map((_, i) => i));
    const meta = await db.prepare('SELECT meta FROM sessions WHERE session_id = ?1').bind(s.session_id).first<{ meta: string }>();
    expect(JSON.parse(meta!.meta)).not.toHaveProperty('messages');

    const truncated = await store.replaceMessages(s.session_id, many.slice(0, 60).concat([msg(999)]));
    expect(truncated.messages).toHaveLength(61);
    const after = await rows(s.session_id);
    expect(after.map((r) => r.seq)).toEqual(Array.from({ length: 61 }, (_, i) => i));
    expect(JSON.parse(after[60]!.body)).toEqual(msg(999));
    expect((await new D1SessionStore(db, testClock).get(s.session_id))!.messages).toEqual(truncated.messages);
    const row = (await store.list()).rows[0]!;
    expect([row.message_count, row.user_message_count]).toEqual([61, 31]);
  });

  it('stores big messages byte for byte, several per statement or one on its own', async () => {
    const big = (i: number, kb: number) => ({ role: 'assistant', content: `${i} "quoted" \\ ü `.repeat(Math.ceil((kb * 1024) / 20)) });
    const messages = [...Array.from({ length: 12 }, (_, i) => big(i, 100)), big(99, 700), msg(1)];
    const s = await store.create(sampleSession({ messages }));
    const stored = await rows(s.session_id);
    expect(stored.map((r) => r.body)).toEqual(messages.map((m) => JSON.stringify(m)));
    expect((await new D1SessionStore(db, testClock).get(s.session_id))!.messages).toEqual(messages);
  });

  it('reports a message that is not JSON, refuses the session, and does not touch it', async () => {
    const s = await store.create(sampleSession({ messages: [msg(0), msg(1)] }));
    await db.prepare('UPDATE messages SET body = ?1 WHERE session_id = ?2 AND seq = 1').bind('{"role": "us', s.session_id).run();
    const fresh = new D1SessionStore(db, testClock);
    expect(await fresh.problems()).toEqual([{ session_id: s.session_id, error: expect.stringMatching(/invalid JSON in message 1/) }]);
    await expect(fresh.get(s.session_id)).rejects.toBeInstanceOf(Conflict);
    await expect(fresh.appendMessages(s.session_id, [msg(2)])).rejects.toBeInstanceOf(Conflict);
    expect((await rows(s.session_id))[1]!.body).toBe('{"role": "us');
  });

  it('a corrupt row can still be deleted, and is not counted', async () => {
    const s = await store.create(sampleSession());
    await store.create(sampleSession());
    await db.prepare('UPDATE sessions SET list_row = ?1 WHERE session_id = ?2').bind('[]', s.session_id).run();
    const page = await store.list();
    expect(page.total).toBe(1);
    expect((await store.problems())[0]).toEqual({ session_id: s.session_id, error: 'list_row is not a JSON object' });
    expect(await store.delete(s.session_id)).toBe(true);
    expect(await store.problems()).toEqual([]);
  });

  it('deleting a session forgets its chat streams', async () => {
    const s = await store.create(sampleSession());
    const streams = new D1RunStreams(db);
    await streams.put('stream-1', s.session_id);
    await streams.put('stream-2', 'someone-else');
    expect(await store.delete(s.session_id)).toBe(true);
    expect(await streams.sessionOf('stream-1')).toBeNull();
    expect(await streams.sessionOf('stream-2')).toBe('someone-else');
  });

  it('clearProject only touches sessions of that project', async () => {
    const a = await store.create(sampleSession({ project_id: 'p1' }));
    const b = await store.create(sampleSession({ project_id: 'p1' }));
    const c = await store.create(sampleSession({ project_id: 'p2' }));
    expect(await store.clearProject('p1')).toBe(2);
    expect((await store.get(a.session_id))!.project_id).toBeNull();
    expect((await store.get(b.session_id))!.project_id).toBeNull();
    expect((await store.get(c.session_id))!.project_id).toBe('p2');
    const column = await db.prepare('SELECT count(*) AS n FROM sessions WHERE project_id IS NULL').first<{ n: number }>();
    expect(column!.n).toBe(2);
  });

  it('search: LIKE wildcards are literal, case folds beyond ASCII, JSON keys never match', async () => {
    const pct = await store.create(sampleSession({ title: '100% done' }));
    await store.create(sampleSession({ title: '1000 done' }));
    const under = await store.create(sampleSession({ title: 'snake_case' }));
    await store.create(sampleSession({ title: 'snakeXcase' }));
    const umlaut = await store.create(sampleSession({ title: 'ÜBER alles' }));
    const quoted = await store.create(
      sampleSession({ title: 'q', messages: [{ role: 'user', content: [{ type: 'text', text: 'she said "Hi\\there" twice' }] }] }),
    );
    const ids = async (q: string, content = false) => (await store.search(q, { content })).map((h) => h.session_id);
    expect(await ids('0%')).toEqual([pct.session_id]);
    expect(await ids('e_c')).toEqual([under.session_id]);
    expect(await ids('über')).toEqual([umlaut.session_id]);
    expect(await ids('"hi\\there"', true)).toEqual([quoted.session_id]);
    const hit = (await store.search('"hi\\there"', { content: true }))[0]!;
    expect(hit.match_type).toBe('content');
    expect(hit.match_preview).toContain('"Hi\\there"');
    // "role" and "user" are in every stored message's JSON, but not in its text.
    expect(await ids('role', true)).toEqual([]);
  });

  it('search honours the limit and pages past SQL candidates that do not really match', async () => {
    for (let i = 0; i < 5; i++) await store.create(sampleSession({ title: `t${i}`, messages: [{ role: 'user', content: 'no match here', tag: 'needle' }] }));
    const real = await store.create(sampleSession({ title: 'real', updated_at: 1, messages: [msg(0), { role: 'assistant', content: 'the NEEDLE is here' }] }));
    const hits = await store.search('needle', { content: true });
    expect(hits.map((h) => h.session_id)).toEqual([real.session_id]);
    expect(hits[0]!.match_preview).toBe('the NEEDLE is here');
    // More false matches than one round of bodies before the real one.
    const deep = await store.create(
      sampleSession({
        title: 'deep',
        updated_at: 0,
        messages: [...Array.from({ length: 25 }, () => ({ role: 'user', content: 'nothing', tag: 'needle' })), { role: 'user', content: 'a needle at last' }],
      }),
    );
    expect((await store.search('needle', { content: true })).map((h) => [h.session_id, h.match_preview])).toEqual([
      [real.session_id, 'the NEEDLE is here'],
      [deep.session_id, 'a needle at last'],
    ]);
    for (let i = 0; i < 4; i++) await store.create(sampleSession({ title: `needle ${i}` }));
    expect(await store.search('needle', { content: true, limit: 3 })).toHaveLength(3);
  });
});

describe('D1 migrations', () => {
  it('the embedded copies are exactly migrations/*.sql', async () => {
    const files = (await readdir(join(root, 'migrations'))).filter((f) => f.endsWith('.sql')).sort();
    expect(MIGRATIONS.map((m) => m.name)).toEqual(files);
    for (const m of MIGRATIONS) {
      const text = await readFile(join(root, 'migrations', m.name), 'utf8');
      // On failure: copy migrations/<name> into src/adapters/storage/d1/schema.ts verbatim.
      expect(m.sql, `${m.name} differs from its copy in schema.ts`).toBe(text);
    }
  });

  it('applies once, records each file as wrangler does, and is a no-op the second time', async () => {
    const db: D1Database = await miniflare().getD1Database('MIGRATE');
    const applied: string[] = [];
    await applyMigrations(db, { onApplied: (name) => applied.push(name) });
    expect(applied).toEqual(MIGRATIONS.map((m) => m.name));
    const again: string[] = [];
    await applyMigrations(db, { onApplied: (name) => again.push(name) });
    expect(again).toEqual([]);
    expect(await appliedMigrations(db)).toEqual(MIGRATIONS.map((m) => m.name));
    const columns = await db.prepare('SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(\'d1_migrations\')').all();
    expect(columns.results).toEqual([
      { name: 'id', type: 'INTEGER', notnull: 0, dflt_value: null, pk: 1 },
      { name: 'name', type: 'TEXT', notnull: 0, dflt_value: null, pk: 0 },
      { name: 'applied_at', type: 'TIMESTAMP', notnull: 1, dflt_value: 'CURRENT_TIMESTAMP', pk: 0 },
    ]);
  });

  it('isolates starting together agree (every call succeeds, each file applied once)', async () => {
    const db: D1Database = await miniflare().getD1Database('RACE');
    await Promise.all([applyMigrations(db), applyMigrations(db), applyMigrations(db)]);
    const rows = await db.prepare('SELECT name FROM d1_migrations').all<{ name: string }>();
    expect(rows.results.map((r) => r.name)).toEqual(MIGRATIONS.map((m) => m.name));
  });

  it('jsonChunks packs items into bounded JSON arrays', () => {
    const items = Array.from({ length: 10 }, (_, i) => ['token' + i, i]);
    const chunks = jsonChunks(items, 40);
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.every((c) => c.length <= 40)).toBe(true);
    expect(chunks.flatMap((c) => JSON.parse(c) as unknown[])).toEqual(items);
    expect(jsonChunks([])).toEqual([]);
  });

  it('splits statements like wrangler: trigger bodies stay whole, comments go', () => {
    const parts = splitSqlStatements(
      "-- a comment; with a semicolon\nCREATE TABLE t (a TEXT DEFAULT 'x;y');\n/* block; */\nCREATE TRIGGER tr AFTER INSERT ON t\nBEGIN\n  UPDATE t SET a = 'b';\n  DELETE FROM t WHERE a = 'c';\nEND;\nSELECT 1",
    );
    expect(parts).toEqual([
      "CREATE TABLE t (a TEXT DEFAULT 'x;y')",
      "CREATE TRIGGER tr AFTER INSERT ON t\nBEGIN\n  UPDATE t SET a = 'b';\n  DELETE FROM t WHERE a = 'c';\nEND",
      'SELECT 1',
    ]);
    expect(splitSqlStatements(MIGRATIONS[0]!.sql).filter((s) => s.startsWith('CREATE TRIGGER'))).toHaveLength(3);
  });

  it('wrangler d1 migrations apply --local and applyMigrations see each other’s work', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hermes-d1-wrangler-'));
    const id = '00000000-0000-4000-8000-000000000001';
    try {
      await cp(join(root, 'migrations'), join(dir, 'migrations'), { recursive: true });
      await writeFile(
        join(dir, 'wrangler.toml'),
        `name = "hermes-d1-check"\ncompatibility_date = "2025-01-01"\n\n[[d1_databases]]\nbinding = "DB"\ndatabase_name = "hermes"\ndatabase_id = "${id}"\n`,
      );
      const persist = join(dir, '.wrangler', 'state', 'v3', 'd1');
      const wrangler = async (...args: string[]) =>
        (
          await promisify(execFile)(
            process.execPath,
            [join(root, 'node_modules', 'wrangler', 'bin', 'wrangler.js'), 'd1', 'migrations', ...args, 'DB', '--local'],
            {
              cwd: dir,
              env: { ...process.env, CI: '1', WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
              timeout: 20_000,
            },
          )
        ).stdout;

      // Ours first: wrangler finds nothing to apply.
      const local = new Miniflare({ modules: true, script: WORKER, d1Persist: persist, d1Databases: { DB: id } });
      try {
        await applyMigrations(await local.getD1Database('DB'));
      } finally {
        await local.dispose();
      }
      expect(await wrangler('apply')).toMatch(/No migrations to apply/);

      // A database wrangler migrated: ours applies nothing and the stores work on it.
      await rm(join(dir, '.wrangler'), { recursive: true, force: true });
      expect(await wrangler('apply')).toMatch(/0001_init\.sql/);
      const again = new Miniflare({ modules: true, script: WORKER, d1Persist: persist, d1Databases: { DB: id } });
      try {
        const db: D1Database = await again.getD1Database('DB');
        const applied: string[] = [];
        await applyMigrations(db, { onApplied: (name) => applied.push(name) });
        expect(applied).toEqual([]);
        const store = new D1SessionStore(db, testClock);
        await store.init();
        const s = await store.create(sampleSession({ messages: [msg(1)] }));
        expect((await store.list()).rows.map((r) => r.session_id)).toEqual([s.session_id]);
      } finally {
        await again.dispose();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a store over a database without the schema says so at init', async () => {
    const bare: D1Database = {
      prepare: () => {
        throw new Error('no such table: session_stats');
      },
      batch: async () => [],
    };
    await expect(new D1SessionStore(bare, testClock).init()).rejects.toThrow(/applyMigrations/);
  });
});

describe('D1 small stores', () => {
  let db: D1Database;
  beforeEach(async () => {
    db = await database('STORES');
  });

  // The stores' behaviour is their contract suites' (tests/storage/d1-state.test.ts); here, what only D1 can hold.
  it('settings: a damaged document reads as {}', async () => {
    const settings = new D1SettingsStore(db);
    await settings.write({ theme: 'dark' });
    await db.prepare("UPDATE documents SET body = '{oops' WHERE name = 'settings'").run();
    expect(await settings.read()).toEqual({});
  });

  it('json document: null until written, then the value; damaged reads as null', async () => {
    const doc = new D1JsonDocument(db, 'models_cache.json');
    expect(await doc.read()).toBeNull();
    await doc.write({ endpoints: { a: { models: ['x'], at: 1 } } });
    expect(await new D1JsonDocument(db, 'models_cache.json').read()).toEqual({ endpoints: { a: { models: ['x'], at: 1 } } });
    await doc.write('a string');
    expect(await doc.read()).toBe('a string');
    await db.prepare("UPDATE documents SET body = 'nope' WHERE name = 'models_cache.json'").run();
    expect(await doc.read()).toBeNull();
  });

  it('run streams: route a stream to its session, forget a session', async () => {
    const streams = new D1RunStreams(db);
    await streams.put('s1', 'sess-a');
    await streams.put('s2', 'sess-a');
    await streams.put('s3', 'sess-b');
    expect(await new D1RunStreams(db).sessionOf('s2')).toBe('sess-a');
    expect(await streams.sessionOf('nope')).toBeNull();
    expect(await streams.deleteSession('sess-a')).toBe(2);
    expect(await streams.sessionOf('s1')).toBeNull();
    expect(await streams.sessionOf('s3')).toBe('sess-b');
    expect(await streams.delete('s3')).toBe(true);
    expect(await streams.delete('s3')).toBe(false);
    await streams.put('s4', 'sess-c');
    expect(await streams.pruneBefore(new Date(Date.now() - 60_000))).toBe(0);
    expect(await streams.pruneBefore(new Date(Date.now() + 60_000))).toBe(1);
    expect(await streams.sessionOf('s4')).toBeNull();
  });
});
