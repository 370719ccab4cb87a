// Canonical session resolution with 10,000 sessions in the fs adapter, a third of them in
// compressed lineages (snapshot → snapshot → live tip): warm GET /api/session for a plain
// session and for a two-hop snapshot parent (resolving reads the rows), and the list, which
// leaves superseded snapshots out.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, makeSession, percentile, startServer, stopServer, timeRequest, verdict } from './lib.mjs';

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 10_000);
const WARM_REQUESTS = 300;

const home = mkdtempSync(join(tmpdir(), 'hermes-bench-canon-'));
const stateDir = join(home, 'state');
try {
  mkdirSync(join(stateDir, 'sessions'), { recursive: true });
  for (let i = 0; i < SESSIONS; i++) {
    const s = makeSession(i, 10);
    // Every three sessions i, i+1, i+2 from i % 3 === 0: root snapshot, mid snapshot, live tip.
    if (i % 3 === 0 && i + 2 < SESSIONS) s.pre_compression_snapshot = true;
    if (i % 3 === 1 && i + 1 < SESSIONS) {
      s.pre_compression_snapshot = true;
      s.parent_session_id = makeSession(i - 1, 0).session_id;
    }
    if (i % 3 === 2) s.parent_session_id = makeSession(i - 1, 0).session_id;
    s.archived = false;
    writeFileSync(join(stateDir, 'sessions', `${s.session_id}.json`), JSON.stringify(s, null, 2));
  }
  const server = await startServer({ HOME: home, HERMES_WEBUI_STATE_DIR: stateDir });
  // The newest full lineage: its root is the last index ≤ SESSIONS - 3 divisible by 3.
  const r = SESSIONS - 3 - ((SESSIONS - 3) % 3);
  const root = makeSession(r, 0).session_id;
  const tip = makeSession(r + 2, 0).session_id;
  const check = await (await fetch(`${server.url}/api/session?session_id=${root}&msg_limit=100`)).json();
  if (check.session.canonical_visible_session_id !== tip) throw new Error(`resolved to ${check.session.canonical_visible_session_id}, not ${tip}`);

  const series = async (label, path) => {
    const times = [];
    for (let i = 0; i < WARM_REQUESTS; i++) times.push((await timeRequest(`${server.url}${path}`)).ms);
    times.sort((a, b) => a - b);
    console.log(`${label} ×${WARM_REQUESTS}: p50 ${fmt(percentile(times, 50))} ms, p95 ${fmt(percentile(times, 95))} ms, max ${fmt(times.at(-1))} ms`);
    return percentile(times, 95);
  };
  const plain = await series('warm GET /api/session (a live session, last page)', `/api/session?session_id=${tip}&msg_limit=100`);
  const snapshot = await series('warm GET /api/session (a two-hop snapshot parent, resolved)', `/api/session?session_id=${root}&msg_limit=100`);
  const { bytes } = await timeRequest(`${server.url}/api/sessions`);
  const list = await series(`warm GET /api/sessions (snapshots left out, ${(bytes / 1024).toFixed(0)} KB)`, '/api/sessions');
  await stopServer(server);

  console.log('');
  console.log(`budget snapshot open warm p95 ≤ 20 ms: ${fmt(snapshot)} ms (a live session: ${fmt(plain)} ms) — ${verdict(snapshot, 20)}`);
  console.log(`budget list warm p95 ≤ 20 ms: ${fmt(list)} ms — ${verdict(list, 20)}`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
