// The app on workerd (`wrangler dev`, local D1 and Durable Objects): provider chunk → SSE frame
// latency through the front Worker and the session's Durable Object, and the Worker bundle size.
// Budgets: a turn's first token reaches a watcher ≤ 5 ms after the provider sends it; bundle ≤ 1 MB gzip.
import { spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { fmt, percentile, root, verdict } from './lib.mjs';
import { startProvider, wallNow } from './provider.mjs';

const TURNS = 30;
const freePort = () =>
  new Promise((r) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = s.address().port;
      s.close(() => r(p));
    });
  });

const provider = await startProvider(() => ({ tokens: 50, intervalMs: 5, initialDelayMs: 400 }));
const persist = mkdtempSync(join(tmpdir(), 'hermes-bench-workerd-'));
const port = await freePort();
const vars = {
  HERMES_WEBUI_PASSWORD: 'bench password',
  HERMES_WEBUI_PROVIDER: 'custom',
  HERMES_WEBUI_BASE_URL: provider.url,
  HERMES_WEBUI_DEFAULT_MODEL: 'bench',
};
const args = [
  join(root, 'node_modules/wrangler/bin/wrangler.js'),
  'dev',
  '--local',
  '--ip',
  '127.0.0.1',
  '--port',
  String(port),
  '--inspector-port',
  String(await freePort()),
  '--persist-to',
  persist,
  '--log-level',
  'error',
  '--show-interactive-dev-session=false',
];
for (const [k, v] of Object.entries(vars)) args.push('--var', `${k}:${v}`);
const child = spawn(process.execPath, args, {
  cwd: root,
  env: { PATH: process.env.PATH, HOME: persist, WRANGLER_SEND_METRICS: 'false', CI: '1' },
  stdio: 'ignore',
});
const base = `http://127.0.0.1:${port}`;
const agent = new http.Agent({ keepAlive: true });

function request(method, path, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(base + path, { method, agent, headers: { 'Content-Type': 'application/json', ...headers } }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

try {
  for (let i = 0; ; i++) {
    if ((await request('GET', '/health').catch(() => ({ status: 0 }))).status === 200) break;
    if (i > 240) throw new Error('wrangler dev did not start');
    await new Promise((r) => setTimeout(r, 250));
  }
  const login = await request('POST', '/api/auth/login', { password: vars.HERMES_WEBUI_PASSWORD });
  const cookie = login.headers['set-cookie'][0].split(';')[0];
  const first = [];
  const all = [];
  for (let t = 0; t < TURNS + 3; t++) {
    const sid = JSON.parse((await request('POST', '/api/session/new', {}, { Cookie: cookie })).text).session.session_id;
    const { stream_id } = JSON.parse((await request('POST', '/api/chat/start', { session_id: sid, message: 'go' }, { Cookie: cookie })).text);
    const latencies = await new Promise((resolve, reject) => {
      const seen = [];
      http
        .get(`${base}/api/chat/stream?stream_id=${stream_id}`, { agent, headers: { Cookie: cookie } }, (res) => {
          res.setEncoding('utf8');
          let buffer = '';
          res.on('data', (d) => {
            const at = wallNow();
            buffer += d;
            let cut;
            while ((cut = buffer.indexOf('\n\n')) >= 0) {
              const frame = buffer.slice(0, cut);
              buffer = buffer.slice(cut + 2);
              const m = frame.includes('event: token') && /t:(\d+\.\d+)/.exec(frame);
              if (m) seen.push(at - Number(m[1]));
            }
          });
          res.on('end', () => resolve(seen));
          res.on('error', reject);
        })
        .on('error', reject);
    });
    // The provider waits 400 ms before its first token, so the watcher is attached: every token is live.
    if (t >= 3) {
      first.push(latencies[0]);
      all.push(...latencies);
    }
  }
  first.sort((a, b) => a - b);
  all.sort((a, b) => a - b);
  console.log(
    `provider chunk → SSE frame on workerd, first token of ${TURNS} turns: p50 ${fmt(percentile(first, 50))} ms, p95 ${fmt(percentile(first, 95))} ms (budget ≤ 5 ms: ${verdict(percentile(first, 50), 5)})`,
  );
  console.log(`every token (${all.length}): p50 ${fmt(percentile(all, 50))} ms, p99 ${fmt(percentile(all, 99))} ms`);
} finally {
  child.kill('SIGTERM');
  await provider.close();
}

const out = mkdtempSync(join(tmpdir(), 'hermes-bench-bundle-'));
const dry = spawnSync(process.execPath, [join(root, 'node_modules/wrangler/bin/wrangler.js'), 'deploy', '--dry-run', '--minify', '--outdir', out], {
  cwd: root,
  env: { PATH: process.env.PATH, HOME: out, WRANGLER_SEND_METRICS: 'false', CI: '1' },
  encoding: 'utf8',
});
if (dry.status === 0) {
  const js = readFileSync(join(out, 'worker.js'));
  const gz = gzipSync(js, { level: 9 }).length;
  console.log(`Worker bundle (minified): ${fmt(js.length / 1024)} KB, ${fmt(gz / 1024)} KB gzip (budget ≤ 1024 KB: ${verdict(gz / 1024, 1024)})`);
} else {
  console.log(`bundle build failed: ${dry.stderr.slice(-500)}`);
}
rmSync(out, { recursive: true, force: true });
rmSync(persist, { recursive: true, force: true });
