import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FsLeaseStore } from '../../src/adapters/storage/fs/fs-lease.js';
import { MemoryLeaseStore } from '../../src/adapters/storage/memory/memory-lease.js';
import { nextRunAt } from '../../src/domain/cron/schedule.js';
import { isoInZone } from '../../src/domain/cron/time-zone.js';
import type { CronJob } from '../../src/domain/cron/types.js';
import type { HermesHome } from '../../src/ports/hermes-home.js';
import type { LeaseStore } from '../../src/ports/lease.js';
import { AppEvents, type AppEvent } from '../../src/runs/app-events.js';
import { TaskScheduler, type TaskOutcome } from '../../src/runs/task-scheduler.js';
import { MapCronJobStore } from '../helpers/memory-cron-store.js';

const ZONE = 'Europe/Berlin';
const home = { profile: 'default', root: '/nowhere' } as unknown as HermesHome;
const quiet = { info: () => {}, error: () => {} };

/** A timer that fires only when the test says: what the scheduler asked for is recorded. */
function fakeTimer() {
  const pending = new Map<number, { fn: () => void; ms: number }>();
  let id = 0;
  return {
    pending,
    set(fn: () => void, ms: number) {
      pending.set(++id, { fn, ms });
      return id;
    },
    clear(handle: unknown) {
      pending.delete(handle as number);
    },
  };
}

interface Rig {
  scheduler: TaskScheduler;
  store: MapCronJobStore;
  timer: ReturnType<typeof fakeTimer>;
  runs: string[];
  finished: AppEvent[];
  clock: { ms: number };
  release: () => void;
}

function rig(o: { store?: MapCronJobStore; leases?: LeaseStore; clock?: { ms: number }; owner?: string; hold?: boolean } = {}): Rig {
  const store = o.store ?? new MapCronJobStore(home);
  const clock = o.clock ?? { ms: 0 };
  const timer = fakeTimer();
  const events = new AppEvents();
  const finished: AppEvent[] = [];
  events.on((e) => {
    if (e.type === 'task_finished') finished.push(e);
  });
  const runs: string[] = [];
  let gate: Promise<void> = Promise.resolve();
  let release = () => {};
  if (o.hold) gate = new Promise((resolve) => (release = resolve));
  const scheduler = new TaskScheduler({
    homes: { list: async () => ['default'], get: async () => home },
    storeFor: () => store,
    leases: o.leases ?? new MemoryLeaseStore(() => clock.ms),
    owner: o.owner ?? 'server-a',
    now: () => clock.ms,
    timer,
    nextRunAt: async () => (schedule, after) => {
      const at = nextRunAt(schedule, after, ZONE);
      return at ? isoInZone(at, ZONE) : null;
    },
    runTask: async (_home, _store, job, started): Promise<TaskOutcome> => {
      runs.push(`${job.id}@${new Date(clock.ms).toISOString()}`);
      started(`cron_${job.id}_${runs.length}`);
      await gate;
      return { session_id: `cron_${job.id}_${runs.length}`, ok: true, error: null, output_file: `${runs.length}.md` };
    },
    events,
    logger: quiet,
    active: async () => true,
  });
  return { scheduler, store, timer, runs, finished, clock, release: () => release() };
}

const at = (iso: string) => Date.parse(iso);
async function tickAt(r: Rig, iso: string, expectRuns?: number) {
  r.clock.ms = at(iso);
  await r.scheduler.tick();
  if (expectRuns !== undefined) await vi.waitFor(() => expect(r.finished.length).toBe(expectRuns));
}
const job = (r: Rig, id: string) => r.store.jobs.get(id) as CronJob;

