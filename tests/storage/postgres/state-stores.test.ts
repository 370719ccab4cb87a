import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectPostgres, type Sql } from '../../../src/adapters/storage/postgres/pg-client.js';
import { applyMigrations } from '../../../src/adapters/storage/postgres/pg-migrations.js';
import {
  PgAuthStore,
  PgEmbedTokenStore,
  PgLeaseStore,
  PgProjectStore,
  PgPushStore,
  PgSettingsStore,
  PgWorkspaceStore,
  postgresStateStores,
} from '../../../src/adapters/storage/postgres/pg-stores.js';
import { describeAuthStoreContract } from '../../contracts/auth-store.contract.js';
import { describeEmbedTokenStoreContract } from '../../contracts/embed-token-store.contract.js';
import { describeLeaseStoreContract } from '../../contracts/lease-store.contract.js';
import { describeProjectStoreContract } from '../../contracts/project-store.contract.js';
import { describePushStoreContract } from '../../contracts/push-store.contract.js';
import { describeSettingsStoreContract } from '../../contracts/settings-store.contract.js';
import { describeWorkspaceStoreContract } from '../../contracts/workspace-store.contract.js';
import { testDatabase } from '../../helpers/postgres.js';

/**
 * Every state store's contract on Postgres. One database for the file, emptied before each
 * test; `open()` builds the store on a second pool, as another instance would have.
 */
let db: Awaited<ReturnType<typeof testDatabase>>;
let sql: Sql;
let other: Sql;
beforeAll(async () => {
  db = await testDatabase();
  sql = connectPostgres(db.url, { max: 4 });
  other = connectPostgres(db.url, { max: 4 });
  await applyMigrations(sql);
});
afterAll(async () => {
  await sql?.end();
  await other?.end();
  await db?.drop();
});

const TABLES = 'documents, workspaces, projects, auth_keys, auth_sessions, auth_failures, embed_tokens, push_vapid, push_subscriptions, leases';

function harness<S>(make: (pool: Sql) => S) {
  return async () => {
    await sql.unsafe(`TRUNCATE ${TABLES} RESTART IDENTITY`);
    return { store: make(sql), open: () => make(other) };
  };
}
const shared = { sharedWriters: true };

describeSettingsStoreContract(
  'postgres',
  harness((pool) => new PgSettingsStore(pool)),
);
describeProjectStoreContract(
  'postgres',
  harness((pool) => new PgProjectStore(pool)),
  shared,
);
describeWorkspaceStoreContract(
  'postgres',
  async () => ({ ...(await harness((pool) => new PgWorkspaceStore(pool))()), profile: () => new PgWorkspaceStore(other, '/home/u/.hermes/profiles/work') }),
  { profiles: true },
);
describeAuthStoreContract(
  'postgres',
  harness((pool) => new PgAuthStore(pool)),
);
describeEmbedTokenStoreContract(
  'postgres',
  harness((pool) => new PgEmbedTokenStore(pool)),
  shared,
);
describePushStoreContract(
  'postgres',
  harness((pool) => new PgPushStore(pool)),
  shared,
);
describeLeaseStoreContract('postgres', (now) => harness((pool) => new PgLeaseStore(pool, now))());

