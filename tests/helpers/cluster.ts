import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startScriptedOpenAI, type ScriptedServer } from '../fixtures/scripted-openai.js';
import { makeTestApp, memoryLogger, type TestApp } from './app.js';
import { isTitleRequest, TITLE } from './chat.js';
import { testDatabase } from './postgres.js';
import { composeNodeStorage, type NodeStorage } from '../../src/entry/node-storage.js';
import { parseConfig } from '../../src/config.js';
import type { LeaseStore } from '../../src/ports/lease.js';

/** A lease store one instance sees through: `cut()` makes its renewals fail, as a partitioned or frozen owner's do. */
export class CuttableLeases implements LeaseStore {
  cutOff = false;
  constructor(private readonly inner: LeaseStore) {}
  acquire(key: string, owner: string, ttlMs: number) {
    return this.cutOff ? Promise.resolve(false) : this.inner.acquire(key, owner, ttlMs);
  }
  renew(key: string, owner: string, ttlMs: number) {
    return this.cutOff ? Promise.resolve(false) : this.inner.renew(key, owner, ttlMs);
  }
  release(key: string, owner: string) {
    return this.cutOff ? Promise.resolve() : this.inner.release(key, owner);
  }
  holder(key: string) {
    return this.inner.holder(key);
  }
}

export interface ClusterInstance extends TestApp {
  id: string;
  leases: CuttableLeases;
  /** This instance's own Postgres stores (its pool, its PgCluster). */
  storage: NodeStorage;
}

export interface ClusterHarness {
  model: ScriptedServer;
  instances: ClusterInstance[];
  /** A reader of the shared database of its own (not any instance's pool): what the database holds. */
  storage: NodeStorage;
  /**
   * The instance dies as far as the database and the other instances can tell: its lease renewals
   * and takeover sweep stop, its PgCluster closes (its listening connection is gone, so it is no
   * longer "alive" to the others and requests to it fail at once) and its pool ends at once, so whatever
   * its run still does in memory reaches nobody.
   */
  kill(instance: ClusterInstance): Promise<void>;
  close(): Promise<void>;
}

const STATE = (dir: string, id: string) => join(dir, 'state', id);

/** The stores an instance opens on `url`, composed as the server composes them (its own pool, its own PgCluster). */
async function openStorage(url: string, dir: string, id: string): Promise<NodeStorage> {
  const config = parseConfig({ HERMES_WEBUI_STORAGE: 'postgres', HERMES_WEBUI_DATABASE_URL: url, HERMES_WEBUI_STATE_DIR: STATE(dir, id) }, { home: dir });
  return composeNodeStorage(config, { logger: memoryLogger(), clock: { now: () => Date.now() / 1000 }, instanceId: id });
}

/**
 * `count` instances in this process on one real Postgres database (a fresh one, dropped on
 * close): each its own pool and its own PgCluster over LISTEN/NOTIFY, composed as the server
 * composes them; they share $HERMES_HOME and the workspace (as the scale-out guide asks) and one
 * scripted model server. Only the lease store is wrapped (CuttableLeases), to model a partition.
 */
export async function makeCluster(
  count: number,
  options: { extraYaml?: string; runLease?: { ttlMs?: number; renewMs?: number; takeoverMs?: number } } = {},
): Promise<ClusterHarness> {
  const model = await startScriptedOpenAI();
  model.setRouter((req) => (isTitleRequest(req) ? [{ text: TITLE }] : undefined));
  model.setFallback(() => ({ status: 500, body: 'no script queued for this request' }));
  const dir = await mkdtemp(join(tmpdir(), 'hermes-cluster-'));
  const db = await testDatabase();
  const instances: ClusterInstance[] = [];
  const dead = new Set<ClusterInstance>();
  const reader = await openStorage(db.url, dir, 'test-reader');
  try {
    for (let i = 0; i < count; i++) {
      const id = `instance-${String.fromCharCode(65 + i)}`;
      const storage = await openStorage(db.url, dir, id);
      const leases = new CuttableLeases(storage.leases);
      const t = await makeTestApp({
        dir,
        env: { HERMES_WEBUI_INSTANCE_ID: id },
        configYaml: `# test configuration\nmodel:\n  default: test-model\n  provider: custom\n  base_url: ${model.url}\n${options.extraYaml ?? ''}`,
        // Closed abruptly once killed: what it still has in flight is cut off, as a dead process's is.
        sharedStorage: { ...storage, leases, close: () => storage.close({ abrupt: dead.has(instances[i]!) }) },
        runLease: options.runLease ?? { ttlMs: 2_000, renewMs: 250, takeoverMs: 250 },
      });
      instances.push(Object.assign(t, { id, leases, storage }));
    }
  } catch (err) {
    for (const t of instances) await t.close();
    await reader.close();
    await db.drop();
    throw err;
  }
  return {
    model,
    instances,
    storage: reader,
    async kill(instance) {
      dead.add(instance);
      instance.leases.cutOff = true;
      // Timers stopped, the cluster's connections and the pool ended at once (sql.end({ timeout: 0 })).
      await instance.deps.closeStorage?.();
    },
    async close() {
      for (const t of instances) {
        // A dead one's storage is closed already; the rest of it (runs, MCP, logs) is stopped as any.
        if (dead.has(t)) t.deps.closeStorage = async () => {};
        await t.close();
      }
      await reader.close();
      await db.drop();
      await model.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