describe('TaskScheduler with an injected clock', () => {
  it('runs a daily cron job at 09:00 local on both sides of the spring DST change', async () => {
    const r = rig();
    r.store.put({ id: 'daily', schedule: { kind: 'cron', expr: '0 9 * * *', display: '0 9 * * *' }, next_run_at: '2026-03-28T09:00:00+01:00' });
    await tickAt(r, '2026-03-28T07:59:59Z');
    expect(r.runs).toEqual([]);
    // The next tick is armed for the due instant, not a whole period later.
    expect(Math.min(...[...r.timer.pending.values()].map((t) => t.ms))).toBe(1000);
    await tickAt(r, '2026-03-28T08:00:00Z', 1);
    expect(job(r, 'daily').next_run_at).toBe('2026-03-29T09:00:00+02:00');
    expect(job(r, 'daily')).toMatchObject({ state: 'scheduled', last_status: 'ok', repeat: { completed: 1 } });
    await tickAt(r, '2026-03-29T06:59:59Z');
    expect(r.runs).toHaveLength(1);
    await tickAt(r, '2026-03-29T07:00:00Z', 2);
    expect(r.runs).toEqual(['daily@2026-03-28T08:00:00.000Z', 'daily@2026-03-29T07:00:00.000Z']);
    expect(job(r, 'daily').next_run_at).toBe('2026-03-30T09:00:00+02:00');
  });

  it('runs an interval job every 60 real minutes through the autumn DST change', async () => {
    const r = rig();
    r.store.put({ id: 'hourly', schedule: { kind: 'interval', minutes: 60, display: 'every 60m' }, next_run_at: '2026-10-25T02:30:00+02:00' });
    await tickAt(r, '2026-10-25T00:30:00Z', 1);
    expect(job(r, 'hourly').next_run_at).toBe('2026-10-25T02:30:00+01:00');
    await tickAt(r, '2026-10-25T01:29:00Z');
    expect(r.runs).toHaveLength(1);
    await tickAt(r, '2026-10-25T01:30:00Z', 2);
  });

  it('runs a one-shot once at its time, then completes it', async () => {
    const r = rig();
    r.store.put({
      id: 'once',
      schedule: { kind: 'once', run_at: '2026-12-01T10:00:00+01:00', display: 'once' },
      next_run_at: '2026-12-01T10:00:00+01:00',
      repeat: { times: 1, completed: 0 },
    });
    await tickAt(r, '2026-12-01T08:59:59Z');
    expect(r.runs).toEqual([]);
    await tickAt(r, '2026-12-01T09:00:00Z', 1);
    expect(job(r, 'once')).toMatchObject({ state: 'completed', enabled: false, next_run_at: null, last_status: 'ok', repeat: { times: 1, completed: 1 } });
    await tickAt(r, '2026-12-01T12:00:00Z');
    expect(r.runs).toHaveLength(1);
  });

  it('runs a job that missed several slots while the server was down once, then waits for the next slot', async () => {
    const r = rig();
    r.store.put({ id: 'missed', schedule: { kind: 'cron', expr: '0 * * * *', display: '0 * * * *' }, next_run_at: '2026-12-01T05:00:00+01:00' });
    r.clock.ms = at('2026-12-01T09:10:00Z');
    r.scheduler.start();
    // start() arms the first tick at once.
    const first = [...r.timer.pending.values()].find((t) => t.ms === 0);
    expect(first).toBeDefined();
    first!.fn();
    await vi.waitFor(() => expect(r.finished.length).toBe(1));
    expect(job(r, 'missed').next_run_at).toBe('2026-12-01T11:00:00+01:00');
    await tickAt(r, '2026-12-01T09:20:00Z');
    await tickAt(r, '2026-12-01T09:59:00Z');
    expect(r.runs).toHaveLength(1);
    await r.scheduler.stop();
  });

  it('a job created between ticks gets its exact-instant timer on wake, also when the wake comes mid-tick', async () => {
    const r = rig();
    const waits = () => [...r.timer.pending.values()].map((t) => t.ms);
    // Fires the one armed timer as a real one would: it is no longer pending once it ran.
    const fire = async () => {
      const [id, t] = [...r.timer.pending.entries()][0]!;
      r.timer.pending.delete(id);
      t.fn();
      await r.scheduler.tick();
    };
    r.clock.ms = at('2026-12-01T09:00:00Z');
    r.scheduler.start();
    await fire();
    // No jobs: the next look is a whole period away.
    expect(waits()).toEqual([15_000]);
    r.store.put({ id: 'soon', schedule: { kind: 'once', run_at: '2026-12-01T09:00:04Z', display: 'once' }, next_run_at: '2026-12-01T09:00:04Z' });
    r.scheduler.wake();
    expect(waits()).toEqual([0]);
    await fire();
    expect(waits()).toEqual([4000]);

    // A wake while a tick reads the jobs (which it may have read before the change): one more tick at once.
    const ticking = r.scheduler.tick();
    r.store.put({ id: 'sooner', schedule: { kind: 'once', run_at: '2026-12-01T09:00:02Z', display: 'once' }, next_run_at: '2026-12-01T09:00:02Z' });
    r.scheduler.wake();
    await ticking;
    expect(waits()).toEqual([0]);
    await fire();
    expect(waits()).toEqual([2000]);
    await r.scheduler.stop();
    // A stopped scheduler arms nothing.
    r.scheduler.wake();
    expect(waits()).toEqual([]);
  });

  it('skips paused and disabled jobs, and stops a job when its repeats are used up', async () => {
    const r = rig();
    const every = { kind: 'interval', minutes: 10, display: 'every 10m' } as const;
    r.store.put({ id: 'paused', schedule: every, state: 'paused', enabled: false, next_run_at: '2026-12-01T00:00:00Z' });
    r.store.put({ id: 'off', schedule: every, enabled: false, next_run_at: '2026-12-01T00:00:00Z' });
    r.store.put({ id: 'twice', schedule: every, next_run_at: '2026-12-01T00:00:00Z', repeat: { times: 2, completed: 0 } });
    await tickAt(r, '2026-12-01T00:00:00Z', 1);
    await tickAt(r, '2026-12-01T00:10:00Z', 2);
    await tickAt(r, '2026-12-01T00:20:00Z');
    await tickAt(r, '2026-12-01T00:30:00Z');
    expect(r.runs).toEqual(['twice@2026-12-01T00:00:00.000Z', 'twice@2026-12-01T00:10:00.000Z']);
    expect(job(r, 'twice')).toMatchObject({ state: 'completed', enabled: false, next_run_at: null, repeat: { times: 2, completed: 2 } });
    expect(job(r, 'paused').last_run_at).toBeNull();
  });

  it('answers already_running for a job whose run is in progress, and a paused job run by hand stays paused', async () => {
    const r = rig({ hold: true });
    r.store.put({ id: 'p', schedule: { kind: 'interval', minutes: 5, display: 'every 5m' }, state: 'paused', enabled: false, next_run_at: null });
    r.clock.ms = at('2026-12-01T00:00:00Z');
    const runner = r.scheduler.runnerFor(home);
    const first = await runner.runNow('p');
    expect(first).toEqual({ ok: true, session_id: 'cron_p_1' });
    expect(runner.running('p')).toMatchObject([{ profile: 'default', job_id: 'p', session_id: 'cron_p_1' }]);
    expect(await runner.runNow('p')).toEqual({ ok: false, already_running: true });
    r.release();
    await vi.waitFor(() => expect(r.finished.length).toBe(1));
    expect(job(r, 'p')).toMatchObject({ state: 'paused', last_status: 'ok' });
    await expect(runner.runNow('nope')).rejects.toThrow('Job not found');
  });

  it('releases a job a crashed server left running once nobody holds its lease', async () => {
    const clock = { ms: at('2026-12-01T00:00:00Z') };
    const leases = new MemoryLeaseStore(() => clock.ms);
    const r = rig({ leases, clock });
    r.store.put({ id: 'stuck', schedule: { kind: 'interval', minutes: 60, display: 'every 60m' }, state: 'running', next_run_at: '2026-12-01T01:00:00Z' });
    await leases.acquire('cron-default-stuck', 'dead-server', 60_000);
    await r.scheduler.tick();
    expect(job(r, 'stuck').state).toBe('running');
    clock.ms += 61_000;
    await r.scheduler.tick();
    expect(job(r, 'stuck')).toMatchObject({ state: 'scheduled', last_status: 'error', next_run_at: '2026-12-01T01:00:00Z' });
    expect(job(r, 'stuck').last_error).toMatch(/interrupted/);
    expect(r.runs).toEqual([]);
  });
});

