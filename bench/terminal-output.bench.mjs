// What the terminal tool adds to a command's run before the model reads its output
// (src/agent/tools/terminal.ts cleanOutput: ANSI strip + Hermes' secret masking, over output the
// host already cut to 50,000 characters), and the cost of capturing a chatty command
// (OutputWindow, the foreground head/tail cut) or a background one (RollingBuffer, 200,000).
// Budgets (p50; this runs once per tool call, beside a model call of seconds): cleaning 50,000
// characters ≤ 30 ms in every shape; capturing 10 MB ≤ 50 ms.
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fmt, percentile, root, verdict } from './lib.mjs';

const dir = mkdtempSync(join(tmpdir(), 'hermes-bench-terminal-'));
try {
  const entry = join(dir, 'entry.ts');
  writeFileSync(
    entry,
    `export { cleanOutput } from ${JSON.stringify(join(root, 'src/agent/tools/terminal.ts'))};\n` +
      `export { OutputWindow, RollingBuffer } from ${JSON.stringify(join(root, 'src/agent/tools/output-window.ts'))};\n`,
  );
  const outfile = join(dir, 'terminal.mjs');
  await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'neutral', outfile, logLevel: 'error' });
  const { cleanOutput, OutputWindow, RollingBuffer } = await import(pathToFileURL(outfile).href);

  const time = (fn, runs = 50) => {
    for (let i = 0; i < 5; i++) fn();
    const times = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      fn();
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    return { p50: percentile(times, 50), p95: percentile(times, 95) };
  };
  const fill = (unit, n = 50_000) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
  const ctx = { hermesHome: '/home/u/.hermes' };
  const shapes = {
    'plain build log': [fill('src/module.ts(12,5): compiled 120 files in 3.2s\n'), 'npm run build'],
    'coloured test output': [fill('\x1b[32m✓\x1b[0m parses the config \x1b[2m(3 ms)\x1b[0m\n'), 'npx vitest run'],
    'keys and URLs in a log': [
      fill('GET https://api.example.com/v1?x=1 Authorization: Bearer abcdefghijklmnopqrstuvwx sk-abcdefghijklmnopqrstu\n'),
      'cat app.log',
    ],
    'an env dump': [fill('HOME=/home/u\nSERVICE_TOKEN=abcdefghijklmnopqrstuvwx12\nPATH=/usr/local/bin:/usr/bin\nMAX_TOKENS=100\n'), 'env'],
  };
  const results = [];
  for (const [name, [text, command]] of Object.entries(shapes)) {
    const r = time(() => cleanOutput(text, command, ctx));
    results.push([name, r]);
    console.log(`cleanOutput(50,000 chars, ${name}): p50 ${fmt(r.p50)} ms, p95 ${fmt(r.p95)} ms`);
  }

  const chunk = fill('0123456789abcdef\n', 65_536);
  const capture = (make) =>
    time(() => {
      const w = make();
      for (let i = 0; i < 160; i++) w.push(chunk); // ~10 MB
      return w.text();
    }, 20);
  const fg = capture(() => new OutputWindow(50_000));
  const bg = capture(() => new RollingBuffer(200_000));
  console.log(`foreground capture of 10 MB (64 KB chunks, 50,000 kept): p50 ${fmt(fg.p50)} ms, p95 ${fmt(fg.p95)} ms`);
  console.log(`background buffer of 10 MB (64 KB chunks, 200,000 kept): p50 ${fmt(bg.p50)} ms, p95 ${fmt(bg.p95)} ms`);

  console.log('');
  for (const [name, r] of results) console.log(`budget clean 50,000 chars (${name}) ≤ 30 ms: ${fmt(r.p50)} ms — ${verdict(r.p50, 30)}`);
  console.log(`budget capture 10 MB ≤ 50 ms: foreground ${fmt(fg.p50)} ms — ${verdict(fg.p50, 50)}; background ${fmt(bg.p50)} ms — ${verdict(bg.p50, 50)}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
