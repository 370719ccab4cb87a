// Approval decisions (src/agent/approvals/gate.ts decideCommand) over Hermes' own example commands
// (tests/agent/approvals/hermes-examples.ts: hardline, dangerous and safe cases), each decision timed
// on its own, with a realistic policy (deny globs, allowlist entries with legacy and Hermes keys, a
// command glob). Also the worst case the parser accepts: a long compound line just under the limit.
// Budget: one decision ≤ 1 ms at p99 over the example set (the terminal tool waits on it every call).
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fmt, percentile, root, verdict } from './lib.mjs';

const dir = mkdtempSync(join(tmpdir(), 'hermes-bench-approvals-'));
try {
  const entry = join(dir, 'entry.ts');
  writeFileSync(
    entry,
    `export { decideCommand } from ${JSON.stringify(join(root, 'src/agent/approvals/gate.ts'))};
export * from ${JSON.stringify(join(root, 'tests/agent/approvals/hermes-examples.ts'))};`,
  );
  const outfile = join(dir, 'approvals.mjs');
  await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'neutral', outfile, logLevel: 'error' });
  const { decideCommand, HARDLINE_EXAMPLES, DANGEROUS_EXAMPLES, SAFE_EXAMPLES } = await import(pathToFileURL(outfile).href);

  const commands = [...HARDLINE_EXAMPLES.map((r) => r[0]), ...DANGEROUS_EXAMPLES.map((r) => r[0]), ...SAFE_EXAMPLES];
  const policy = {
    mode: 'manual',
    deny: ['rm -rf /srv/*', 'terraform destroy*', '*--no-verify*'],
    allowlist: ['recursive_delete', 'SQL DROP', 'podman *', 'git push origin main'],
    sessionApproved: new Set(['git force push (rewrites remote history)']),
    yolo: false,
    sudoPassword: false,
    hermesHome: '/opt/data',
  };

  for (let i = 0; i < 20; i++) for (const c of commands) decideCommand(c, policy);
  const decided = { run: 0, ask: 0, block: 0 };
  for (const c of commands) decided[decideCommand(c, policy).action]++;
  // Each command decided 51 times, interleaved with the others; its median is its cost (the machine
  // is shared, so single samples include preemption: the raw p99 is shown too).
  const rounds = 51;
  const samples = commands.map(() => []);
  for (let r = 0; r < rounds; r++) {
    commands.forEach((c, i) => {
      const t = performance.now();
      decideCommand(c, policy);
      samples[i].push(performance.now() - t);
    });
  }
  const medians = samples.map((s) => s.sort((a, b) => a - b)[rounds >> 1]).sort((a, b) => a - b);
  const raw = samples.flat().sort((a, b) => a - b);
  const p50 = percentile(medians, 50);
  const p99 = percentile(medians, 99);
  console.log(
    `decideCommand over ${commands.length} Hermes example commands (${decided.block} refused, ${decided.ask} asked, ${decided.run} run): per-command median p50 ${fmt(p50 * 1000)} µs, p99 ${fmt(p99 * 1000)} µs, slowest ${fmt(medians.at(-1) * 1000)} µs; all ${raw.length} samples p99 ${fmt(percentile(raw, 99) * 1000)} µs`,
  );

  // A long compound line: 2,000 commands, ~60 KB (under the 128,000-character parser limit).
  const long = Array.from({ length: 2000 }, (_, i) => `echo step-${i} >> build.log && test -f out/${i}.o`).join('; ');
  const longTimes = [];
  for (let i = 0; i < 10; i++) {
    const t = performance.now();
    decideCommand(long, policy);
    longTimes.push(performance.now() - t);
  }
  longTimes.sort((a, b) => a - b);
  console.log(`decideCommand on a ${Math.round(long.length / 1000)} KB compound line: p50 ${fmt(percentile(longTimes, 50))} ms`);
  console.log(`budget one decision ≤ 1 ms (p99): ${fmt(p99)} ms — ${verdict(p99, 1)}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
