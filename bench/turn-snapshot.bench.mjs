// What recording a turn's file changes costs (src/runs/turn-changes.ts over the Node snapshots,
// src/adapters/platform/node-workspace-snapshots.ts) in a 5,000-file workspace, as a git
// repository and as a plain folder. A turn edits three files and creates one between the two
// snapshots. The before snapshot runs beside the first model call (it only delays a tool when
// it is slower than that call); the after snapshot, the compare and the record are what a turn
// waits for before `done`. Budget: that, p50 ≤ 50 ms in both kinds.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fmt, percentile, root, verdict } from './lib.mjs';

const FILES = 5000;
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const dir = mkdtempSync(join(tmpdir(), 'hermes-bench-snapshot-'));
try {
  const entry = join(dir, 'entry.ts');
  writeFileSync(
    entry,
    [
      `export { NodeWorkspaceSnapshots } from ${JSON.stringify(join(root, 'src/adapters/platform/node-workspace-snapshots.ts'))};`,
      `export { NodeGitRunner } from ${JSON.stringify(join(root, 'src/adapters/platform/node-git.ts'))};`,
      `export { MemoryTurnChangeStore } from ${JSON.stringify(join(root, 'src/adapters/storage/memory/memory-turn-changes.ts'))};`,
      `export { watchTurnChanges } from ${JSON.stringify(join(root, 'src/runs/turn-changes.ts'))};`,
    ].join('\n'),
  );
  const outfile = join(dir, 'snap.mjs');
  await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'node', outfile, logLevel: 'error' });
  const { NodeWorkspaceSnapshots, NodeGitRunner, MemoryTurnChangeStore, watchTurnChanges } = await import(pathToFileURL(outfile).href);

  /** 50 folders of 100 source-like files of about 1.5 KB. */
  const makeWorkspace = (name, git) => {
    const ws = join(dir, name);
    for (let d = 0; d < FILES / 100; d++) {
      mkdirSync(join(ws, `pkg${d}`), { recursive: true });
      for (let f = 0; f < 100; f++) writeFileSync(join(ws, `pkg${d}`, `file${f}.ts`), `// ${d}/${f}\n${'export const value = 1;\n'.repeat(60)}`);
    }
    if (git) {
      const env = { ...process.env, GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@x', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@x' };
      execFileSync('git', ['init', '-q'], { cwd: ws, env });
      execFileSync('git', ['add', '-A'], { cwd: ws, env });
      execFileSync('git', ['commit', '-qm', 'seed'], { cwd: ws, env });
    }
    return ws;
  };
  const logger = { info() {}, error: (r) => console.error(r) };
  const stats = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return { p50: percentile(s, 50), p95: percentile(s, 95) };
  };

  const results = [];
  for (const kind of ['git', 'plain']) {
    const ws = makeWorkspace(kind, kind === 'git');
    const changes = {
      snapshots: new NodeWorkspaceSnapshots({ git: new NodeGitRunner(process.env), scratchDir: join(dir, 'scratch') }),
      store: new MemoryTurnChangeStore(),
    };
    let t = performance.now();
    await changes.snapshots.take(ws);
    const cold = performance.now() - t;
    const before = [];
    const finish = [];
    for (let i = 0; i < RUNS; i++) {
      t = performance.now();
      const watch = watchTurnChanges(changes, { sessionId: 's', streamId: `r${i}`, workspace: ws }, { logger, now: () => Date.now() / 1000 });
      await watch.ready;
      before.push(performance.now() - t);
      // The turn's work: three edits and one new file.
      for (let f = 0; f < 3; f++) writeFileSync(join(ws, `pkg${f}`, `file${i}.ts`), `// edited in turn ${i}\n${'export const value = 2;\n'.repeat(60)}`);
      writeFileSync(join(ws, `new-${i}.ts`), 'export const fresh = true;\n');
      t = performance.now();
      const summary = await watch.finish();
      finish.push(performance.now() - t);
      if (summary?.file_changes.length !== 4) throw new Error(`expected 4 changes, got ${JSON.stringify(summary)}`);
    }
    const b = stats(before);
    const f = stats(finish);
    results.push([kind, f]);
    console.log(
      `${kind} (${FILES} files): first snapshot ${fmt(cold)} ms; before (warm) p50 ${fmt(b.p50)} ms, p95 ${fmt(b.p95)} ms; after + compare + record p50 ${fmt(f.p50)} ms, p95 ${fmt(f.p95)} ms`,
    );
  }
  console.log('');
  for (const [kind, f] of results)
    console.log(`budget added to a turn (after snapshot + compare + record, ${kind}) ≤ 50 ms: ${fmt(f.p50)} ms — ${verdict(f.p50, 50)}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
