// Steer latency: from POST /api/chat/steer leaving the client to the model request that carries
// the text arriving at the provider. Each turn runs two 400 ms terminal steps; the steer is sent
// at a random moment in the first half of the first one, so it joins at the first tool boundary
// (one that reaches a loaded server after that boundary waits for the next, as it should).
// Budget (issue 15): ≤ one tool step: steer latency p99 ≤ the p99 of one tool step (tool call
// sent → the next model request) in the same turns. Also reported: how many joined at the first
// boundary, and what the server adds beyond the tool's remaining run time.
import http from 'node:http';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, percentile, startServer, stopServer, verdict } from './lib.mjs';

const TOOL_MS = 400;
const chunk = (delta, finish = null) =>
  `data: ${JSON.stringify({ id: 'b', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const done = 'data: [DONE]\n\n';
const now = () => performance.timeOrigin + performance.now();
const toolCall = (id) => {
  const call = {
    index: 0,
    id,
    type: 'function',
    function: { name: 'terminal', arguments: JSON.stringify({ command: `sleep ${TOOL_MS / 1000} && echo ${id}` }) },
  };
  return chunk({ tool_calls: [call] }) + chunk({}, 'tool_calls') + done;
};

// One turn at a time: the number of tool results in a request says which step it is.
let toolCallSentAt = 0;
let onToolSent = () => {};
const arrivals = [];
const provider = http.createServer(async (req, res) => {
  let body = '';
  for await (const c of req) body += c;
  const request = JSON.parse(body);
  const arrived = now();
  res.writeHead(200, { 'Content-Type': 'text/event-stream' });
  if (/title for this conversation/.test(request.messages?.[0]?.content ?? '')) return res.end(chunk({ content: 'Bench' }) + chunk({}, 'stop') + done);
  const tools = request.messages.filter((m) => m.role === 'tool');
  arrivals.push({ at: arrived, step: tools.length, steered: tools.some((m) => String(m.content).includes('User guidance: bench steer')) });
  if (tools.length === 0)
    return res.end(toolCall('first'), () => {
      toolCallSentAt = now();
      onToolSent();
    });
  if (tools.length === 1) return res.end(toolCall('second'));
  res.end(chunk({ content: 'done' }) + chunk({}, 'stop') + done);
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

const home = mkdtempSync(join(tmpdir(), 'hermes-bench-steer-'));
mkdirSync(join(home, '.hermes'), { recursive: true });
writeFileSync(join(home, '.hermes', 'config.yaml'), `model:\n  default: bench\n  provider: custom\n  base_url: ${providerUrl}\n`);
const server = await startServer({ HOME: home, HERMES_HOME: join(home, '.hermes') });
try {
  const turns = 30;
  const latency = [];
  const steps = [];
  const added = [];
  let firstBoundary = 0;
  for (let i = 0; i < turns; i++) {
    const sid = (await post(server.url, '/api/session/new', {})).session.session_id;
    arrivals.length = 0;
    // Somewhere in the first half of the first tool's run (it takes TOOL_MS).
    const delay = 20 + Math.random() * (TOOL_MS / 2 - 20);
    let steerSentAt = 0;
    const steered = new Promise((resolve, reject) => {
      onToolSent = () =>
        setTimeout(() => {
          steerSentAt = now();
          post(server.url, '/api/chat/steer', { session_id: sid, text: 'bench steer' }).then(resolve, reject);
        }, delay);
    });
    const { stream_id } = await post(server.url, '/api/chat/start', { session_id: sid, message: `turn ${i}` });
    await finish(server.url, stream_id);
    const answer = await steered;
    if (!answer.accepted) throw new Error(`steer not accepted: ${JSON.stringify(answer)}`);
    const landed = arrivals.find((a) => a.steered);
    if (!landed) throw new Error('the steer never reached the model');
    if (landed.step === 1) firstBoundary++;
    const step = arrivals.find((a) => a.step === 1).at - toolCallSentAt;
    latency.push(landed.at - steerSentAt);
    steps.push(step);
    added.push(landed.at - steerSentAt - Math.max(0, TOOL_MS - delay));
  }
  for (const list of [latency, steps, added]) list.sort((a, b) => a - b);
  const within = verdict(percentile(latency, 99), percentile(steps, 99));
  console.log(`turns: ${turns}; steers that joined at the first tool boundary: ${firstBoundary}/${turns}`);
  console.log(
    `one tool step (${TOOL_MS} ms terminal call; tool call sent → next model request): p50 ${fmt(percentile(steps, 50))} ms  p99 ${fmt(percentile(steps, 99))} ms`,
  );
  console.log(`steer → text in the next model request: p50 ${fmt(percentile(latency, 50))} ms  p99 ${fmt(percentile(latency, 99))} ms (${within}: ≤ step p99)`);
  console.log(`beyond the tool's remaining run time: p50 ${fmt(percentile(added, 50))} ms  p99 ${fmt(percentile(added, 99))} ms`);
  if (within !== 'within budget') process.exitCode = 1;
} finally {
  await stopServer(server);
  await new Promise((r) => {
    provider.closeAllConnections();
    provider.close(r);
  });
  rmSync(home, { recursive: true, force: true });
}
