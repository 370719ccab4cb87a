// Live sync (GET /api/sessions/events), on the built server in a child process:
// (a) a sidebar change seen by other listeners: p95 from sending a rename to its frame arriving
//     on each of N SSE clients (budget ≤ 1 s);
// (b) 1,000 idle listeners: the server's RSS growth (≤ 10 MB) and CPU over 30 s idle (≤ 1 %),
//     read from /proc/<pid>; beside it the same growth for a bare node:http SSE server and for
//     bare Hono on @hono/node-server, the floors a listener's cost is judged against.
import http from 'node:http';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, percentile, root, rssMb, startServer, stopServer, verdict } from './lib.mjs';

const CLIENTS = Number(process.env.BENCH_LIVE_CLIENTS ?? 20);
const RENAMES = Number(process.env.BENCH_LIVE_RENAMES ?? 40);
const IDLE = Number(process.env.BENCH_LIVE_IDLE ?? 1000);
const IDLE_SECONDS = Number(process.env.BENCH_LIVE_IDLE_SECONDS ?? 30);
const TICKS = 100; // USER_HZ on Linux
const SETTLE_MS = Number(process.env.BENCH_LIVE_SETTLE_MS ?? 15_000);

/** An SSE client on its own socket; `onFrame` hears each sessions_changed payload. */
function listen(url, onFrame = () => {}) {
  return new Promise((resolve, reject) => {
    const req = http.get(`${url}/api/sessions/events`, { agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`events → ${res.statusCode}`));
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        buffer += chunk;
        let at;
        while ((at = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, at);
          buffer = buffer.slice(at + 2);
          const data = block.split('\n').find((l) => l.startsWith('data: '));
          if (data) onFrame(JSON.parse(data.slice(6)));
        }
      });
      resolve({ close: () => req.destroy() });
    });
    req.on('error', reject);
  });
}

function post(url, path, body) {
  return fetch(url + path, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: url }, body: JSON.stringify(body) }).then(async (r) => {
    if (!r.ok) throw new Error(`${path} → ${r.status}`);
    return r.json();
  });
}

function cpuTicks(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime
}

/** The floor: a bare node:http server holding SSE responses open (no framework, no app). */
const BARE = `const s=require('node:http').createServer((q,r)=>{r.writeHead(200,{'Content-Type':'text/event-stream'});r.write('retry: 1000\\n\\n')});s.listen(0,'127.0.0.1',()=>console.log('listening on http://127.0.0.1:'+s.address().port))`;

/** The framework floor: Hono on @hono/node-server, each listener a web ReadableStream in a Set. */
const HONO = `import{Hono}from'hono';import{serve}from'@hono/node-server';const l=new Set(),a=new Hono(),r=new TextEncoder().encode('retry: 1000\\n\\n');a.get('/api/sessions/events',()=>{let k;return new Response(new ReadableStream({start(c){k=c;c.enqueue(r);l.add(k)},cancel(){l.delete(k)}}),{headers:{'Content-Type':'text/event-stream'}})});serve({fetch:a.fetch,hostname:'127.0.0.1',port:0},(i)=>console.log('listening on http://127.0.0.1:'+i.port))`;

/** RSS growth of one floor server (a script given to `node -e`) for IDLE idle listeners. */
async function floorCost(args) {
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const url = await new Promise((resolve) => child.stdout.on('data', (d) => resolve(/listening on (\S+)/.exec(String(d))[1])));
    const cost = await idleCost({ url, child });
    for (const c of cost.many) c.close();
    return cost.after - cost.before;
  } finally {
    child.kill();
  }
}

async function idleCost(server) {
  const warm = await listen(server.url);
  await new Promise((r) => setTimeout(r, 1000));
  warm.close();
  await new Promise((r) => setTimeout(r, 1000));
  const before = rssMb(server.child.pid);
  const many = [];
  for (let i = 0; i < IDLE; i += 50) many.push(...(await Promise.all(Array.from({ length: Math.min(50, IDLE - i) }, () => listen(server.url)))));
  // Idle means after the connections' setup garbage is gone: V8's memory reducer shrinks the
  // heap a few seconds after allocation stops, so the figure is read once it has had the chance.
  await new Promise((r) => setTimeout(r, SETTLE_MS));
  return { before, after: rssMb(server.child.pid), many };
}

const home = mkdtempSync(join(tmpdir(), 'hermes-bench-live-'));
const env = { HOME: home, HERMES_HOME: join(home, '.hermes'), HERMES_WEBUI_STATE_DIR: join(home, 'state') };
try {
  // (a) rename → frame on every listener.
  const server = await startServer(env);
  const ids = [];
  for (let i = 0; i < RENAMES; i++) ids.push((await post(server.url, '/api/session/new', {})).session.session_id);
  const waiting = new Map(); // session id → { sent, left, resolve }
  const latencies = [];
  const clients = await Promise.all(
    Array.from({ length: CLIENTS }, () =>
      listen(server.url, (change) => {
        const w = waiting.get(change.session_id);
        if (!w || change.reason !== 'session_rename') return;
        latencies.push(performance.now() - w.sent);
        if (--w.left === 0) w.resolve();
      }),
    ),
  );
  for (const id of ids) {
    const seen = new Promise((resolve) => waiting.set(id, { sent: performance.now(), left: CLIENTS, resolve }));
    await post(server.url, '/api/session/rename', { session_id: id, title: `Renamed ${id}` });
    await seen;
  }
  for (const c of clients) c.close();
  await stopServer(server);
  latencies.sort((x, y) => x - y);
  const p95 = percentile(latencies, 95);
  console.log(
    `rename → frame on ${CLIENTS} listeners (${latencies.length} deliveries): p50 ${fmt(percentile(latencies, 50))} ms, p95 ${fmt(p95)} ms (budget 1000 ms: ${verdict(p95, 1000)})`,
  );

  // (b) 1,000 idle listeners.
  const bareGrowth = await floorCost(['-e', BARE]);
  const honoGrowth = await floorCost(['--input-type=module', '-e', HONO]);
  const idle = await startServer(env);
  const { before, after, many } = await idleCost(idle);
  const ticks0 = cpuTicks(idle.child.pid);
  const t0 = performance.now();
  await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
  const cpu = ((cpuTicks(idle.child.pid) - ticks0) / TICKS / ((performance.now() - t0) / 1000)) * 100;
  for (const c of many) c.close();
  await stopServer(idle);
  const growth = after - before;
  console.log(`${IDLE} idle SSE sockets on a bare node:http server (the floor): +${fmt(bareGrowth)} MB`);
  console.log(`${IDLE} idle SSE streams on bare Hono + @hono/node-server (the framework's floor): +${fmt(honoGrowth)} MB`);
  console.log(`${IDLE} idle listeners: RSS ${fmt(before)} → ${fmt(after)} MB, +${fmt(growth)} MB (budget 10 MB: ${verdict(growth, 10)})`);
  console.log(`${IDLE} idle listeners, ${IDLE_SECONDS} s: CPU ${fmt(cpu)} % of one core (budget 1 %: ${verdict(cpu, 1)})`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
