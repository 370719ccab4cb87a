// Keystroke echo through the embedded terminal over real HTTP on loopback: POST
// /api/terminal/input one character, time until the SSE `output` frame carrying its echo
// arrives (the built server, a real PTY running bash). Budget: p50 ≤ 15 ms.
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, percentile, startServer, stopServer, verdict } from './lib.mjs';

const BUDGET_P50_MS = 15;
const ROUNDS = 300;
const WARMUP = 30;
const agent = new http.Agent({ keepAlive: true });

function post(url, body) {
  return new Promise((resolve, reject) => {
    const data = JSON.stringify(body);
    const req = http.request(
      url,
      { method: 'POST', agent, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(data) } },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => (res.statusCode >= 400 ? reject(new Error(`${url} → ${res.statusCode} ${text}`)) : resolve(JSON.parse(text))));
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}

const home = mkdtempSync(join(tmpdir(), 'hermes-bench-terminal-echo-'));
const server = await startServer({ HOME: home, HERMES_WEBUI_STATE_DIR: join(home, 'state'), SHELL: '/bin/bash' });
let stream;
try {
  const { session } = await post(`${server.url}/api/session/new`, {});
  const sid = session.session_id;
  const started = await post(`${server.url}/api/terminal/start`, { session_id: sid, rows: 24, cols: 200 });
  // Output frames as they come; `waiter` is the pending "did my character come back" check.
  let waiter = null;
  let buffer = '';
  stream = http.get(`${server.url}/api/terminal/output?session_id=${sid}`, (res) => {
    res.setEncoding('utf8');
    res.on('data', (chunk) => {
      buffer += chunk;
      let at;
      while ((at = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        const data = /^data: (.*)$/m.exec(block);
        if (!/^event: output$/m.test(block) || !data) continue;
        const text = JSON.parse(data[1]).text;
        if (waiter?.(text)) waiter = null;
      }
    });
  });
  const echoed = (ch) => new Promise((resolve) => (waiter = (text) => text.includes(ch) && (resolve(), true)));
  const settle = () => new Promise((r) => setTimeout(r, 150));
  await settle(); // the prompt
  const times = [];
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  for (let i = 0; i < WARMUP + ROUNDS; i++) {
    if (i % letters.length === 0 && i > 0) {
      await post(`${server.url}/api/terminal/input`, { session_id: sid, data: '\x15' }); // Ctrl-U: an empty line again
      await settle();
    }
    const ch = letters[i % letters.length];
    const back = echoed(ch);
    const t = performance.now();
    await post(`${server.url}/api/terminal/input`, { session_id: sid, data: ch });
    await back;
    if (i >= WARMUP) times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const p50 = percentile(times, 50);
  console.log(
    `terminal keystroke echo (${started.engine}, ${ROUNDS} keys): p50 ${fmt(p50)} ms, p95 ${fmt(percentile(times, 95))} ms, max ${fmt(times.at(-1))} ms (budget p50 ≤ ${BUDGET_P50_MS} ms): ${verdict(p50, BUDGET_P50_MS)}`,
  );
  process.exitCode = p50 <= BUDGET_P50_MS ? 0 : 1;
  await post(`${server.url}/api/terminal/close`, { session_id: sid });
} finally {
  stream?.destroy();
  agent.destroy();
  await stopServer(server);
  rmSync(home, { recursive: true, force: true });
}
