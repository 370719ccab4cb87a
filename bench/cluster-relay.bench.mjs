// Cross-instance relay: provider chunk → SSE frame at a watcher on another instance. Two built
// servers on one Postgres; 50 turns run on A, each watched only on B (A commits each batch,
// NOTIFY wakes B, B reads the new rows and sends the frames). Budget: p50 ≤ 5 ms, p99 ≤ 25 ms.
// Postgres: BENCH_PG_URL (an admin URL), else a throwaway server like the tests'.
import http from 'node:http';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, percentile, startServer, verdict } from './lib.mjs';
import { startProvider, wallNow } from './provider.mjs';
import { benchDatabase } from './lib-postgres.mjs';

// BENCH_STREAMS: fewer streams, to tell the path from the machine's load.
const STREAMS = Number(process.env.BENCH_STREAMS) || 50;
const TOKENS = 200;
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

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

/** Reads a chat stream to its end; each token's latency is its frame's arrival minus the provider's stamp. */
function watch(base, streamId, lat) {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}/api/chat/stream?stream_id=${streamId}`, { agent }, (res) => {
        res.setEncoding('utf8');
        res.on('data', (d) => {
          const at = wallNow();
          for (const m of d.matchAll(/event: token\ndata: [^\n]*t:(\d+\.\d+)/g)) lat.push(at - Number(m[1]));
        });
        res.on('end', resolve);
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

const db = await benchDatabase('bench_relay');

const home = mkdtempSync(join(tmpdir(), 'hermes-bench-cluster-'));
const provider = await startProvider(() => ({ tokens: TOKENS, intervalMs: 20, initialDelayMs: 1500 }));
mkdirSync(join(home, '.hermes'), { recursive: true });
writeFileSync(join(home, '.hermes', 'config.yaml'), `model:\n  default: bench\n  provider: custom\n  base_url: ${provider.url}\n`);
const env = (name) => ({
  HOME: home,
  HERMES_HOME: join(home, '.hermes'),
  HERMES_WEBUI_STATE_DIR: join(home, `state-${name}`),
  HERMES_WEBUI_STORAGE: 'postgres',
  HERMES_WEBUI_DATABASE_URL: db.url,
  HERMES_WEBUI_INSTANCE_ID: `bench-${name}`,
});
const a = await startServer(env('a'));
const b = await startServer(env('b'));
try {
  // Warm up both (connections, JIT) with one turn watched on B.
  {
    const sid = (await post(a.url, '/api/session/new', {})).session.session_id;
    const { stream_id } = await post(a.url, '/api/chat/start', { session_id: sid, message: 'warm up' });
    await watch(b.url, stream_id, []);
  }
  // The provider waits 1.5 s before its first token, so every watcher on B is attached: each token is relayed live.
  const ids = await Promise.all(
    Array.from({ length: STREAMS }, async (_, i) => {
      const sid = (await post(a.url, '/api/session/new', {})).session.session_id;
      return (await post(a.url, '/api/chat/start', { session_id: sid, message: `stream ${i}` })).stream_id;
    }),
  );
  const lat = [];
  await Promise.all(ids.map((id) => watch(b.url, id, lat)));
  lat.sort((x, y) => x - y);
  const p50 = percentile(lat, 50);
  const p99 = percentile(lat, 99);
  console.log(
    `${STREAMS} concurrent streams × ${TOKENS} tokens (50 tok/s each) run on A, watched on B: p50 ${fmt(p50)} ms, p99 ${fmt(p99)} ms, max ${fmt(lat.at(-1))} ms, n=${lat.length}`,
  );
  console.log('');
  console.log(`budget cross-instance p50 ≤ 5 ms: ${fmt(p50)} ms — ${verdict(p50, 5)}; p99 ≤ 25 ms: ${fmt(p99)} ms — ${verdict(p99, 25)}`);
} finally {
  a.child.kill('SIGKILL');
  b.child.kill('SIGKILL');
  await provider.close();
  await db.drop();
  rmSync(home, { recursive: true, force: true });
}
process.exit(0);
