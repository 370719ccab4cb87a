// The web app, measured in Debian Chromium through Playwright:
//   JS before first paint ≤ 100 KB brotli (shell core ≤ 60 KB); first paint of a cached shell
//   ≤ 300 ms; a 1,000-message session opened to the last screen painted ≤ 150 ms with
//   ≤ 1,500 transcript DOM nodes; streaming render ≤ 4 ms per frame and no long task > 50 ms;
//   sidebar search over 10,000 sessions ≤ 16 ms per keystroke.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { machine, requireBrowser } from '../scripts/test-tools/find-browser.mjs';
import { fmt, startServer, verdict } from './lib.mjs';
import { startProvider } from './provider.mjs';

const home = mkdtempSync(join(tmpdir(), 'hermes-bench-ui-'));
const hermes = join(home, '.hermes');
const sessionsDir = join(hermes, 'webui', 'sessions');
mkdirSync(sessionsDir, { recursive: true });

// 10,000 sessions for the sidebar, and one with 1,000 messages.
const now = Date.now() / 1000;
for (let i = 0; i < 10_000; i++) {
  const id = `c${i.toString(16).padStart(11, '0')}`;
  writeFileSync(
    join(sessionsDir, `${id}.json`),
    JSON.stringify({
      session_id: id,
      title: `Planning note ${i} about topic ${i % 97}`,
      created_at: now - i * 60,
      updated_at: now - i * 60,
      pinned: false,
      archived: false,
      project_id: null,
      messages: [{ role: 'user', content: 'x', timestamp: now - i * 60 }],
      tool_calls: [],
    }),
  );
}
const big = 'bigsession01';
const para = 'The agent reads the file, explains what it found, and suggests a **focused** change with `code` and a short list:\n\n- one\n- two\n';
writeFileSync(
  join(sessionsDir, `${big}.json`),
  JSON.stringify({
    session_id: big,
    title: 'A long conversation',
    created_at: now + 10,
    updated_at: now + 10,
    pinned: true,
    archived: false,
    project_id: null,
    messages: Array.from({ length: 1000 }, (_, i) =>
      i % 2 === 0
        ? { role: 'user', content: `Question ${i / 2}: what next?`, timestamp: now + i }
        : { role: 'assistant', content: `Answer ${i}. ${para}`, timestamp: now + i },
    ),
    tool_calls: [],
  }),
);

