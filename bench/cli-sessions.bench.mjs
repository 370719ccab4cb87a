// GET /api/sessions with 10,000 WebUI sessions (fs adapter) plus a Hermes state.db of 5,000
// sessions (CLI, Telegram, Discord, cron, compressed chains) merged in by show_cli_sessions: warm
// p95 (budget ≤ 20 ms), the first ask after state.db changed, and opening the last page of a
// 2,000-message CLI session from state.db (budget ≤ 50 ms); and the sidebar search over both
// (titles, content at depth 5, depth 0 by scan and by messages_fts: ≤ 20 ms added by state.db).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { fmt, makeSession, percentile, startServer, stopServer, timeRequest, verdict } from './lib.mjs';

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 10_000);
const STATE_ROWS = Number(process.env.BENCH_STATE_ROWS ?? 5_000);
const LONG = 2_000;
const WARM_REQUESTS = 300;
const SOURCES = ['cli', 'telegram', 'discord', 'cron', 'slack'];

function writeStateDb(path) {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec(`CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, user_id TEXT, chat_id TEXT, thread_id TEXT, model TEXT,
      parent_session_id TEXT, started_at REAL NOT NULL, ended_at REAL, end_reason TEXT, message_count INTEGER DEFAULT 0, title TEXT);
    CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT,
      tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL, reasoning TEXT, active INTEGER DEFAULT 1);
    CREATE INDEX idx_messages_session ON messages(session_id, timestamp);
    CREATE INDEX idx_sessions_started ON sessions(started_at DESC);`);
  const addS = db.prepare(
    'INSERT INTO sessions (id, source, user_id, chat_id, thread_id, model, parent_session_id, started_at, ended_at, end_reason, message_count, title) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const addM = db.prepare('INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    for (let i = 0; i < STATE_ROWS; i++) {
      const t = 1_780_000_000 + i * 90;
      const source = SOURCES[i % SOURCES.length];
      // Every 10th CLI session is the second segment of a compressed chain.
      const chained = source === 'cli' && i % 10 === 5;
      const id = `s_${i}`;
      if (chained) addS.run(`${id}_head`, 'cli', null, null, null, 'openai/gpt-5', null, t - 50, t - 1, 'compression', 2, `Chain ${i}`);
      if (chained) for (let m = 0; m < 2; m++) addM.run(`${id}_head`, m % 2 ? 'assistant' : 'user', `head ${m}`, t - 40 + m);
      const messaging = source !== 'cli' && source !== 'cron';
      addS.run(
        id,
        source,
        messaging ? `u${i}` : null,
        messaging ? `c${i}` : null,
        null,
        'openai/gpt-5',
        chained ? `${id}_head` : null,
        t,
        null,
        null,
        6,
        `Hermes ${source} ${i}`,
      );
      for (let m = 0; m < 6; m++) addM.run(id, m % 2 ? 'assistant' : 'user', `Message ${m} of ${id}`, t + m);
    }
    addS.run('long_cli', 'cli', null, null, null, 'openai/gpt-5', null, 1_779_000_000, null, null, LONG, 'A long CLI session');
    for (let m = 0; m < LONG; m++) addM.run('long_cli', m % 2 ? 'assistant' : 'user', `Long message ${m}: ${'lorem ipsum '.repeat(20)}`, 1_779_000_000 + m);
  })();
  db.close();
}

const SEARCHES = 100;
const hermesRows = async (url) => (await (await fetch(url)).json()).sessions.filter((r) => r.read_only === true).length;

/**
 * GET /api/sessions/search as the sidebar asks it per keystroke, on a server with no WebUI
 * sessions of its own (their content search is another bench's), so what is timed is state.db's
 * part: titles, content in the first 5 messages (the default depth), the whole transcript by a
 * scan (no index), then by Hermes' messages_fts index. Budget: p95 ≤ 20 ms each.
 */
async function searchSeries() {
  const own = join(home, 'search-state');
  mkdirSync(join(own, 'sessions'), { recursive: true });
  const server = await startServer({ HOME: home, HERMES_HOME: hermes, HERMES_WEBUI_STATE_DIR: own });
  try {
    await fetch(`${server.url}/api/settings`, {
      method: 'POST',
      body: JSON.stringify({ show_cli_sessions: true }),
      headers: { 'Content-Type': 'application/json' },
    });
    const run = async (label, query) => {
      const url = `${server.url}/api/sessions/search?${query}`;
      const first = await timeRequest(url);
      const p95 = await series(url, `search ${label} (${await hermesRows(url)} Hermes row(s); first ${fmt(first.ms)} ms)`, {}, SEARCHES);
      console.log(`  → p95 ${fmt(p95)} ms (budget ≤ 20 ms): ${verdict(p95, 20)}`);
    };
    await run('title', 'q=telegram%201236');
    await run('content, depth 5', 'q=message%203%20of%20s_4321&content=1');
    await run('content, depth 0, no index (scan)', 'q=message%205%20of%20s_1234&content=1&depth=0');
    // Hermes' own FTS5 index over messages, as a real state.db has it.
    const db = new Database(join(hermes, 'state.db'));
    db.exec(
      "CREATE VIRTUAL TABLE messages_fts USING fts5(content, content='messages', content_rowid='id'); INSERT INTO messages_fts(messages_fts) VALUES ('rebuild');",
    );
    db.close();
    await run('content, depth 0, messages_fts', 'q=message%205%20of%20s_1234&content=1&depth=0');
  } finally {
    await stopServer(server);
  }
}

