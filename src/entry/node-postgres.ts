import type { Config } from '../config.js';
import type { Clock, Logger } from '../ports/platform.js';
import type { NodeStorage } from './node-storage.js';
import { connectPostgres } from '../adapters/storage/postgres/pg-client.js';
import { applyMigrations } from '../adapters/storage/postgres/pg-migrations.js';
import { PgSessionStore } from '../adapters/storage/postgres/pg-session-store.js';
import { postgresStateStores } from '../adapters/storage/postgres/pg-stores.js';
import { PgRunJournal } from '../adapters/storage/postgres/pg-run-journal.js';
import { startPgCluster } from '../adapters/storage/postgres/pg-cluster.js';
import { PgTurnChangeStore } from '../adapters/storage/postgres/pg-turn-changes.js';

/**
 * HERMES_WEBUI_STORAGE=postgres: every store in one database (HERMES_WEBUI_DATABASE_URL),
 * migrated at start, and the cluster that joins the instances sharing it. The pool is ended by
 * `close()` (after the sessions store is disposed).
 */
export async function composePostgresStorage(config: Config, parts: { logger: Logger; clock: Clock; instanceId: string }): Promise<NodeStorage> {
  const { logger, clock } = parts;
  const sql = connectPostgres(config.databaseUrl!, { max: 10, applicationName: `hermes-webui ${parts.instanceId}` });
  try {
    const applied = await applyMigrations(sql);
    if (applied.length) logger.info({ msg: 'database migrated', versions: applied });
    // Settings, projects, workspaces, auth, embed tokens, push, leases, the catalog cache.
    // Leases read the database's clock, the one clock every instance shares.
    const state = postgresStateStores(sql, { logger });
    // The other instances: each batch of a run's events that lands wakes their watchers.
    const cluster = await startPgCluster({ url: config.databaseUrl!, instanceId: parts.instanceId, logger });
    // Plain batches carry their own NOTIFY; the others (a run opening or closing) wake through the cluster.
    const journal = new PgRunJournal(sql, {
      logger,
      batchMs: 0,
      notify: cluster.wakeUps,
      onCommitted: (streamId, seq, notified) => (notified ? cluster.wakeHere(streamId, seq) : cluster.runAppended(streamId, seq)),
    });
    return {
      sessions: new PgSessionStore(sql, clock),
      ...state,
      journal,
      turnChanges: new PgTurnChangeStore(sql),
      cluster,
      close: async (options) => {
        await cluster.close();
        await sql.end({ timeout: options?.abrupt ? 0 : 5 });
      },
    };
  } catch (err) {
    await sql.end({ timeout: 1 });
    throw err;
  }
}
