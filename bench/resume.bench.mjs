// Resume after a restart: turns killed (kill -9) mid-answer carry on when the server starts
// again. Measured: from the restarted server's "listening" line to the scripted provider
// receiving each resumed model request (negative: it arrived before the server listened, as
// recovery starts resumed calls before serving). Budget: ≤ 2 s for every turn, 10 cut at once.
import http from 'node:http';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, percentile, startServer, verdict } from './lib.mjs';

const chunk = (delta, finish = null) =>
  `data: ${JSON.stringify({ id: 'b', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const done = 'data: [DONE]\n\n';
const now = () => performance.timeOrigin + performance.now();
const CONTINUE = /The server restarted while you were writing/;

// First requests stream slowly (cut by the kill); resumed ones (ending with the continue note) answer at once.
const resumedArrivals = [];
const provider = http.createServer(async (req, res) => {
  let body = '';
  for await (const c of req) body += c;
  const request = JSON.parse(body);
  const arrived = now();
  res.writeHead(200, { 'Content-Type': 'text/event-stream' });
  if (/title for this conversation/.test(request.messages?.[0]?.content ?? '')) return res.end(chunk({ content: 'Bench' }) + chunk({}, 'stop') + done);
  if (CONTINUE.test(request.messages.at(-1)?.content ?? '')) {
    resumedArrivals.push(arrived);
    return res.end(chunk({ content: 'the rest.' }) + chunk({}, 'stop') + done);
  }
  for (let i = 0; i < 2000 && !res.destroyed; i++) {
    res.write(chunk({ content: `w${i} ` }));
    await new Promise((r) => setTimeout(r, 10));
  }
  res.end(chunk({}, 'stop') + done);
});
await new Promise((r) => provider.listen(0, '127.0.0.1', r));
const providerUrl = `http://127.0.0.1:${provider.address().port}/v1`;

async function post(base, path, body) {
  const res = await fetch(base + path, { method: 'POST', body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`${path} ${res.status} ${await res.text()}`);
  return res.json();
}

const home = mkdtempSync(join(tmpdir(), 'hermes-bench-resume-'));
mkdirSync(join(home, '.hermes'), { recursive: true });
writeFileSync(join(home, '.hermes', 'config.yaml'), `model:\n  default: m\n  provider: custom\n  base_url: ${providerUrl}\n`);
const env = { HOME: home, HERMES_HOME: join(home, '.hermes') };

const ROUNDS = 5;
const TURNS = 10;
const delays = [];
const lastDelays = [];
try {
  let server = await startServer(env);
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < TURNS; i++) {
      const sid = (await post(server.url, '/api/session/new', {})).session.session_id;
      await post(server.url, '/api/chat/start', { session_id: sid, message: `essay ${round}.${i}` });
    }
    // Well into streaming (past the journal's batching window) before the kill.
    await new Promise((r) => setTimeout(r, 500));
    const exited = new Promise((r) => server.child.on('exit', r));
    server.child.kill('SIGKILL');
    await exited;
    resumedArrivals.length = 0;
    server = await startServer(env);
    const listening = now();
    const until = listening + 10_000;
    while (resumedArrivals.length < TURNS && now() < until) await new Promise((r) => setTimeout(r, 5));
    if (resumedArrivals.length < TURNS) throw new Error(`only ${resumedArrivals.length} of ${TURNS} turns resumed`);
    const round_ = resumedArrivals.map((t) => t - listening);
    delays.push(...round_);
    lastDelays.push(Math.max(...round_));
    // Let the resumed turns finish before the next round.
    await new Promise((r) => setTimeout(r, 500));
  }
  const exited = new Promise((r) => server.child.on('exit', r));
  server.child.kill('SIGTERM');
  await exited;
} finally {
  provider.close();
  rmSync(home, { recursive: true, force: true });
}
delays.sort((a, b) => a - b);
const worst = Math.max(...lastDelays);
console.log(`${ROUNDS} restarts, ${TURNS} turns cut mid-answer each: listening → resumed model request`);
console.log(
  `  p50 ${fmt(percentile(delays, 50))} ms, p99 ${fmt(percentile(delays, 99))} ms, slowest ${fmt(worst)} ms (budget ≤ 2000 ms: ${verdict(worst, 2000)})`,
);
if (worst > 2000) process.exitCode = 1;
