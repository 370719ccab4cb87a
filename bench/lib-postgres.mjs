// What the Postgres benches share: a throwaway database (on their own PostgreSQL, started like the
// tests' one with scripts/test-tools/postgres.mjs, or on BENCH_PG_URL's server) and the adapters'
// TypeScript sources bundled for a plain node process.
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import postgres from 'postgres';
import { machine } from '../scripts/test-tools/find-browser.mjs';
import { runCaptured } from '../scripts/test-tools/provision.mjs';
import { ensurePostgres, startPostgres } from '../scripts/test-tools/postgres.mjs';
import { root } from './lib.mjs';

/**
 * A fresh database named `<prefix>_<pid>`; `drop()` removes it and stops the server this started.
 * @param {string} prefix
 * @returns {Promise<{ url: string, drop: () => Promise<void> }>}
 */
export async function benchDatabase(prefix) {
  const pg = process.env.BENCH_PG_URL ? null : await startPostgres(await ensurePostgres({ machine, run: runCaptured }));
  const adminUrl = process.env.BENCH_PG_URL ?? pg.url;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  const name = `${prefix}_${process.pid}`;
  try {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } catch (err) {
    await admin.end();
    await pg?.stop();
    throw err;
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await admin.end();
      await pg?.stop();
    },
  };
}

/**
 * The named files of src/adapters/storage/postgres/, bundled and imported (a bench runs plain node, not TypeScript).
 * @param {string[]} files e.g. ['pg-client', 'pg-migrations']
 */
export async function importPostgresAdapters(files) {
  const dir = mkdtempSync(join(tmpdir(), 'hermes-bench-pg-src-'));
  try {
    const entry = join(dir, 'entry.ts');
    writeFileSync(entry, files.map((f) => `export * from ${JSON.stringify(join(root, `src/adapters/storage/postgres/${f}.ts`))};`).join('\n'));
    const outfile = join(dir, 'pg.mjs');
    await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'node', outfile, logLevel: 'error' });
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