let plan = { tokens: 0 };
const provider = await startProvider(() => plan);
writeFileSync(join(hermes, 'config.yaml'), `model:\n  default: bench\n  provider: custom\n  base_url: ${provider.url}\n`);
const server = await startServer({ HOME: home, HERMES_HOME: hermes });
const browser = await chromium.launch({
  executablePath: requireBrowser(await machine()),
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
const results = {};

try {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();

  // 1. JavaScript fetched before first paint, as transferred (the server sends brotli).
  const scripts = [];
  page.on('response', async (res) => {
    if (res.request().resourceType() === 'script')
      scripts.push({
        url: res.url(),
        at: Date.now(),
        size: Number((await res.headerValue('content-length')) ?? 0),
        encoding: await res.headerValue('content-encoding'),
      });
  });
  await page.goto(server.url + '/');
  await page.waitForLoadState('networkidle');
  const paint = await page.evaluate(() => performance.getEntriesByName('first-paint')[0]?.startTime ?? null);
  const shellUrls = await page.evaluate(() => [...document.querySelectorAll('script[type=module], link[rel=modulepreload]')].map((e) => e.src || e.href));
  const shell = scripts.filter((s) => shellUrls.includes(s.url));
  const eager = shell.reduce((n, s) => n + s.size, 0);
  const all = scripts.reduce((n, s) => n + s.size, 0);
  results.shellKb = eager / 1024;
  console.log(
    `JS for first paint (entry + preloaded chunks, ${shell.map((s) => s.encoding ?? 'identity').join('/')}): ${fmt(results.shellKb)} KB; all JS loaded on the start screen: ${fmt(all / 1024)} KB (${scripts.length} files)`,
  );

  // 2. First paint of the cached shell (a reload: HTML revalidated, hashed assets from cache).
  const paints = [];
  for (let i = 0; i < 5; i++) {
    await page.reload();
    await page.waitForLoadState('load');
    paints.push(
      await page.evaluate(async () => {
        for (let i = 0; i < 50; i++) {
          const p = performance.getEntriesByName('first-paint')[0] ?? performance.getEntriesByName('first-contentful-paint')[0];
          if (p) return p.startTime;
          await new Promise((r) => setTimeout(r, 20));
        }
        return NaN;
      }),
    );
  }
  paints.sort((a, b) => a - b);
  results.paint = paints[2];
  console.log(`first paint, cached shell (median of 5 reloads): ${fmt(results.paint)} ms (cold first load: ${fmt(paint ?? NaN)} ms)`);

  // 3. Opening the 1,000-message session from the sidebar to its last screen painted.
  await page.goto(server.url + '/');
  await page.locator('[data-role="session-row"]').first().waitFor();
  const open = await page.evaluate(async (id) => {
    const find = (root, sel) => {
      const hit = root.querySelector(sel);
      if (hit) return hit;
      for (const el of root.querySelectorAll('*'))
        if (el.shadowRoot) {
          const f = find(el.shadowRoot, sel);
          if (f) return f;
        }
      return null;
    };
    const row = find(document, `[data-role="session-row"][data-session-id="${id}"]`);
    if (!row) return { ms: NaN, nodes: NaN, why: 'row not found' };
    // The row's own link, as a person's click lands on it.
    const target = row.shadowRoot?.querySelector('a, button') ?? row;
    const t0 = performance.now();
    target.click();
    for (;;) {
      await new Promise((r) => requestAnimationFrame(r));
      const msgs = [];
      const collect = (root) => {
        for (const el of root.querySelectorAll('[data-role="message"]')) msgs.push(el);
        for (const el of root.querySelectorAll('*')) if (el.shadowRoot) collect(el.shadowRoot);
      };
      collect(document);
      const last = msgs.at(-1);
      const deep = (node) => {
        let t = node.nodeType === 3 ? node.textContent : '';
        if (node.shadowRoot) t += deep(node.shadowRoot);
        for (const c of node.childNodes) t += deep(c);
        return t;
      };
      if (last && deep(last).includes('Answer 999')) {
        await new Promise((r) => requestAnimationFrame(r));
        const ms = performance.now() - t0;
        const transcript = find(document, 'hermes-transcript');
        let nodes = 0;
        const count = (root) => {
          for (const el of root.querySelectorAll('*')) {
            nodes++;
            if (el.shadowRoot) count(el.shadowRoot);
          }
        };
        count(transcript.shadowRoot ?? transcript);
        return { ms, nodes };
      }
      if (performance.now() - t0 > 10_000) return { ms: NaN, nodes: NaN, why: `messages: ${msgs.length}, url ${location.pathname}` };
    }
  }, big);
  results.openMs = open.ms;
  results.nodes = open.nodes;
  console.log(
    `open a 1,000-message session to its last screen painted: ${fmt(open.ms)} ms; transcript DOM nodes: ${open.nodes}${open.why ? ` (${open.why})` : ''}`,
  );

  // 4. Streaming: 1,500 tokens at ~200/s into a new chat; frame cost and long tasks.
  plan = { tokens: 1500, intervalMs: 5 };
  await page.goto(server.url + '/');
  await page.evaluate(() => {
    window.__long = [];
    new PerformanceObserver((l) => window.__long.push(...l.getEntries().map((e) => e.duration))).observe({ type: 'longtask', buffered: false });
    window.__frames = [];
    try {
      new PerformanceObserver((l) => window.__frames.push(...l.getEntries().map((e) => (e.duration - (e.blockingDuration ?? 0) >= 0 ? e : e)))).observe({
        type: 'long-animation-frame',
        buffered: false,
      });
    } catch {}
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const before = Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
  const frames0 = await page.evaluate(
    () =>
      new Promise((r) => {
        let n = 0;
        const t = performance.now();
        const f = () => {
          n++;
          if (performance.now() - t < 200) requestAnimationFrame(f);
          else r(n);
        };
        requestAnimationFrame(f);
      }),
  );
  await page.locator('[data-role="composer-input"]').fill('stream please');
  const t0 = Date.now();
  await page.locator('[data-role="send"]').click();
  await page.locator('[data-role="stop"]').waitFor({ timeout: 10_000 });
  await page.locator('[data-role="send"]').waitFor({ timeout: 60_000 });
  const seconds = (Date.now() - t0) / 1000;
  const after = Object.fromEntries((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
  const longTasks = await page.evaluate(() => window.__long);
  const scriptMs = (after.ScriptDuration - before.ScriptDuration) * 1000;
  const layoutMs = (after.LayoutDuration - before.LayoutDuration + (after.RecalcStyleDuration - before.RecalcStyleDuration)) * 1000;
  const frameCount = Math.round(seconds * (frames0 / 0.2));
  results.perFrame = (scriptMs + layoutMs) / frameCount;
  results.longest = longTasks.length ? Math.max(...longTasks) : 0;
  console.log(
    `streaming 1,500 tokens over ${fmt(seconds)} s: script ${fmt(scriptMs)} ms + style/layout ${fmt(layoutMs)} ms ≈ ${fmt(results.perFrame)} ms per frame (${frameCount} frames); long tasks > 50 ms: ${longTasks.length}${longTasks.length ? ` (longest ${fmt(results.longest)} ms)` : ''}`,
  );

  // 5. Typing in the sidebar search over 10,000 sessions. Event Timing gives each keystroke's
  // time to the next paint (in 8 ms steps) and the handlers' own processing time; typing into
  // the composer, which filters nothing, is the baseline this machine's paint costs anyway.
  const typing = async (selector) => {
    await page.goto(server.url + '/');
    await page.locator('[data-role="session-row"]').first().waitFor();
    await page.evaluate(() => {
      window.__keys = [];
      new PerformanceObserver((l) =>
        window.__keys.push(
          ...l
            .getEntries()
            .filter((e) => ['keydown', 'keypress', 'input', 'keyup', 'beforeinput'].includes(e.name))
            .map((e) => ({ d: e.duration, p: e.processingEnd - e.processingStart })),
        ),
      ).observe({ type: 'event', durationThreshold: 0, buffered: false });
    });
    await page.locator(selector).first().click();
    await page.keyboard.type('topic 42 note', { delay: 60 });
    await page.waitForTimeout(400);
    const keys = await page.evaluate(() => window.__keys);
    const q = (xs) => {
      const s = [...xs].sort((a, b) => a - b);
      return s.length ? s[Math.floor(s.length * 0.95)] : NaN;
    };
    // A keystroke's cost: its event handlers summed, and the longest time to paint among them.
    return { toPaint: q(keys.map((k) => k.d)), processing: q(keys.map((k) => k.p)), n: keys.length };
  };
  const sidebar = await typing('hermes-sidebar input[type="search"]');
  const composer = await typing('[data-role="composer-input"]');
  results.key = sidebar.processing;
  results.keyPaint = sidebar.toPaint;
  console.log(
    `sidebar search over 10,000 sessions, per key event (p95): handlers ${fmt(sidebar.processing)} ms, to next paint ${fmt(sidebar.toPaint)} ms (${sidebar.n} events)`,
  );
  console.log(`baseline, typing in the composer (p95): handlers ${fmt(composer.processing)} ms, to next paint ${fmt(composer.toPaint)} ms`);

  console.log('');
  console.log(`budget JS before first paint ≤ 100 KB br: ${fmt(results.shellKb)} KB — ${verdict(results.shellKb, 100)}`);
  console.log(`budget first paint of a cached shell ≤ 300 ms: ${fmt(results.paint)} ms — ${verdict(results.paint, 300)}`);
  console.log(
    `budget open 1,000-message session ≤ 150 ms, ≤ 1,500 nodes: ${fmt(results.openMs)} ms — ${verdict(results.openMs, 150)}; ${results.nodes} nodes — ${verdict(results.nodes, 1500)}`,
  );
  console.log(
    `budget streaming ≤ 4 ms per frame, no long task > 50 ms: ${fmt(results.perFrame)} ms — ${verdict(results.perFrame, 4)}; longest task ${fmt(results.longest)} ms — ${verdict(results.longest, 50)}`,
  );
  console.log(
    `budget search keystroke ≤ 16 ms: handlers ${fmt(results.key)} ms — ${verdict(results.key, 16)}; to next paint ${fmt(results.keyPaint)} ms — ${verdict(results.keyPaint, 16)}`,
  );
} finally {
  await browser.close();
  server.child.kill('SIGKILL');
  await provider.close();
  rmSync(home, { recursive: true, force: true });
}
process.exit(0);
