// Relay overhead and capacity of the chat stream: provider chunk → SSE frame at the client.
// Budgets: ≤ 1 ms p50 / ≤ 5 ms p99 with one stream; ≤ 5 ms p99 at 200 concurrent streams;
// ≥ 50,000 events/s through one process; ≤ 64 KB RSS per open stream at 1,000 streams.
import http from 'node:http';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, percentile, rssMb, startServer, verdict } from './lib.mjs';
import { startProvider, wallNow } from './provider.mjs';

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

/** Opens a chat stream; calls onToken(text, receivedAt) per token frame; resolves at stream end. */
function watch(base, streamId, onToken, onOpen) {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}/api/chat/stream?stream_id=${streamId}`, { agent }, (res) => {
        res.setEncoding('utf8');
        onOpen?.(res);
        let buffer = '';
        let events = 0;
        res.on('data', (d) => {
          const at = wallNow();
          buffer += d;
          let cut;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            events++;
            if (frame.includes('event: token')) onToken(frame, at);
          }
        });
        res.on('end', () => resolve(events));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

const latencyOf = (frame, at) => {
  const m = /t:(\d+\.\d+)/.exec(frame);
  return m ? at - Number(m[1]) : null;
};

async function turn(base, message) {
  const sid = (await post(base, '/api/session/new', {})).session.session_id;
  const { stream_id } = await post(base, '/api/chat/start', { session_id: sid, message });
  return stream_id;
}

const home = mkdtempSync(join(tmpdir(), 'hermes-bench-relay-'));
let mode = { tokens: 0 };
const provider = await startProvider(() => mode);
mkdirSync(join(home, '.hermes'), { recursive: true });
writeFileSync(join(home, '.hermes', 'config.yaml'), `model:\n  default: bench\n  provider: custom\n  base_url: ${provider.url}\n`);
const server = await startServer({ HOME: home, HERMES_HOME: join(home, '.hermes') });
const base = server.url;
const results = {};

try {
  // Baseline: the provider straight to a client, no relay in between.
  {
    mode = { tokens: 2000, intervalMs: 1 };
    const lat = [];
    await new Promise((resolve) => {
      const req = http.request(`${provider.url}/chat/completions`, { method: 'POST', agent }, (res) => {
        res.setEncoding('utf8');
        res.on('data', (d) => {
          const at = wallNow();
          for (const m of d.matchAll(/t:(\d+\.\d+)/g)) lat.push(at - Number(m[1]));
        });
        res.on('end', resolve);
      });
      req.end(JSON.stringify({ messages: [{ role: 'user', content: 'x' }] }));
    });
    lat.sort((a, b) => a - b);
    console.log(`baseline (provider → client, no relay), 2000 tokens: p50 ${fmt(percentile(lat, 50))} ms, p99 ${fmt(percentile(lat, 99))} ms`);
  }

  // One stream.
  {
    mode = { tokens: 2000, intervalMs: 1, initialDelayMs: 300 };
    const streamId = await turn(base, 'one stream');
    const lat = [];
    await watch(base, streamId, (f, at) => {
      const l = latencyOf(f, at);
      if (l !== null) lat.push(l);
    });
    lat.sort((a, b) => a - b);
    results.oneP50 = percentile(lat, 50);
    results.oneP99 = percentile(lat, 99);
    console.log(`1 stream, ${lat.length} tokens (1 ms apart): p50 ${fmt(results.oneP50)} ms, p99 ${fmt(results.oneP99)} ms (provider → relay → client)`);
  }

  // 200 concurrent streams.
  {
    // The providers wait a second before their first token, so all 200 watchers are attached:
    // every token measured is relayed live (tokens from before a watcher attached are replays).
    mode = { tokens: 400, intervalMs: 20, initialDelayMs: 1000 };
    const ids = await Promise.all(Array.from({ length: 200 }, (_, i) => turn(base, `stream ${i}`)));
    const lat = [];
    await Promise.all(
      ids.map((id) =>
        watch(base, id, (f, at) => {
          const l = latencyOf(f, at);
          if (l !== null) lat.push(l);
        }),
      ),
    );
    lat.sort((a, b) => a - b);
    results.manyP99 = percentile(lat, 99);
    console.log(
      `200 concurrent streams × 400 tokens (50 tok/s each, ~10,000 events/s): p50 ${fmt(percentile(lat, 50))} ms, p99 ${fmt(results.manyP99)} ms, n=${lat.length}`,
    );
  }

  // Throughput: providers write as fast as they can; count events delivered per second.
  {
    mode = { tokens: 50_000, burst: true };
    const ids = await Promise.all(Array.from({ length: 4 }, (_, i) => turn(base, `burst ${i}`)));
    const t0 = performance.now();
    const counts = await Promise.all(ids.map((id) => watch(base, id, () => {})));
    const seconds = (performance.now() - t0) / 1000;
    const total = counts.reduce((a, b) => a + b, 0);
    results.eps = total / seconds;
    console.log(`throughput: ${total} events over 4 streams in ${fmt(seconds)} s = ${Math.round(results.eps).toLocaleString('en-US')} events/s`);
  }

  // Memory per open stream, on a fresh server: 1,000 turns in flight, each watched by one open
  // stream, held for 10 s (the reference method), then 1,000 more watchers on the same turns.
  {
    const fresh = await startServer({ HOME: home, HERMES_HOME: join(home, '.hermes'), HERMES_WEBUI_STATE_DIR: join(home, 'mem-state') });
    mode = { tokens: 3, intervalMs: 0 };
    await watch(fresh.url, await turn(fresh.url, 'warm up'), () => {});
    await new Promise((r) => setTimeout(r, 2000));
    const before = rssMb(fresh.child.pid);
    mode = { tokens: 100_000, intervalMs: 1000 };
    const ids = [];
    for (let i = 0; i < 1000; i += 50) ids.push(...(await Promise.all(Array.from({ length: 50 }, (_, k) => turn(fresh.url, `open ${i + k}`)))));
    const open = [];
    const attach = (list) =>
      Promise.all(
        list.map(
          (id) =>
            new Promise((resolve) =>
              watch(
                fresh.url,
                id,
                () => {},
                (res) => {
                  open.push(res);
                  resolve();
                },
              ),
            ),
        ),
      );
    await attach(ids);
    await new Promise((r) => setTimeout(r, 10_000));
    const active = rssMb(fresh.child.pid);
    await attach(ids);
    await new Promise((r) => setTimeout(r, 5_000));
    const passive = rssMb(fresh.child.pid);
    results.perStreamKb = ((active - before) * 1024) / 1000;
    results.perWatcherKb = ((passive - active) * 1024) / 1000;
    console.log(
      `1,000 live turns each with an open stream: RSS ${fmt(before)} MB → ${fmt(active)} MB = ${fmt(results.perStreamKb)} KB per stream (turn + upstream connection + SSE connection)`,
    );
    console.log(`+1,000 second watchers on the same turns: → ${fmt(passive)} MB = ${fmt(results.perWatcherKb)} KB per extra watcher`);
    for (const res of open) res.destroy();
    fresh.child.kill('SIGKILL');
  }

  console.log('');
  console.log(
    `budget 1 stream p50 ≤ 1 ms: ${fmt(results.oneP50)} ms — ${verdict(results.oneP50, 1)}; p99 ≤ 5 ms: ${fmt(results.oneP99)} ms — ${verdict(results.oneP99, 5)}`,
  );
  console.log(`budget 200 streams p99 ≤ 5 ms: ${fmt(results.manyP99)} ms — ${verdict(results.manyP99, 5)}`);
  console.log(`budget ≥ 50,000 events/s: ${Math.round(results.eps).toLocaleString('en-US')} — ${verdict(results.eps, 50_000, false)}`);
  console.log(
    `budget ≤ 64 KB per open stream: ${fmt(results.perStreamKb)} KB per live turn — ${verdict(results.perStreamKb, 64)}; ${fmt(results.perWatcherKb)} KB per extra watcher`,
  );
} finally {
  server.child.kill('SIGKILL');
  await provider.close();
  rmSync(home, { recursive: true, force: true });
}
process.exit(0);
