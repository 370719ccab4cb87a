// Secret redaction (src/shared/redact.ts) on what it runs over: 10,000 session rows for the
// sidebar (marker-free titles take the prefilter's early exit), a transcript of 200 messages with
// tool output, and large tool results with and without markers.
// Budgets: 10,000 titles ≤ 5 ms (what the list route redacts); whole rows ≤ 20 ms; a 200-message transcript ≤ 5 ms; 1 MB of marker-rich text ≤ 50 ms.
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fmt, percentile, root, verdict } from './lib.mjs';

const dir = mkdtempSync(join(tmpdir(), 'hermes-bench-redact-'));
try {
  const outfile = join(dir, 'redact.mjs');
  await build({ entryPoints: [join(root, 'src/shared/redact.ts')], bundle: true, format: 'esm', platform: 'neutral', outfile, logLevel: 'error' });
  const { redactDeep, redactSecrets } = await import(pathToFileURL(outfile).href);

  /** Median and p95 of `runs` timings of `fn`, in ms, after a warm-up. */
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

  const rows = Array.from({ length: 10_000 }, (_, i) =>
    Object.freeze({
      session_id: i.toString(16).padStart(12, '0'),
      title: `Session ${i} about refactoring the parser`,
      workspace: '/home/user/work',
      model: 'openai/gpt-5',
      model_provider: 'openrouter',
      message_count: 20,
      created_at: 1_780_000_000 + i,
      updated_at: 1_780_000_100 + i,
      pinned: false,
      archived: false,
      project_id: null,
      profile: 'default',
      input_tokens: 1000,
      output_tokens: 200,
      estimated_cost: 0.01,
    }),
  );
  const list = time(() => {
    if (redactDeep(rows) !== rows) throw new Error('marker-free rows must come back as the same array');
  });
  console.log(`redactDeep(10,000 marker-free rows): p50 ${fmt(list.p50)} ms, p95 ${fmt(list.p95)} ms`);
  const titles = rows.map((r) => r.title);
  const bare = time(() =>
    titles.forEach((t) => {
      redactSecrets(t);
    }),
  );
  console.log(`redactSecrets(10,000 marker-free titles): p50 ${fmt(bare.p50)} ms, p95 ${fmt(bare.p95)} ms`);

  const para = 'The agent reads the file, explains what it found, and suggests a focused change. ';
  const session = {
    title: 'A long session',
    messages: Array.from({ length: 200 }, (_, i) =>
      i % 3 === 2
        ? {
            role: 'tool',
            tool_call_id: `c${i}`,
            name: 'terminal',
            content: JSON.stringify({ output: `total 12\n-rw-r--r-- 1 u u 120 token.txt\n${para.repeat(10)}`, exit_code: 0 }),
          }
        : {
            role: i % 3 ? 'assistant' : 'user',
            content: para.repeat(5),
            tool_calls: i % 3 === 1 ? [{ id: `c${i + 1}`, function: { name: 'terminal', arguments: '{"command": "ls -la"}' } }] : undefined,
          },
    ),
  };
  const transcript = time(() => redactDeep(session));
  console.log(`redactDeep(200-message transcript, markers in every tool result): p50 ${fmt(transcript.p50)} ms, p95 ${fmt(transcript.p95)} ms`);

  const clean = para.repeat(Math.ceil(1_000_000 / para.length));
  const cleanT = time(() => redactSecrets(clean), 20);
  console.log(`redactSecrets(1 MB marker-free text): p50 ${fmt(cleanT.p50)} ms`);
  const dirty = `${para}api_key: token secret password=hunter2 Bearer x postgres://u:p@h/db sk-abc `.repeat(Math.ceil(1_000_000 / 160));
  const dirtyT = time(() => redactSecrets(dirty), 20);
  console.log(`redactSecrets(1 MB marker-rich text): p50 ${fmt(dirtyT.p50)} ms`);

  console.log('');
  console.log(`budget 10,000 titles ≤ 5 ms: ${fmt(bare.p95)} ms — ${verdict(bare.p95, 5)}`);
  console.log(`budget 10,000 whole rows ≤ 20 ms: ${fmt(list.p95)} ms — ${verdict(list.p95, 20)}`);
  console.log(`budget 200-message transcript ≤ 5 ms: ${fmt(transcript.p95)} ms — ${verdict(transcript.p95, 5)}`);
  console.log(`budget 1 MB marker-rich text ≤ 50 ms: ${fmt(dirtyT.p50)} ms — ${verdict(dirtyT.p50, 50)}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
