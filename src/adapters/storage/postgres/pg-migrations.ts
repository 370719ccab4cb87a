import type { Sql } from './pg-client.js';
import { MIGRATIONS, type PgMigration } from './migrations/index.js';

/** Any constant both sides agree on: the advisory lock that lets one instance migrate at a time. */
const MIGRATION_LOCK = 724_117_001;

/**
 * Applies the migrations this database lacks, in order, each in its own transaction, recorded
 * in `hermes_schema_migrations`. Several instances starting together take turns on an advisory
 * lock, so each migration runs once. A database newer than this code (a version it does not
 * know) is refused rather than written with an older idea of the schema.
 */
export async function applyMigrations(sql: Sql, migrations: readonly PgMigration[] = MIGRATIONS): Promise<number[]> {
  const applied: number[] = [];
  await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await tx`CREATE TABLE IF NOT EXISTS hermes_schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`;
    const done = new Set((await tx<{ version: number }[]>`SELECT version FROM hermes_schema_migrations`).map((r) => r.version));
    const known = new Set(migrations.map((m) => m.version));
    const unknown = [...done].filter((v) => !known.has(v));
    if (unknown.length)
      throw new Error(`the database has schema version ${Math.max(...unknown)}, newer than this server knows (${Math.max(...known)}): upgrade the server`);
    for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
      if (done.has(m.version)) continue;
      await tx.unsafe(m.sql);
      await tx`INSERT INTO hermes_schema_migrations (version, name) VALUES (${m.version}, ${m.name})`;
      applied.push(m.version);
    }
  });
  return applied;
}
