import { Miniflare } from 'miniflare';
import { afterAll } from 'vitest';
import { D1AuthStore, D1EmbedTokenStore, D1ProjectStore, D1SettingsStore, D1WorkspaceStore } from '../../src/adapters/storage/d1/d1-stores.js';
import type { D1Database } from '../../src/adapters/storage/d1/d1-types.js';
import { applyMigrations } from '../../src/adapters/storage/d1/migrations.js';
import { describeAuthStoreContract } from '../contracts/auth-store.contract.js';
import { describeEmbedTokenStoreContract } from '../contracts/embed-token-store.contract.js';
import { describeProjectStoreContract } from '../contracts/project-store.contract.js';
import { describeSettingsStoreContract } from '../contracts/settings-store.contract.js';
import { describeWorkspaceStoreContract } from '../contracts/workspace-store.contract.js';

/** The state contracts on D1 under Miniflare (no push or lease store exists on Workers). One workerd for the file. */
let mf: Miniflare | undefined;
let migrated: Promise<D1Database> | undefined;
function database(): Promise<D1Database> {
  mf ??= new Miniflare({ modules: true, script: 'export default { fetch() { return new Response() } }', d1Databases: ['DB'] });
  migrated ??= mf.getD1Database('DB').then(async (db: D1Database) => {
    await applyMigrations(db);
    return db;
  });
  return migrated;
}
afterAll(async () => {
  await mf?.dispose();
});

const TABLES = ['documents', 'projects', 'auth_keys', 'auth_sessions', 'auth_failures', 'embed_tokens'];

/** Empties the tables; the database it emptied. */
async function emptied(): Promise<D1Database> {
  const db = await database();
  await db.batch(TABLES.map((t) => db.prepare(`DELETE FROM ${t}`)));
  return db;
}

/**
 * Empty tables per test; `open()` is another isolate's store on the same database. Miniflare's
 * synchronous proxy (D1's `prepare`) can lose one reply on a loaded machine, and every later call
 * then reads the previous call's reply ("message?.id === id"): the workerd is replaced once and
 * the test starts on a fresh database. A second failure fails the test.
 */
function harness<S>(make: (db: D1Database) => S) {
  return async () => {
    let db: D1Database;
    try {
      db = await emptied();
    } catch (err) {
      console.warn(`d1-state: replacing Miniflare after a failed proxy call: ${String(err)}`);
      const old = mf;
      mf = undefined;
      migrated = undefined;
      await old?.dispose().catch(() => {});
      db = await emptied();
    }
    return { store: make(db), open: () => make(db) };
  };
}
const shared = { sharedWriters: true };

describeSettingsStoreContract(
  'd1',
  harness((db) => new D1SettingsStore(db)),
);
describeProjectStoreContract(
  'd1',
  harness((db) => new D1ProjectStore(db)),
  shared,
);
describeWorkspaceStoreContract(
  'd1',
  harness((db) => new D1WorkspaceStore(db)),
);
describeAuthStoreContract(
  'd1',
  harness((db) => new D1AuthStore(db)),
);
describeEmbedTokenStoreContract(
  'd1',
  harness((db) => new D1EmbedTokenStore(db)),
  shared,
);
