// The sidebar at 10,000 sessions, as a phone on a slow link meets it:
//   cold sidebar (fresh browser profile): sessions-API bytes on the wire ≤ 60 KB and first rows
//   painted ≤ 300 ms in Chromium, also with the network throttled to 10 Mbit/s and 50 ms RTT
//   (CDP Network.emulateNetworkConditions); warm GET /api/sessions first page p95 ≤ 5 ms.
// Also: the brotli quality the server uses, measured on the list's real JSON, and what the whole
// list (the incumbent's unpaged answer) costs by encoding.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { fmt, percentile, startServer, stopServer, timeRequest, verdict } from './lib.mjs';

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 10_000);
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 5);
const WARM_REQUESTS = 300;
const WORDS = ['deploy', 'notes', 'refactor', 'the parser', 'budget', 'release', 'tests', 'a bug in', 'design', 'meeting', 'migration', 'docs'];

const home = mkdtempSync(join(tmpdir(), 'hermes-bench-sidebar-'));
const sessionsDir = join(home, '.hermes', 'webui', 'sessions');
mkdirSync(sessionsDir, { recursive: true });
const now = Date.now() / 1000;
for (let i = 0; i < SESSIONS; i++) {
  const id = ((i * 2654435761) % 2 ** 32).toString(16).padStart(8, '0') + i.toString(16).padStart(4, '0');
  const at = now - i * 600 - (i % 7) * 13.37;
  const title = `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} #${i}`;
  writeFileSync(
    join(sessionsDir, `${id}.json`),
    JSON.stringify({
      session_id: id,
      title,
      workspace: '/home/user/work',
      model: i % 3 ? 'anthropic/claude-sonnet-4' : 'openai/gpt-5',
      model_provider: 'openrouter',
      created_at: at - 3600,
      updated_at: at,
      pinned: i % 1000 === 3,
      archived: i % 97 === 0,
      project_id: null,
      profile: 'default',
      input_tokens: 1000 + ((i * 37) % 90_000),
      output_tokens: (i * 11) % 9000,
      estimated_cost: Math.round(((i * 13) % 1000) * 1e-4 * 1e6) / 1e6,
      messages: [
        { role: 'user', content: 'x', timestamp: at - 3600 },
        { role: 'assistant', content: 'y', timestamp: at },
      ],
      tool_calls: [],
    }),
  );
}

const server = await startServer({ HOME: home, HERMES_HOME: join(home, '.hermes'), HERMES_WEBUI_SKIP_ONBOARDING: '1' });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
const results = {};

/** Bytes of one GET as it comes over the wire (node:http does not decode). */
const wire = async (path, encoding) => (await timeRequest(server.url + path, encoding ? { 'Accept-Encoding': encoding } : {})).bytes;

