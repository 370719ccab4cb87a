import postgres from 'postgres';
import { PG_URL_ENV } from './postgres-env.js';

/**
 * A fresh, empty database on the run's PostgreSQL server (global-setup.ts starts it), for one
 * file or one test: `url` connects to it, `drop()` removes it (connections still open are ended).
 *
 * @example
 * const db = await testDatabase();
 * afterAll(() => db.drop());
 */
export async function testDatabase(): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const admin = process.env[PG_URL_ENV];
  if (!admin) throw new Error(`${PG_URL_ENV} is not set: run the tests through vitest's global setup (npm test, or npx vitest)`);
  const name = `t_${crypto.randomUUID().replace(/-/g, '').slice(0, 20)}`;
  const sql = postgres(admin, { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`CREATE DATABASE ${name}`);
  } finally {
    await sql.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const db = postgres(admin, { max: 1, onnotice: () => {} });
      try {
        await db.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await db.end();
      }
    },
  };
}