describe('two schedulers on one state dir', () => {
  let dir: string | null = null;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = null;
  });

  it('run a due job once: the fs lease stops the second, and the re-read job is no longer due for it', async () => {
    dir = await mkdtemp(join(tmpdir(), 'hermes-leases-'));
    const clock = { ms: at('2026-12-01T09:00:00Z') };
    const shared = new Map<string, CronJob>();
    // Both hold their run: which one gets the lease first is up to the file system.
    const a = rig({ store: new MapCronJobStore(home, shared), leases: new FsLeaseStore(dir, () => clock.ms), clock, owner: 'a', hold: true });
    const b = rig({ store: new MapCronJobStore(home, shared), leases: new FsLeaseStore(dir, () => clock.ms), clock, owner: 'b', hold: true });
    a.store.put({ id: 'j', schedule: { kind: 'interval', minutes: 30, display: 'every 30m' }, next_run_at: '2026-12-01T09:00:00Z' });
    await Promise.all([a.scheduler.tick(), b.scheduler.tick()]);
    await vi.waitFor(() => expect(a.runs.length + b.runs.length).toBe(1));
    const [winner, other] = a.runs.length ? [a, b] : [b, a];
    // While the run lasts the other server is refused the lease.
    await other.scheduler.tick();
    expect(await other.scheduler.runnerFor(home).runNow('j')).toEqual({ ok: false, already_running: true });
    winner.release();
    await vi.waitFor(() => expect(winner.finished.length).toBe(1));
    await Promise.all([a.scheduler.tick(), b.scheduler.tick()]);
    expect(a.runs.length + b.runs.length).toBe(1);
    expect(other.finished).toEqual([]);
    expect(shared.get('j')).toMatchObject({ state: 'scheduled', next_run_at: '2026-12-01T10:30:00+01:00' });
  });

  it('an fs lease is exclusive until it expires, renewable only by its owner, and taken over after expiry', async () => {
    dir = await mkdtemp(join(tmpdir(), 'hermes-leases-'));
    const clock = { ms: 1_000_000 };
    const one = new FsLeaseStore(dir, () => clock.ms);
    const two = new FsLeaseStore(dir, () => clock.ms);
    const results = await Promise.all([one.acquire('k', 'a', 1000), two.acquire('k', 'b', 1000)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const [winner, loser] = results[0] ? ['a', 'b'] : ['b', 'a'];
    expect(await two.renew('k', loser!, 1000)).toBe(false);
    expect(await one.renew('k', winner!, 1000)).toBe(true);
    clock.ms += 999;
    expect(await two.acquire('k', loser!, 1000)).toBe(false);
    clock.ms += 2;
    expect(await two.acquire('k', loser!, 1000)).toBe(true);
    expect(await one.renew('k', winner!, 1000)).toBe(false);
    await one.release('k', winner!);
    expect(await one.acquire('k', winner!, 1000)).toBe(false);
    await two.release('k', loser!);
    expect(await one.acquire('k', winner!, 1000)).toBe(true);
  });
});