try {
  // 1. Bytes by encoding: the first page (what the sidebar asks) and the whole list.
  const kb = (n) => `${fmt(n / 1024)} KB`;
  const firstPage = '/api/sessions?limit=100';
  for (const [label, path] of [
    ['first page (100 rows + pinned)', firstPage],
    [`whole list (unpaged, ${SESSIONS} sessions minus archived)`, '/api/sessions'],
  ]) {
    const [plain, br, gzip] = [await wire(path, ''), await wire(path, 'br'), await wire(path, 'gzip')];
    console.log(`${label}: ${kb(plain)} plain, ${kb(gzip)} gzip, ${kb(br)} brotli`);
    if (path === firstPage) results.pageBr = br;
  }

  // 2. Warm first page, as the sidebar asks it (brotli), and right after a write (rebuilt + compressed).
  const series = async (label, headers, before) => {
    const times = [];
    for (let i = 0; i < WARM_REQUESTS; i++) {
      if (before) await before(i);
      times.push((await timeRequest(server.url + firstPage, headers)).ms);
    }
    times.sort((a, b) => a - b);
    console.log(`${label} ×${WARM_REQUESTS}: p50 ${fmt(percentile(times, 50))} ms, p95 ${fmt(percentile(times, 95))} ms, p99 ${fmt(percentile(times, 99))} ms`);
    return percentile(times, 95);
  };
  results.warmP95 = await series('warm GET /api/sessions?limit=100 (br)', { 'Accept-Encoding': 'br' });
  await series('warm GET /api/sessions?limit=100 (identity)', {});
  const { etag } = await timeRequest(server.url + firstPage, { 'Accept-Encoding': 'br' });
  await series('revalidated first page (If-None-Match → 304)', { 'Accept-Encoding': 'br', 'If-None-Match': etag });
  const ids = (await (await fetch(server.url + '/api/sessions?limit=20')).json()).sessions.map((s) => s.session_id);
  await series('first page right after a write (page rebuilt and compressed)', { 'Accept-Encoding': 'br' }, (i) =>
    fetch(`${server.url}/api/session/rename`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ session_id: ids[i % ids.length], title: `renamed ${i}` }),
    }).then((r) => r.arrayBuffer()),
  );

  // 3. Cold sidebar in Chromium: a fresh profile each run (no HTTP cache, no IndexedDB, no
  // service worker). First rows painted = the first animation frame after a session row is in
  // the DOM, from navigation start. Bytes are CDP's encodedDataLength (what came over the wire).
  const cold = async (throttle) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      await page.addInitScript(() => {
        const deep = (root) => {
          if (root.querySelector('[data-role="session-row"]')) return true;
          for (const el of root.querySelectorAll('*')) if (el.shadowRoot && deep(el.shadowRoot)) return true;
          return false;
        };
        const tick = () => {
          if (document.body && deep(document)) requestAnimationFrame(() => (window.__rowsPainted = performance.now()));
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      });
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Performance.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      if (throttle)
        await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 50, downloadThroughput: 10e6 / 8, uploadThroughput: 10e6 / 8 });
      const urls = new Map();
      const bytes = { all: 0, api: 0, requests: 0, apiRequests: 0 };
      cdp.on('Network.responseReceived', (e) => urls.set(e.requestId, new URL(e.response.url).pathname));
      cdp.on('Network.loadingFinished', (e) => {
        bytes.all += e.encodedDataLength;
        bytes.requests++;
        if (urls.get(e.requestId) === '/api/sessions') {
          bytes.api += e.encodedDataLength;
          bytes.apiRequests++;
        }
      });
      await page.goto(server.url + '/');
      await page.waitForFunction(() => window.__rowsPainted !== undefined, null, { timeout: 30_000 });
      const painted = await page.evaluate(() => window.__rowsPainted);
      // Where the time went: the shell's first paint, and the list request's start and end.
      const marks = await page.evaluate(() => {
        const list = performance.getEntriesByType('resource').find((e) => new URL(e.name).pathname === '/api/sessions');
        const fcp = performance.getEntriesByName('first-contentful-paint')[0];
        const nav = performance.getEntriesByType('navigation')[0];
        return { html: nav?.responseEnd ?? NaN, fcp: fcp?.startTime ?? NaN, listStart: list?.startTime ?? NaN, listEnd: list?.responseEnd ?? NaN };
      });
      const atPaint = { ...bytes };
      // The renderer's main-thread work up to then: on a shared machine the wall time is mostly waiting for a core.
      const metrics = Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
      marks.taskMs = metrics.TaskDuration * 1000;
      marks.scriptMs = metrics.ScriptDuration * 1000;
      await page.waitForLoadState('networkidle');
      return { painted, marks, atPaint, total: { ...bytes } };
    } finally {
      await context.close();
    }
  };
  for (const throttle of [false, true]) {
    const runs = [];
    for (let i = 0; i < COLD_RUNS; i++) runs.push(await cold(throttle));
    runs.sort((a, b) => a.painted - b.painted);
    const mid = runs[Math.floor(runs.length / 2)];
    const label = throttle ? 'throttled 10 Mbit/s, 50 ms RTT' : 'unthrottled loopback';
    console.log(
      `cold sidebar, ${label} (median of ${COLD_RUNS}, fresh profile): first rows painted ${fmt(mid.painted)} ms (runs ${runs.map((r) => fmt(r.painted)).join(', ')}); ` +
        `sessions API ${kb(mid.atPaint.api)} in ${mid.atPaint.apiRequests} request(s); whole page ${kb(mid.atPaint.all)} in ${mid.atPaint.requests} requests at first rows, ${kb(mid.total.all)} in ${mid.total.requests} by network idle; ` +
        `HTML at ${fmt(mid.marks.html)} ms, shell first paint ${fmt(mid.marks.fcp)} ms, list asked at ${fmt(mid.marks.listStart)} ms and answered at ${fmt(mid.marks.listEnd)} ms; renderer main-thread tasks ${fmt(mid.marks.taskMs)} ms (script ${fmt(mid.marks.scriptMs)} ms)`,
    );
    results[throttle ? 'slow' : 'fast'] = mid;
  }

  // 4. Brotli quality (last: it keeps the CPU busy for seconds, and the kept-alive sockets idle) on the list's own JSON (what node-compression.ts picks by size).
  const bodyOf = async (path) => Buffer.from(await (await fetch(server.url + path, { headers: { 'Accept-Encoding': 'identity' } })).arrayBuffer());
  for (const [label, body] of [
    ['first page', await bodyOf(firstPage)],
    ['whole list', await bodyOf('/api/sessions')],
  ]) {
    const n = body.length > 1e6 ? 3 : 50;
    const time = (f) => {
      f();
      const t = performance.now();
      let out;
      for (let i = 0; i < n; i++) out = f();
      return { ms: (performance.now() - t) / n, bytes: out.length };
    };
    const row = [];
    for (const q of [1, 3, 4, 5, 6, 9]) {
      const r = time(() =>
        zlib.brotliCompressSync(body, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: q,
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        }),
      );
      row.push(`q${q} ${kb(r.bytes)} ${fmt(r.ms)} ms`);
    }
    const g = time(() => zlib.gzipSync(body));
    console.log(`brotli on the ${label} (${kb(body.length)}): ${row.join(' · ')} | gzip 6 ${kb(g.bytes)} ${fmt(g.ms)} ms`);
  }

  console.log('');
  console.log(
    `budget cold sidebar sessions-API bytes ≤ 60 KB: ${kb(results.fast.atPaint.api)} — ${verdict(results.fast.atPaint.api, 60 * 1024)} (first page alone ${kb(results.pageBr)} brotli)`,
  );
  console.log(
    `budget cold first rows painted ≤ 300 ms: ${fmt(results.fast.painted)} ms — ${verdict(results.fast.painted, 300)}; throttled 10 Mbit/s + 50 ms RTT: ${fmt(results.slow.painted)} ms (reported, no budget)`,
  );
  console.log(`budget warm GET /api/sessions first page p95 ≤ 5 ms: ${fmt(results.warmP95)} ms — ${verdict(results.warmP95, 5)}`);
} finally {
  await browser.close();
  await stopServer(server);
  rmSync(home, { recursive: true, force: true });
}
process.exit(0);
