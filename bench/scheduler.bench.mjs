// How late a due task starts after its instant: the real TaskScheduler (src/runs/task-scheduler.ts)
// with Node's timers and a 15 s tick, N interval jobs due at spread instants over the next few
// seconds; a run's start is when the scheduler hands the job to the task runner (the agent turn
// itself is not timed). Budget: a due job starts within 2 s of its time (p95).
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fmt, percentile, root, verdict } from './lib.mjs';

const N = 60;
const dir = mkdtempSync(join(tmpdir(), 'hermes-bench-scheduler-'));
try {
  const entry = join(dir, 'entry.ts');
  writeFileSync(
    entry,
    `export { TaskScheduler } from ${JSON.stringify(join(root, 'src/runs/task-scheduler.ts'))};
export { AppEvents } from ${JSON.stringify(join(root, 'src/runs/app-events.ts'))};
export { MemoryLeaseStore } from ${JSON.stringify(join(root, 'src/adapters/storage/memory/memory-lease.ts'))};
export { MapCronJobStore } from ${JSON.stringify(join(root, 'tests/helpers/memory-cron-store.ts'))};`,
  );
  const outfile = join(dir, 'scheduler.mjs');
  await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'node', outfile, logLevel: 'error' });
  const { TaskScheduler, AppEvents, MemoryLeaseStore, MapCronJobStore } = await import(pathToFileURL(outfile).href);

  const home = { profile: 'default', root: dir };
  const store = new MapCronJobStore(home);
  const start = Date.now() + 500;
  const due = new Map();
  for (let i = 0; i < N; i++) {
    const at = start + Math.round((i * 4000) / N);
    due.set(`job${i}`, at);
    store.put({ id: `job${i}`, schedule: { kind: 'interval', minutes: 60, display: 'every 60m' }, next_run_at: new Date(at).toISOString() });
  }
  const late = [];
  let finish;
  const allStarted = new Promise((resolve) => (finish = resolve));
  const timer = {
    set(fn, ms) {
      const t = setTimeout(fn, ms);
      t.unref();
      return t;
    },
    clear: (t) => clearTimeout(t),
  };
  const scheduler = new TaskScheduler({
    homes: { list: async () => ['default'], get: async () => home },
    storeFor: () => store,
    leases: new MemoryLeaseStore(),
    owner: 'bench',
    now: () => Date.now(),
    timer,
    nextRunAt: async () => (_schedule, after) => new Date(after.getTime() + 3_600_000).toISOString(),
    runTask: async (_home, _store, job, started) => {
      late.push(Date.now() - due.get(job.id));
      started(`cron_${job.id}`);
      if (late.length === N) finish();
      return { session_id: `cron_${job.id}`, ok: true, error: null, output_file: null };
    },
    events: new AppEvents(),
    logger: { info() {}, error() {} },
    active: async () => true,
    tickMs: 15_000,
  });
  scheduler.start();
  const guard = setTimeout(() => finish(), 30_000);
  await allStarted;
  clearTimeout(guard);
  await scheduler.stop();
  late.sort((a, b) => a - b);
  const p95 = percentile(late, 95) / 1000;
  console.log(
    `task start after its due instant (${late.length}/${N} jobs over 4 s, 15 s tick, real timers): p50 ${fmt(percentile(late, 50))} ms, p95 ${fmt(percentile(late, 95))} ms, max ${fmt(late.at(-1))} ms`,
  );
  console.log(`budget a due job starts within 2 s (p95): ${fmt(p95)} s — ${late.length === N ? verdict(p95, 2) : 'FAIL (not every job started)'}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
