// GET /api/insights over 10,000 WebUI sessions (fs adapter, spread over the last 400 days) plus
// a Hermes state.db of 2,000 CLI/gateway sessions: warm p50/p95/p99 for the 365-day window
// (budget ≤ 30 ms warm), the 30-day preset and a custom range of calendar days.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import Database from 'better-sqlite3';
import { fmt, percentile, startServer, stopServer, timeRequest, verdict } from './lib.mjs';

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 10_000);
const STATE_ROWS = Number(process.env.BENCH_STATE_ROWS ?? 2_000);
const WARM_REQUESTS = 300;
const NOW = Date.now() / 1000;
const SPAN = 400 * 86_400;
const MODELS = ['anthropic/claude-sonnet-4.6', 'openai/gpt-5', 'google/gemini-2.5-pro', 'qwen/qwen3-coder', null];

function makeSession(i) {
  const t = NOW - ((i * 7919) % SESSIONS) * (SPAN / SESSIONS);
  return {
    session_id: i.toString(16).padStart(12, '0'),
    title: `Session ${i}`,
    workspace: '/home/user/work',
    model: MODELS[i % MODELS.length],
    created_at: t - 900,
    updated_at: t,
    archived: i % 97 === 0,
    profile: i % 10 === 0 ? 'work' : 'default',
    input_tokens: 1000 + i,
    output_tokens: 200 + (i % 50),
    cache_read_tokens: i % 3 ? 500 : 0,
    estimated_cost: 0.001 * (i % 40),
    messages: [
      { role: 'user', content: `Question ${i}`, timestamp: t - 900 },
      { role: 'assistant', content: `Answer ${i}`, timestamp: t },
    ],
    tool_calls: [],
  };
}

function writeStateDb(path) {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec(`CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, started_at REAL NOT NULL, ended_at REAL,
    message_count INTEGER DEFAULT 0, input_tokens INTEGER DEFAULT 0, output_tokens INTEGER DEFAULT 0, cache_read_tokens INTEGER DEFAULT 0,
    estimated_cost_usd REAL, title TEXT);
    CREATE INDEX idx_sessions_started ON sessions(started_at DESC);`);
  const add = db.prepare('INSERT INTO sessions VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (let i = 0; i < STATE_ROWS; i++) {
      const t = NOW - (i / STATE_ROWS) * SPAN;
      add.run(`cli_${i}`, ['cli', 'telegram', 'cron', 'webui'][i % 4], MODELS[i % 4], t - 600, t, 8, 3000, 400, 1000, 0.02, null);
    }
  })();
  db.close();
}

const home = mkdtempSync(join(tmpdir(), 'hermes-bench-insights-'));
const hermes = join(home, '.hermes');
const stateDir = join(hermes, 'webui');
try {
  mkdirSync(join(stateDir, 'sessions'), { recursive: true });
  for (let i = 0; i < SESSIONS; i++) {
    const s = makeSession(i);
    writeFileSync(join(stateDir, 'sessions', `${s.session_id}.json`), JSON.stringify(s, null, 2));
  }
  if (STATE_ROWS) writeStateDb(join(hermes, 'state.db'));
  console.log(`${SESSIONS} WebUI sessions over 400 days, ${STATE_ROWS} state.db sessions`);

  // The first start builds the index from the files (and writes it on shutdown); the second is the real one.
  await stopServer(await startServer({ HOME: home, HERMES_HOME: hermes, HERMES_WEBUI_STATE_DIR: stateDir }));
  const server = await startServer({ HOME: home, HERMES_HOME: hermes, HERMES_WEBUI_STATE_DIR: stateDir });
  const series = async (label, path, headers) => {
    const first = await timeRequest(`${server.url}${path}`, headers);
    const times = [];
    for (let i = 0; i < WARM_REQUESTS; i++) times.push((await timeRequest(`${server.url}${path}`, headers)).ms);
    times.sort((a, b) => a - b);
    const [p50, p95, p99] = [50, 95, 99].map((p) => percentile(times, p));
    console.log(
      `${label} (${(first.bytes / 1024).toFixed(0)} KB): first ${fmt(first.ms)} ms; warm ×${WARM_REQUESTS} p50 ${fmt(p50)} ms, p95 ${fmt(p95)} ms, p99 ${fmt(p99)} ms, max ${fmt(times.at(-1))} ms`,
    );
    return { p50, p95, p99 };
  };
  const year = await series('GET /api/insights?days=365', '/api/insights?days=365');
  await series('GET /api/insights?days=365, Accept-Encoding: br', '/api/insights?days=365', { 'Accept-Encoding': 'br' });
  await series('GET /api/insights?days=30', '/api/insights?days=30');
  const today = new Date();
  const startDay = new Date(today.getTime() - 200 * 86_400_000).toISOString().slice(0, 10);
  await series(`GET /api/insights?start=${startDay}&end=<today>`, `/api/insights?start=${startDay}&end=${today.toISOString().slice(0, 10)}`);
  await series('GET /api/insights?days=365&all_profiles=1', '/api/insights?days=365&all_profiles=1');
  await stopServer(server);

  console.log('');
  // On a shared machine the tail is the neighbours' work: the load average says how much.
  console.log(
    `load average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')}`,
  );
  console.log(
    `budget GET /api/insights?days=365 over ${SESSIONS} sessions ≤ 30 ms warm: p50 ${fmt(year.p50)} ms — ${verdict(year.p50, 30)}; p95 ${fmt(year.p95)} ms — ${verdict(year.p95, 30)}; p99 ${fmt(year.p99)} ms`,
  );
} finally {
  rmSync(home, { recursive: true, force: true });
}