describe('Postgres state stores: what only Postgres shows', () => {
  beforeEach(async () => {
    await sql.unsafe(`TRUNCATE ${TABLES} RESTART IDENTITY`);
  });

  it('leases on the database’s clock: instances on four pools race for twenty keys, one winner each, taken over after expiry', async () => {
    const pools = [sql, other, connectPostgres(db.url, { max: 2 }), connectPostgres(db.url, { max: 2 })];
    try {
      const stores = pools.map((pool) => new PgLeaseStore(pool));
      const keys = Array.from({ length: 20 }, (_, i) => `run-${i}`);
      const results = await Promise.all(keys.flatMap((key) => stores.map((s, i) => s.acquire(key, `instance-${i}`, 60_000).then((won) => ({ key, i, won })))));
      for (const key of keys)
        expect(
          results.filter((r) => r.key === key && r.won),
          key,
        ).toHaveLength(1);
      const owner = (await stores[0]!.holder('run-0'))!.owner;
      const mine = stores[Number(owner.split('-')[1])]!;
      const loser = stores.find((s) => s !== mine)!;
      // The winner shortens its lease; expiry is judged by the database's clock, which this process shares here.
      const before = Date.now();
      expect(await mine.renew('run-0', owner, 300)).toBe(true);
      const held = (await loser.holder('run-0'))!;
      expect(held.owner).toBe(owner);
      expect(held.expiresAt).toBeGreaterThanOrEqual(before + 300 - 50);
      expect(held.expiresAt).toBeLessThanOrEqual(Date.now() + 300 + 50);
      expect(await loser.acquire('run-0', 'late', 300)).toBe(false);
      await new Promise((r) => setTimeout(r, Math.max(0, held.expiresAt - Date.now()) + 50));
      expect(await loser.holder('run-0')).toBeNull();
      expect(await loser.acquire('run-0', 'late', 60_000)).toBe(true);
      expect(await mine.renew('run-0', owner, 60_000)).toBe(false);
    } finally {
      await Promise.all(pools.slice(2).map((p) => p.end()));
    }
  });

  it('keeps JSON as written (key order, a NUL character) — json, not jsonb', async () => {
    const value = { zeta: 1, alpha: { b: 2, a: 1 }, nul: 'a\u0000b', float: 0.1 + 0.2 };
    await new PgSettingsStore(sql).write(value);
    const [row] = await sql<{ text: string }[]>`SELECT body::text AS text FROM documents WHERE name = 'settings'`;
    expect(row!.text).toBe(JSON.stringify(value));
    expect(await new PgSettingsStore(other).read()).toEqual(value);
  });

  it('a damaged VAPID row is reported, never replaced (that would orphan every subscription)', async () => {
    const keys = await new PgPushStore(sql).vapidKeys();
    await sql`UPDATE push_vapid SET public_key = 'not-a-key'`;
    await expect(new PgPushStore(other).vapidKeys()).rejects.toThrow(/no usable VAPID key pair/);
    const [row] = await sql<{ private_key: string; public_key: string }[]>`SELECT public_key, private_key FROM push_vapid`;
    expect(row).toEqual({ public_key: 'not-a-key', private_key: keys.private_key });
  });

  it('postgresStateStores: one store per profile home, the catalog cache, every store on one pool', async () => {
    const state = postgresStateStores(sql);
    const work = { root: '/home/u/.hermes/profiles/work' };
    expect(state.workspacesFor(work)).toBe(state.workspacesFor({ root: work.root }));
    await state.workspacesFor(work).save([{ path: '/w/p', name: 'P' }]);
    await state.workspaces.save([{ path: '/w/d', name: 'D' }]);
    expect(await postgresStateStores(other).workspacesFor(work).list()).toEqual([{ path: '/w/p', name: 'P' }]);
    expect(await state.catalogCache.read()).toBeNull();
    await state.catalogCache.write({ endpoints: { a: { models: ['x'], at: 1 } } });
    expect(await postgresStateStores(other).catalogCache.read()).toEqual({ endpoints: { a: { models: ['x'], at: 1 } } });
    expect(await state.leases.acquire('k', 'me', 1000)).toBe(true);
    expect(await postgresStateStores(other).leases.holder('k')).toMatchObject({ owner: 'me' });
  });
});

describe('the import of keys (npm run migrate)', () => {
  beforeEach(async () => {
    await sql.unsafe(`TRUNCATE ${TABLES} RESTART IDENTITY`);
  });

  it('stores the state dir’s auth key into an empty database, and keeps a different one the database made itself', async () => {
    const given = crypto.getRandomValues(new Uint8Array(32));
    const auth = new PgAuthStore(sql);
    expect(await auth.importKey('signing', given)).toBe('copied');
    expect(await new PgAuthStore(other).key('signing')).toEqual(given);
    expect(await auth.importKey('signing', given)).toBe('unchanged');
    const own = await auth.key('pbkdf2');
    expect(await auth.importKey('pbkdf2', crypto.getRandomValues(new Uint8Array(32)))).toBe('kept');
    expect(await new PgAuthStore(other).key('pbkdf2')).toEqual(own);
    await expect(auth.importKey('signing', new Uint8Array(8))).rejects.toThrow(/not 32 bytes/);
  });

  it('stores the VAPID pair into an empty database, and keeps the database’s own when it differs', async () => {
    const from = new PgPushStore(other);
    const pair = await from.vapidKeys();
    await sql.unsafe('TRUNCATE push_vapid');
    const push = new PgPushStore(sql);
    expect(await push.importVapidKeys(pair)).toBe('copied');
    expect(await push.vapidKeys()).toEqual(pair);
    expect(await push.importVapidKeys(pair)).toBe('unchanged');
    const other_ = `${pair.private_key.slice(0, -1)}${pair.private_key.endsWith('A') ? 'B' : 'A'}`;
    expect(await push.importVapidKeys({ ...pair, private_key: other_ })).toBe('kept');
    expect(await new PgPushStore(other).vapidKeys()).toEqual(pair);
  });
});
