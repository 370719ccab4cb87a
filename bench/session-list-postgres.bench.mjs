// GET /api/sessions with 10,000 sessions of 20 messages each on Postgres (HERMES_WEBUI_STORAGE=
// postgres), the twin of session-list.bench.mjs: the sessions are imported through
// PgSessionStore.importSession (what the fs → Postgres import uses), then the built server is
// timed. Budget: the first page (as the sidebar asks, ?limit=100) warm p95 ≤ 10 ms.
// Its own throwaway PostgreSQL (scripts/test-tools/postgres.mjs: fsync off), or BENCH_PG_URL's.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, makeSession, percentile, startServer, stopServer, timeRequest, verdict } from './lib.mjs';
import { benchDatabase, importPostgresAdapters } from './lib-postgres.mjs';

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 10_000);
const MESSAGES = 20;
const WARM_REQUESTS = 300;
const IMPORT_CONCURRENCY = 8;

const db = await benchDatabase('bench_list');
const dir = mkdtempSync(join(tmpdir(), 'hermes-bench-pg-list-'));
try {
  const { connectPostgres, applyMigrations, PgSessionStore } = await importPostgresAdapters(['pg-client', 'pg-migrations', 'pg-session-store']);
  const databaseUrl = db.url;

  const sql = connectPostgres(databaseUrl, { max: IMPORT_CONCURRENCY });
  await applyMigrations(sql);
  const store = new PgSessionStore(sql, { now: () => Date.now() / 1000 });
  await store.init();
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: IMPORT_CONCURRENCY }, async () => {
      while (next < SESSIONS) await store.importSession(makeSession(next++, MESSAGES));
    }),
  );
  const importMs = performance.now() - t0;
  console.log(
    `imported ${SESSIONS} sessions × ${MESSAGES} messages in ${fmt(importMs / 1000)} s (${fmt((importMs / SESSIONS) * IMPORT_CONCURRENCY)} ms per session, ${IMPORT_CONCURRENCY} at a time)`,
  );
  await store.dispose();
  await sql.end();

  const env = { HOME: dir, HERMES_WEBUI_STATE_DIR: join(dir, 'state'), HERMES_WEBUI_STORAGE: 'postgres', HERMES_WEBUI_DATABASE_URL: databaseUrl };
  const server = await startServer(env);
  try {
    const first = await timeRequest(`${server.url}/api/sessions?limit=100`);
    console.log(
      `cold start: ${fmt(server.startMs)} ms to listening; first GET /api/sessions?limit=100 ${fmt(first.ms)} ms (reads all ${SESSIONS} rows once; ${(first.bytes / 1024).toFixed(0)} KB)`,
    );
    const series = async (label, path, headers) => {
      const times = [];
      for (let i = 0; i < WARM_REQUESTS; i++) times.push((await timeRequest(`${server.url}${path}`, headers)).ms);
      times.sort((a, b) => a - b);
      console.log(
        `${label} ×${WARM_REQUESTS}: p50 ${fmt(percentile(times, 50))} ms, p95 ${fmt(percentile(times, 95))} ms, p99 ${fmt(percentile(times, 99))} ms, max ${fmt(times.at(-1))} ms`,
      );
      return percentile(times, 95);
    };
    // Warm means warm: the JIT and the GC of the first whole read settle before anything is timed.
    for (let i = 0; i < 50; i++) await timeRequest(`${server.url}/api/sessions?limit=100`);
    const p95 = await series('warm GET /api/sessions?limit=100 (the first page)', '/api/sessions?limit=100');
    await series('warm GET /api/sessions?limit=100, Accept-Encoding: br', '/api/sessions?limit=100', { 'Accept-Encoding': 'br' });
    const all = await timeRequest(`${server.url}/api/sessions`);
    await series(`warm GET /api/sessions (all rows, ${(all.bytes / 1024).toFixed(0)} KB)`, '/api/sessions');
    const { etag } = await timeRequest(`${server.url}/api/sessions?limit=100`);
    await series('warm GET /api/sessions?limit=100 revalidated (If-None-Match → 304)', '/api/sessions?limit=100', { 'If-None-Match': etag });
    // The honest worst case: every request follows a write (the store fetches the changed row, the route rebuilds its JSON).
    const times = [];
    for (let i = 0; i < 50; i++) {
      await fetch(`${server.url}/api/session/rename`, { method: 'POST', body: JSON.stringify({ session_id: '000000000001', title: `renamed ${i}` }) });
      times.push((await timeRequest(`${server.url}/api/sessions?limit=100`)).ms);
    }
    times.sort((a, b) => a - b);
    console.log(
      `GET /api/sessions?limit=100 right after a write (changed row fetched, JSON rebuilt) ×50: p50 ${fmt(percentile(times, 50))} ms, p95 ${fmt(percentile(times, 95))} ms`,
    );
    console.log('');
    console.log(`budget first page warm p95 ≤ 10 ms: ${fmt(p95)} ms — ${verdict(p95, 10)}`);
  } finally {
    await stopServer(server);
  }
} finally {
  await db.drop();
  rmSync(dir, { recursive: true, force: true });
}
