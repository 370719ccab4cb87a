import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPostgres, type Sql } from '../../../src/adapters/storage/postgres/pg-client.js';
import { applyMigrations } from '../../../src/adapters/storage/postgres/pg-migrations.js';
import { MIGRATIONS } from '../../../src/adapters/storage/postgres/migrations/index.js';
import { testDatabase } from '../../helpers/postgres.js';

describe('Postgres migrations', () => {
  let db: Awaited<ReturnType<typeof testDatabase>>;
  let sql: Sql;
  beforeAll(async () => {
    db = await testDatabase();
    sql = connectPostgres(db.url, { max: 4 });
  });
  afterAll(async () => {
    await sql?.end();
    await db?.drop();
  });

  it('applies every migration once, even when several instances start together', async () => {
    const runs = await Promise.all([applyMigrations(sql), applyMigrations(sql), applyMigrations(sql)]);
    expect(runs.flat().sort()).toEqual(MIGRATIONS.map((m) => m.version).sort());
    const rows = await sql<{ version: number }[]>`SELECT version FROM hermes_schema_migrations ORDER BY version`;
    expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(await applyMigrations(sql)).toEqual([]);
  });

  it('refuses a database whose schema is newer than this server', async () => {
    await sql`INSERT INTO hermes_schema_migrations (version, name) VALUES (999, 'future')`;
    await expect(applyMigrations(sql)).rejects.toThrow(/schema version 999, newer than this server knows/);
    await sql`DELETE FROM hermes_schema_migrations WHERE version = 999`;
  });
});
