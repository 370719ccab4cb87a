import type { D1Database } from './d1-types.js';
import { MIGRATIONS, type Migration } from './schema.js';

export { MIGRATIONS, type Migration } from './schema.js';

/** Where wrangler records applied migrations (its default `migrations_table`). */
export const MIGRATIONS_TABLE = 'd1_migrations';

/** Wrangler's own DDL for that table (`wrangler d1 migrations apply`), so either can create it. */
const CREATE_TABLE = (table: string) => `CREATE TABLE IF NOT EXISTS ${table}(
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		name       TEXT UNIQUE,
		applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
);`;

export interface ApplyMigrationsOptions {
  /** Defaults to MIGRATIONS (the copies of migrations/*.sql). */
  migrations?: readonly Migration[];
  /** Defaults to `d1_migrations`; set it when wrangler.toml sets `migrations_table`. */
  table?: string;
  /** Called with each migration's name as this call applies it. */
  onApplied?: (name: string) => void;
}

/**
 * Brings the database up to date: every migration not yet recorded in `d1_migrations` runs as
 * one batch (one transaction) together with the row that records it, in file-name order, as
 * `wrangler d1 migrations apply` does, so each sees what the other applied. Idempotent and safe
 * when several isolates start at once: a batch that fails because another isolate applied the
 * same migration first (its record row is unique) rolls back whole and counts as applied.
 * `onApplied` hears each migration this call applied.
 */
export async function applyMigrations(db: D1Database, options: ApplyMigrationsOptions = {}): Promise<void> {
  const table = tableName(options.table);
  const migrations = [...(options.migrations ?? MIGRATIONS)].sort((a, b) => migrationNumber(a.name) - migrationNumber(b.name) || (a.name < b.name ? -1 : 1));
  await db.prepare(CREATE_TABLE(table)).run();
  const done = new Set(await appliedMigrations(db, { table }));
  for (const migration of migrations) {
    if (done.has(migration.name)) continue;
    const statements = splitSqlStatements(migration.sql).map((sql) => db.prepare(sql));
    statements.push(db.prepare(`INSERT INTO ${table} (name) VALUES (?1)`).bind(migration.name));
    try {
      await db.batch(statements);
      options.onApplied?.(migration.name);
    } catch (err) {
      if ((await appliedMigrations(db, { table })).includes(migration.name)) continue;
      throw new Error(`D1 migration ${migration.name} failed: ${(err as Error).message}`, { cause: err });
    }
  }
}

/** The migrations recorded as applied (by this module or by wrangler), in the order applied. */
export async function appliedMigrations(db: D1Database, options: { table?: string } = {}): Promise<string[]> {
  const table = tableName(options.table);
  const exists = await db.prepare("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = ?1").bind(table).first();
  if (!exists) return [];
  const { results } = await db.prepare(`SELECT name FROM ${table} ORDER BY id`).all<{ name: string }>();
  return results.map((r) => r.name);
}

function tableName(table = MIGRATIONS_TABLE): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(table)) throw new Error(`Invalid migrations table name: ${table}`);
  return table;
}

/** Wrangler orders by the number before the first `_`. */
function migrationNumber(name: string): number {
  const n = parseInt(name.split('_')[0] ?? '', 10);
  return Number.isNaN(n) ? Number.MAX_SAFE_INTEGER : n;
}

/**
 * Splits a migration file into statements the way wrangler does: at `;` outside quotes,
 * comments and `BEGIN … END` / `CASE … END` blocks (trigger bodies); comments are dropped.
 */
export function splitSqlStatements(sql: string): string[] {
  const statements: string[] = [];
  let current = '';
  let word = '';
  let depth = 0;
  const endWord = () => {
    const w = word.toUpperCase();
    if (w === 'BEGIN' || w === 'CASE') depth++;
    else if (w === 'END' && depth > 0) depth--;
    word = '';
  };
  for (let i = 0; i < sql.length; ) {
    const ch = sql[i]!;
    if (/[A-Za-z0-9_]/.test(ch)) {
      word += ch;
      current += ch;
      i++;
      continue;
    }
    endWord();
    if (ch === "'" || ch === '"' || ch === '`') {
      const close = sql.indexOf(ch, i + 1);
      const stop = close < 0 ? sql.length : close + 1;
      current += sql.slice(i, stop);
      i = stop;
    } else if (ch === '-' && sql[i + 1] === '-') {
      const eol = sql.indexOf('\n', i);
      current += '\n';
      i = eol < 0 ? sql.length : eol + 1;
    } else if (ch === '/' && sql[i + 1] === '*') {
      const close = sql.indexOf('*/', i + 2);
      i = close < 0 ? sql.length : close + 2;
    } else if (ch === ';' && depth === 0) {
      statements.push(current);
      current = '';
      i++;
    } else {
      current += ch;
      i++;
    }
  }
  endWord();
  statements.push(current);
  return statements.map((s) => s.trim()).filter(Boolean);
}