const home = mkdtempSync(join(tmpdir(), 'hermes-bench-cli-'));
const hermes = join(home, '.hermes');
const stateDir = join(hermes, 'webui');
const series = async (url, label, headers, count = WARM_REQUESTS) => {
  const times = [];
  for (let i = 0; i < count; i++) times.push((await timeRequest(url, headers)).ms);
  times.sort((a, b) => a - b);
  const p95 = percentile(times, 95);
  console.log(
    `${label} ×${count}: p50 ${fmt(percentile(times, 50))} ms, p95 ${fmt(p95)} ms, p99 ${fmt(percentile(times, 99))} ms, max ${fmt(times.at(-1))} ms`,
  );
  return p95;
};
try {
  mkdirSync(join(stateDir, 'sessions'), { recursive: true });
  for (let i = 0; i < SESSIONS; i++) {
    const s = makeSession(i, 4);
    writeFileSync(join(stateDir, 'sessions', `${s.session_id}.json`), JSON.stringify(s));
  }
  writeStateDb(join(hermes, 'state.db'));
  console.log(`${SESSIONS} WebUI sessions, ${STATE_ROWS} state.db sessions (+ a ${LONG}-message CLI session)`);
  // The first start builds the index from the files (and writes it on shutdown); the second is the real one.
  await stopServer(await startServer({ HOME: home, HERMES_HOME: hermes, HERMES_WEBUI_STATE_DIR: stateDir }));
  const server = await startServer({ HOME: home, HERMES_HOME: hermes, HERMES_WEBUI_STATE_DIR: stateDir });
  try {
    await fetch(`${server.url}/api/settings`, {
      method: 'POST',
      body: JSON.stringify({ show_cli_sessions: true }),
      headers: { 'Content-Type': 'application/json' },
    });
    const first = await timeRequest(`${server.url}/api/sessions`);
    const { total } = await (await fetch(`${server.url}/api/sessions?limit=1`)).json();
    console.log(`first GET /api/sessions after the setting (reads state.db): ${fmt(first.ms)} ms, ${total} rows, ${(first.bytes / 1024).toFixed(0)} KB`);
    const p95 = await series(`${server.url}/api/sessions`, 'warm GET /api/sessions (all merged rows)');
    // As a browser asks: compressed (one compressed copy is reused for a few seconds).
    const p95Br = await series(`${server.url}/api/sessions`, 'warm GET /api/sessions (all merged rows, Accept-Encoding: br, gzip)', {
      'Accept-Encoding': 'br, gzip',
    });
    const p95Page = await series(`${server.url}/api/sessions?limit=100`, 'warm GET /api/sessions?limit=100 (a sidebar page)');
    const worst = Math.max(p95, p95Br, p95Page);
    console.log(`merged list warm p95 ${fmt(worst)} ms (budget ≤ 20 ms): ${verdict(worst, 20)}`);
    // Hermes writes: the next ask reads state.db again.
    const db = new Database(join(hermes, 'state.db'));
    const add = db.prepare("INSERT INTO messages (session_id, role, content, timestamp) VALUES ('s_1', 'user', 'new', ?)");
    const after = [];
    for (let i = 0; i < 10; i++) {
      add.run(1_790_000_000 + i);
      after.push((await timeRequest(`${server.url}/api/sessions?limit=100`)).ms);
    }
    db.close();
    after.sort((a, b) => a - b);
    console.log(`GET /api/sessions?limit=100 right after Hermes wrote state.db ×10: p50 ${fmt(percentile(after, 50))} ms, max ${fmt(after.at(-1))} ms`);
    const open = await series(
      `${server.url}/api/session?session_id=long_cli&msg_limit=50`,
      `open the last page of a ${LONG}-message CLI session (msg_limit=50)`,
    );
    console.log(`last page p95 ${fmt(open)} ms (budget ≤ 50 ms): ${verdict(open, 50)}`);
  } finally {
    await stopServer(server);
  }
  await searchSeries();
} finally {
  rmSync(home, { recursive: true, force: true });
}
