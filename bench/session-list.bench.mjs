// GET /api/sessions with 10,000 sessions of 20 messages each in the fs adapter:
// warm p95, first request after a cold start with an existing index, and idle RSS.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, makeSession, percentile, rssMb, startServer, stopServer, timeRequest, verdict } from './lib.mjs';

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 10_000);
const MESSAGES = 20;
const WARM_REQUESTS = 300;

const home = mkdtempSync(join(tmpdir(), 'hermes-bench-list-'));
const stateDir = join(home, 'state');
try {
  // Idle RSS of a fresh server with an empty state dir.
  const empty = await startServer({ HOME: home, HERMES_WEBUI_STATE_DIR: join(home, 'empty') });
  await timeRequest(`${empty.url}/api/sessions`);
  await new Promise((r) => setTimeout(r, 1500));
  const idleEmpty = rssMb(empty.child.pid);
  await stopServer(empty);

  mkdirSync(join(stateDir, 'sessions'), { recursive: true });
  const t0 = performance.now();
  for (let i = 0; i < SESSIONS; i++) {
    const s = makeSession(i, MESSAGES);
    writeFileSync(join(stateDir, 'sessions', `${s.session_id}.json`), JSON.stringify(s, null, 2));
  }
  console.log(`wrote ${SESSIONS} sessions × ${MESSAGES} messages in ${fmt((performance.now() - t0) / 1000)} s`);

  // First start has no index: it builds one from the files, and writes it on shutdown.
  const build = await startServer({ HOME: home, HERMES_WEBUI_STATE_DIR: stateDir });
  console.log(`start without an index (reads every file): ${fmt(build.startMs)} ms to listening`);
  await stopServer(build);

  // Cold start with the index.
  const cold = await startServer({ HOME: home, HERMES_WEBUI_STATE_DIR: stateDir });
  const first = await timeRequest(`${cold.url}/api/sessions`);
  console.log(
    `cold start with index: ${fmt(cold.startMs)} ms to listening; first GET /api/sessions ${fmt(first.ms)} ms (${(first.bytes / 1024).toFixed(0)} KB); spawn→first response ${fmt(cold.startMs + first.ms)} ms`,
  );

  const series = async (label, path, headers) => {
    const times = [];
    for (let i = 0; i < WARM_REQUESTS; i++) times.push((await timeRequest(`${cold.url}${path}`, headers)).ms);
    times.sort((a, b) => a - b);
    console.log(
      `${label} ×${WARM_REQUESTS}: p50 ${fmt(percentile(times, 50))} ms, p95 ${fmt(percentile(times, 95))} ms, p99 ${fmt(percentile(times, 99))} ms, max ${fmt(times.at(-1))} ms`,
    );
    return percentile(times, 95);
  };
  const p95 = await series(`warm GET /api/sessions (all ${SESSIONS} rows, ${(first.bytes / 1024).toFixed(0)} KB)`, '/api/sessions');
  await series('warm GET /api/sessions?limit=100 (a sidebar page)', '/api/sessions?limit=100');
  // As a browser asks: brotli, compressed once per list revision and ETag.
  await series('warm GET /api/sessions?limit=100, Accept-Encoding: br', '/api/sessions?limit=100', { 'Accept-Encoding': 'br' });
  const brAll = await timeRequest(`${cold.url}/api/sessions`, { 'Accept-Encoding': 'br' });
  await series(`warm GET /api/sessions (all rows), Accept-Encoding: br (${(brAll.bytes / 1024).toFixed(0)} KB on the wire)`, '/api/sessions', {
    'Accept-Encoding': 'br',
  });
  // The honest worst case: every request follows a write, so the cached JSON is rebuilt each time.
  {
    const times = [];
    for (let i = 0; i < 50; i++) {
      await fetch(`${cold.url}/api/session/rename`, { method: 'POST', body: JSON.stringify({ session_id: '000000000001', title: `renamed ${i}` }) });
      times.push((await timeRequest(`${cold.url}/api/sessions`)).ms);
    }
    times.sort((a, b) => a - b);
    console.log(`GET /api/sessions right after a write (cache rebuilt) ×50: p50 ${fmt(percentile(times, 50))} ms, p95 ${fmt(percentile(times, 95))} ms`);
  }
  const { etag } = await timeRequest(`${cold.url}/api/sessions`);
  await series('warm GET /api/sessions revalidated (If-None-Match → 304)', '/api/sessions', { 'If-None-Match': etag });
  await new Promise((r) => setTimeout(r, 1500));
  const idleLoaded = rssMb(cold.child.pid);
  await stopServer(cold);

  console.log('');
  console.log(`budget warm p95 ≤ 20 ms: ${fmt(p95)} ms — ${verdict(p95, 20)}`);
  console.log(
    `budget first request after cold start ≤ 300 ms: ${fmt(first.ms)} ms (spawn→response ${fmt(cold.startMs + first.ms)} ms) — ${verdict(first.ms, 300)}`,
  );
  console.log(
    `budget idle RSS ≤ 80 MB: ${fmt(idleEmpty)} MB empty state dir — ${verdict(idleEmpty, 80)}; ${fmt(idleLoaded)} MB with ${SESSIONS} sessions indexed`,
  );
} finally {
  rmSync(home, { recursive: true, force: true });
}
