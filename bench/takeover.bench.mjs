// How soon another instance carries a turn on after its owner dies: the real RunRegistry,
// RunOwnership and RunTakeover (src/runs/) with production timings (lease TTL 6 s, renewal
// every 2 s, every instance sweeping every 2 s), two instances over one journal and lease store.
// Instance A begins N turns; it dies (no more renewals, at a random point of its renewal period);
// the time is from its death to B's takeover of each turn. Budget: ≤ 10 s (max).
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fmt, percentile, root, verdict } from './lib.mjs';

const N = 20;
const ROUNDS = 2;
const dir = mkdtempSync(join(tmpdir(), 'hermes-bench-takeover-'));
try {
  const entry = join(dir, 'entry.ts');
  writeFileSync(
    entry,
    `export { RunRegistry } from ${JSON.stringify(join(root, 'src/runs/registry.ts'))};
export { RunOwnership } from ${JSON.stringify(join(root, 'src/runs/run-ownership.ts'))};
export { RunTakeover } from ${JSON.stringify(join(root, 'src/runs/run-takeover.ts'))};
export { MemoryRunJournal } from ${JSON.stringify(join(root, 'src/runs/journal.ts'))};
export { MemoryLeaseStore } from ${JSON.stringify(join(root, 'src/adapters/storage/memory/memory-lease.ts'))};`,
  );
  const outfile = join(dir, 'takeover.mjs');
  await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'node', outfile, logLevel: 'error' });
  const { RunRegistry, RunOwnership, RunTakeover, MemoryRunJournal, MemoryLeaseStore } = await import(pathToFileURL(outfile).href);
  const logger = { info: () => {}, error: (r) => console.error(r) };
  const now = () => Date.now() / 1000;
  const waits = [];
  for (let round = 0; round < ROUNDS; round++) {
    const journal = new MemoryRunJournal();
    const leases = new MemoryLeaseStore();
    const ownerA = new RunOwnership({ leases, owner: 'A' });
    const a = new RunRegistry({ journal, now, ownership: ownerA });
    const ownerB = new RunOwnership({ leases, owner: 'B' });
    const b = new RunRegistry({ journal, now, ownership: ownerB });
    let diedAt = 0;
    const pending = new Set();
    let allTaken;
    const done = new Promise((resolve) => (allTaken = resolve));
    const takeover = new RunTakeover({
      registry: b,
      ownership: ownerB,
      logger,
      takeOver: async (sid) => {
        waits.push(Date.now() - diedAt);
        pending.delete(sid);
        if (!pending.size) allTaken();
        return 'closed';
      },
    });
    for (let i = 0; i < N; i++) {
      const run = await a.beginOwned(`s${round}_${i}`, `r${round}_${i}`);
      run.emit('token', { text: 'partial' });
      pending.add(run.sessionId);
    }
    takeover.start();
    // Dies somewhere in its renewal period: the worst case is just after a renewal.
    await new Promise((resolve) => setTimeout(resolve, Math.random() * ownerA.renewMs + 100));
    ownerA.stop();
    diedAt = Date.now();
    // The sweeps' timers are unref'd (they never hold a server open): this one keeps the bench alive.
    const keepAlive = setTimeout(() => {
      console.error(`OVER BUDGET: ${pending.size} turns not taken over after 30 s`);
      process.exit(1);
    }, 30_000);
    await done;
    clearTimeout(keepAlive);
    takeover.stop();
    ownerB.stop();
  }
  const sorted = [...waits].sort((x, y) => x - y);
  console.log(`${N} turns × ${ROUNDS} deaths, lease TTL 6 s, renew 2 s, sweep 2 s`);
  console.log(
    `takeover after the owner died: p50 ${fmt(percentile(sorted, 50) / 1000)} s, max ${fmt(sorted.at(-1) / 1000)} s ${verdict(sorted.at(-1), 10_000)}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
