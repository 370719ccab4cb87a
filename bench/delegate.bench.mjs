// delegate_task's own cost: from the parent's tool call leaving the provider to each child's
// first model request arriving (child session written, run registered, prompt built), beside
// what starting an ordinary turn costs (POST /api/chat/start sent → its first model request).
// Budget: a child's start, three at once, within the ordinary start + 25 ms at p50 (and
// + 100 ms at p99) on the fs store: a child costs about what a turn costs to start.
import http from 'node:http';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, percentile, startServer, stopServer, verdict } from './lib.mjs';

const chunk = (delta, finish = null) =>
  `data: ${JSON.stringify({ id: 'b', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const done = 'data: [DONE]\n\n';
const now = () => performance.timeOrigin + performance.now();

// The parent asks for three children, each child answers at once, then the parent answers.
let toolCallSentAt = 0;
let startSentAt = 0;
const childArrivals = [];
const turnStarts = [];
const provider = http.createServer(async (req, res) => {
  let body = '';
  for await (const c of req) body += c;
  const request = JSON.parse(body);
  const arrived = now();
  res.writeHead(200, { 'Content-Type': 'text/event-stream' });
  const system = request.messages?.[0]?.content ?? '';
  if (/title for this conversation/.test(system)) return res.end(chunk({ content: 'Bench' }) + chunk({}, 'stop') + done);
  if (system.startsWith('You are a subagent')) {
    childArrivals.push(arrived - toolCallSentAt);
    return res.end(chunk({ content: 'child result' }) + chunk({}, 'stop') + done);
  }
  if (request.messages.at(-1)?.content === 'plain') {
    turnStarts.push(arrived - startSentAt);
    return res.end(chunk({ content: 'plain answer' }) + chunk({}, 'stop') + done);
  }
  if (request.messages.some((m) => m.role === 'tool')) return res.end(chunk({ content: 'all done' }) + chunk({}, 'stop') + done);
  const args = JSON.stringify({ tasks: [{ goal: 'one' }, { goal: 'two' }, { goal: 'three' }] });
  const call = { index: 0, id: 'd1', type: 'function', function: { name: 'delegate_task', arguments: args } };
  res.end(chunk({ tool_calls: [call] }) + chunk({}, 'tool_calls') + done, () => (toolCallSentAt = now()));
});
await new Promise((r) => provider.listen(0, '127.0.0.1', r));
const providerUrl = `http://127.0.0.1:${provider.address().port}/v1`;

const agent = new http.Agent({ keepAlive: true });
function post(base, path, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(base + path, { method: 'POST', agent, headers: { 'Content-Type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => (res.statusCode === 200 ? resolve(JSON.parse(text)) : reject(new Error(`${path} ${res.statusCode} ${text}`))));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}
function finish(base, streamId) {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}/api/chat/stream?stream_id=${streamId}`, { agent }, (res) => {
        res.on('data', () => {});
        res.on('end', resolve);
      })
      .on('error', reject);
  });
}

const home = mkdtempSync(join(tmpdir(), 'hermes-bench-delegate-'));
mkdirSync(join(home, '.hermes'), { recursive: true });
writeFileSync(join(home, '.hermes', 'config.yaml'), `model:\n  default: bench\n  provider: custom\n  base_url: ${providerUrl}\n`);
const server = await startServer({ HOME: home, HERMES_HOME: join(home, '.hermes') });
try {
  const turns = 30;
  const turnMs = [];
  for (let i = 0; i < turns; i++) {
    const plain = (await post(server.url, '/api/session/new', {})).session.session_id;
    startSentAt = now();
    await finish(server.url, (await post(server.url, '/api/chat/start', { session_id: plain, message: 'plain' })).stream_id);

    const sid = (await post(server.url, '/api/session/new', {})).session.session_id;
    const t = performance.now();
    const { stream_id } = await post(server.url, '/api/chat/start', { session_id: sid, message: `split ${i}` });
    await finish(server.url, stream_id);
    turnMs.push(performance.now() - t);
  }
  const spawn = [...childArrivals].sort((a, b) => a - b);
  const starts = [...turnStarts].sort((a, b) => a - b);
  const turn = [...turnMs].sort((a, b) => a - b);
  console.log(`children: ${spawn.length} (3 per turn, ${turns} turns)`);
  console.log(`ordinary turn, chat/start → first model request: p50 ${fmt(percentile(starts, 50))} ms  p99 ${fmt(percentile(starts, 99))} ms`);
  const p50 = verdict(percentile(spawn, 50), percentile(starts, 50) + 25);
  const p99 = verdict(percentile(spawn, 99), percentile(starts, 99) + 100);
  console.log(`tool call → child's first request: p50 ${fmt(percentile(spawn, 50))} ms (${p50})  p99 ${fmt(percentile(spawn, 99))} ms (${p99})`);
  console.log(`whole delegating turn (5 model calls, 3 children): p50 ${fmt(percentile(turn, 50))} ms  p99 ${fmt(percentile(turn, 99))} ms`);
  if (p50 !== 'within budget' || p99 !== 'within budget') process.exitCode = 1;
} finally {
  await stopServer(server);
  await new Promise((r) => {
    provider.closeAllConnections();
    provider.close(r);
  });
  rmSync(home, { recursive: true, force: true });
}
