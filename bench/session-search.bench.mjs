// session_search inside a real turn: the time from the model asking for it (its tool call is
// answered) to the next model request carrying the result, over 2,000 fs sessions of 20
// messages and a state.db of 2,000 sessions × 20 messages with Hermes' FTS5 index.
// Budget: p95 ≤ 500 ms for a discovery query over both stores.
import http from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { fmt, percentile, startServer, stopServer, verdict } from './lib.mjs';

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 2000);
const MESSAGES = 20;
const QUERIES = 30;
const words = ['deploy', 'staging', 'postgres', 'vacuum', 'upload', 'flaky', 'kubernetes', 'invoice', 'calendar', 'refactor'];
const text = (i, m) => `Message ${m} of ${i}: ${words[(i + m) % words.length]} ${words[(i * 7 + m) % words.length]} lorem ipsum dolor sit amet`;

const home = mkdtempSync(join(tmpdir(), 'hermes-bench-recall-'));
const hermesHome = join(home, '.hermes');
const stateDir = join(home, 'state');
mkdirSync(join(stateDir, 'sessions'), { recursive: true });
for (let i = 0; i < SESSIONS; i++) {
  const id = `b${i.toString(16).padStart(11, '0')}`;
  const t = 1_780_000_000 + i * 60;
  const messages = Array.from({ length: MESSAGES }, (_, m) => ({ role: m % 2 ? 'assistant' : 'user', content: text(i, m), timestamp: t + m }));
  const session = { session_id: id, title: `Session ${i}`, workspace: home, model: 'bench', created_at: t, updated_at: t + MESSAGES, messages, tool_calls: [] };
  writeFileSync(join(stateDir, 'sessions', `${id}.json`), JSON.stringify(session));
}
mkdirSync(hermesHome, { recursive: true });
{
  const state = new Database(join(hermesHome, 'state.db'));
  state.pragma('journal_mode = WAL');
  state.exec(`CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, title TEXT, started_at REAL NOT NULL, ended_at REAL, message_count INTEGER DEFAULT 0);
    CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL, content TEXT, tool_name TEXT, tool_calls TEXT, timestamp REAL NOT NULL);
    CREATE INDEX idx_messages_session_id ON messages(session_id, id);
    CREATE VIRTUAL TABLE messages_fts USING fts5(content, tool_name, tool_calls, content='messages', content_rowid='id');`);
  const addSession = state.prepare('INSERT INTO sessions (id, source, title, started_at, message_count) VALUES (?, ?, ?, ?, ?)');
  const addMessage = state.prepare('INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)');
  state.transaction(() => {
    for (let i = 0; i < SESSIONS; i++) {
      addSession.run(`cli_${i}`, 'cli', `CLI ${i}`, 1_770_000_000 + i * 60, MESSAGES);
      for (let m = 0; m < MESSAGES; m++) addMessage.run(`cli_${i}`, m % 2 ? 'assistant' : 'user', text(i, m), 1_770_000_000 + i * 60 + m);
    }
  })();
  state.exec("INSERT INTO messages_fts(messages_fts) VALUES('rebuild')");
  state.close();
}

// A provider that answers a turn's first request with one session_search call and the second
// with text, noting when each request arrived.
let query = 'deploy staging';
const arrivals = [];
const sse = (delta, finish = null) =>
  `data: ${JSON.stringify({ id: 'b', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const provider = http.createServer(async (req, res) => {
  let body = '';
  for await (const c of req) body += c;
  const request = JSON.parse(body);
  res.writeHead(200, { 'Content-Type': 'text/event-stream' });
  const last = request.messages.at(-1);
  if (/title for this conversation/.test(request.messages?.[0]?.content ?? ''))
    return res.end(sse({ content: 'Bench' }) + sse({}, 'stop') + 'data: [DONE]\n\n');
  arrivals.push({ at: performance.now(), tool: last.role === 'tool' });
  if (last.role === 'tool') return res.end(sse({ content: 'ok' }) + sse({}, 'stop') + 'data: [DONE]\n\n');
  const call = { index: 0, id: 'c1', type: 'function', function: { name: 'session_search', arguments: JSON.stringify({ query, limit: 3 }) } };
  res.end(sse({ tool_calls: [call] }) + sse({}, 'tool_calls') + 'data: [DONE]\n\n');
});
await new Promise((r) => provider.listen(0, '127.0.0.1', r));
writeFileSync(join(hermesHome, 'config.yaml'), `model:\n  default: bench\n  provider: custom\n  base_url: http://127.0.0.1:${provider.address().port}/v1\n`);

const server = await startServer({ HOME: home, HERMES_HOME: hermesHome, HERMES_WEBUI_STATE_DIR: stateDir });
const call = (method, path, body) =>
  fetch(server.url + path, { method, headers: { 'Content-Type': 'application/json' }, body: body ? JSON.stringify(body) : undefined }).then((r) => r.text());
try {
  const measure = async (queries) => {
    const times = [];
    for (const q of queries) {
      query = q;
      const sid = JSON.parse(await call('POST', '/api/session/new', {})).session.session_id;
      arrivals.length = 0;
      const { stream_id } = JSON.parse(await call('POST', '/api/chat/start', { session_id: sid, message: 'recall' }));
      await call('GET', `/api/chat/stream?stream_id=${stream_id}`);
      const [first, second] = arrivals;
      if (!first || !second?.tool) throw new Error(`unexpected turn: ${JSON.stringify(arrivals)}`);
      times.push(second.at - first.at);
    }
    return times.sort((a, b) => a - b);
  };
  const size = `${SESSIONS} fs sessions + ${SESSIONS} state.db sessions (${SESSIONS * MESSAGES * 2} messages)`;
  // Words that occur together somewhere (the common case): answered from the first candidates.
  const found = await measure(
    Array.from({ length: QUERIES }, (_, i) => [`${words[i % 10]} ${words[(i * 7) % 10]}`, `${words[i % 10]} OR vacuum`, '"lorem ipsum" deploy*'][i % 3]),
  );
  const p95 = percentile(found, 95);
  console.log(
    `session_search, matching queries, over ${size}, model call → result ×${QUERIES}: p50 ${fmt(percentile(found, 50))} ms, p95 ${fmt(p95)} ms — ${verdict(p95, 500)}`,
  );
  // Common words never in one message: our store (no index) is read whole, twice at most.
  const none = await measure(['deploy staging', 'postgres vacuum', 'upload flaky']);
  console.log(`session_search, common words never together (full scan of our store) ×3: p50 ${fmt(percentile(none, 50))} ms, max ${fmt(none.at(-1))} ms`);
} finally {
  await stopServer(server);
  provider.close();
  rmSync(home, { recursive: true, force: true });
}
