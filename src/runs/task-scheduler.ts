import type { CronJob, CronJobStore, JobRunner, RunningTask, TaskScheduler as TaskSchedulerPort } from '../domain/cron/types.js';
import type { HermesHome, HermesHomes } from '../ports/hermes-home.js';
import { NotFound } from '../ports/errors.js';
import type { LeaseStore } from '../ports/lease.js';
import type { Logger } from '../ports/platform.js';
import type { AppEvents } from './app-events.js';
import { dueAt, isDue, markAbandoned, markFinished, markStarted, type NextRunAt } from './task-job-state.js';

/** A timer the scheduler sets (Node: setTimeout, unref'd; tests: a fake one). */
export interface SchedulerTimer {
  set(fn: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

/** How one run of a job went, as the task run reports it. */
export interface TaskOutcome {
  session_id: string | null;
  ok: boolean;
  error: string | null;
  /** The output file's name under `cron/output/<job_id>/`. */
  output_file: string | null;
}

/** Runs one job once (src/runs/task-run.ts): `started` is called once its session exists. */
export type RunTask = (home: HermesHome, store: CronJobStore, job: CronJob, started: (sessionId: string) => void) => Promise<TaskOutcome>;

export interface TaskSchedulerOptions {
  homes: Pick<HermesHomes, 'list' | 'get'>;
  /** The profile's jobs (one store per home). */
  storeFor(home: HermesHome): CronJobStore;
  leases: LeaseStore;
  /** This server, as lease owner. */
  owner: string;
  /** Wall-clock milliseconds. */
  now(): number;
  timer: SchedulerTimer;
  /** The profile's schedule arithmetic (its time zone). */
  nextRunAt(home: HermesHome): Promise<NextRunAt>;
  runTask: RunTask;
  events: AppEvents;
  logger: Logger;
  /** Whether this server schedules now (false while the chat backend is a gateway: its ticker runs the jobs). */
  active(): Promise<boolean>;
  /** The longest wait between ticks (15 s); a tick also comes exactly at the next due instant. */
  tickMs?: number;
  /** A run's lease, renewed every third of it while the run lasts (60 s). */
  leaseTtlMs?: number;
}

interface InFlight {
  task: RunningTask;
  done: Promise<void>;
}

const leaseKey = (home: HermesHome, jobId: string) => `cron-${home.profile}-${jobId}`;

/**
 * This server's scheduler: ticks every `tickMs` and at the next due instant, over every
 * profile; starts each due job as a built-in agent turn under a lease (so two servers on one
 * state dir never run a job twice), and releases runs a crashed server left `running`.
 * Runtime-free: time and timers are injected.
 */
export class TaskScheduler implements TaskSchedulerPort {
  readonly #o: TaskSchedulerOptions;
  readonly #tickMs: number;
  readonly #ttl: number;
  #handle: unknown = null;
  #started = false;
  #stopped = false;
  #ticking: Promise<void> | null = null;
  /** A wake came while a tick was reading the jobs: tick again as soon as it ends. */
  #again = false;
  readonly #inflight = new Map<string, InFlight>();

  constructor(options: TaskSchedulerOptions) {
    this.#o = options;
    this.#tickMs = options.tickMs ?? 15_000;
    this.#ttl = options.leaseTtlMs ?? 60_000;
  }

  start(): void {
    if (this.#started || this.#stopped) return;
    this.#started = true;
    // The first tick runs at once: jobs missed while the server was down, and runs it left `running`.
    this.#arm(0);
  }

  async stop(timeoutMs = 4000): Promise<void> {
    this.#stopped = true;
    if (this.#handle !== null) this.#o.timer.clear(this.#handle);
    this.#handle = null;
    const all = Promise.all([this.#ticking, ...[...this.#inflight.values()].map((f) => f.done)]).then(() => {});
    let timer: unknown = null;
    await Promise.race([all, new Promise<void>((resolve) => (timer = this.#o.timer.set(resolve, timeoutMs)))]);
    this.#o.timer.clear(timer);
  }

  runnerFor(home: HermesHome): JobRunner {
    return {
      runNow: async (jobId) => {
        const store = this.#o.storeFor(home);
        if (!(await store.get(jobId))) throw new NotFound('Job not found');
        const sessionId = await this.#launch(home, store, jobId, 'manual');
        return sessionId === 'busy' ? { ok: false, already_running: true } : { ok: true, session_id: sessionId };
      },
      running: (jobId) =>
        [...this.#inflight.values()].map((f) => f.task).filter((t) => t.profile === home.profile && (jobId === undefined || t.job_id === jobId)),
    };
  }

  tick(): Promise<void> {
    this.#ticking ??= this.#tick().finally(() => {
      this.#ticking = null;
    });
    return this.#ticking;
  }

  /**
   * Jobs changed here (created, edited, resumed): look at them now, so a new job's first slot
   * gets its exact-instant timer instead of waiting up to a whole tick period.
   */
  wake(): void {
    if (!this.#started || this.#stopped) return;
    if (this.#ticking) this.#again = true;
    else this.#arm(0);
  }

  #arm(ms: number): void {
    if (this.#stopped) return;
    if (this.#handle !== null) this.#o.timer.clear(this.#handle);
    this.#handle = this.#o.timer.set(
      () => {
        this.#handle = null;
        void this.tick();
      },
      Math.max(0, ms),
    );
  }

  async #tick(): Promise<void> {
    let soonest = this.#tickMs;
    this.#again = false;
    try {
      if (this.#stopped || !(await this.#o.active())) return;
      for (const profile of await this.#o.homes.list()) {
        // A profile removed since the list was read is skipped.
        const home = await this.#o.homes.get(profile).catch(() => null);
        if (!home) continue;
        const store = this.#o.storeFor(home);
        let jobs: CronJob[];
        try {
          jobs = await store.list({ includeDisabled: true });
        } catch (err) {
          this.#o.logger.error({ msg: 'could not read the cron jobs', profile: home.profile, error: String((err as Error)?.message ?? err) });
          continue;
        }
        const now = this.#o.now();
        for (const job of jobs) {
          if (this.#inflight.has(leaseKey(home, job.id))) continue;
          if (job.state === 'running') await this.#recover(home, store, job.id);
          else if (isDue(job, now)) void this.#launch(home, store, job.id, 'schedule');
          else {
            const at = dueAt(job);
            if (at !== null) soonest = Math.min(soonest, at - now);
          }
        }
      }
    } catch (err) {
      this.#o.logger.error({ msg: 'scheduler tick failed', error: String((err as Error)?.stack ?? err) });
    } finally {
      this.#arm(this.#again ? 0 : soonest);
    }
  }

  /** A job left `running` with nobody holding its lease: the server running it is gone. */
  async #recover(home: HermesHome, store: CronJobStore, jobId: string): Promise<void> {
    const key = leaseKey(home, jobId);
    if (!(await this.#o.leases.acquire(key, this.#o.owner, this.#ttl))) return;
    try {
      const job = await store.mutate(jobId, (j) => {
        if (j.state === 'running') markAbandoned(j, new Date(this.#o.now()));
      });
      if (job) this.#o.logger.info({ msg: 'released an interrupted task run', profile: home.profile, job_id: jobId });
    } finally {
      await this.#o.leases.release(key, this.#o.owner);
    }
  }

  /**
   * Starts a run under the job's lease; resolves with its session id once the session exists
   * (null when it failed before one), or `busy` when a run of it is in progress (here or on
   * another server), or null when a scheduled job was no longer due once re-read under the lease.
   */
  async #launch(home: HermesHome, store: CronJobStore, jobId: string, trigger: 'schedule' | 'manual'): Promise<string | null | 'busy'> {
    const key = leaseKey(home, jobId);
    if (this.#inflight.has(key) || this.#stopped) return 'busy';
    const { leases, owner } = this.#o;
    if (!(await leases.acquire(key, owner, this.#ttl))) return 'busy';
    let job: CronJob | null = null;
    let rest: 'scheduled' | 'paused' = 'scheduled';
    let next: NextRunAt | null = null;
    try {
      // Re-read under the lease: another server may have run it and moved it on meanwhile.
      const current = await store.get(jobId);
      if (!current || current.state === 'running') return current ? 'busy' : null;
      if (trigger === 'schedule' && !isDue(current, this.#o.now())) return null;
      if (current.state === 'paused') rest = 'paused';
      next = await this.#o.nextRunAt(home);
      const nextRun = next;
      job = await store.mutate(jobId, (j) => markStarted(j, new Date(this.#o.now()), nextRun));
    } finally {
      if (!job) await leases.release(key, owner);
    }
    if (!job || !next) return null;
    const started = this.#o.now();
    const task: RunningTask = { profile: home.profile, job_id: jobId, session_id: '', started_at: started / 1000 };
    let announce!: (sid: string | null) => void;
    const sessionKnown = new Promise<string | null>((resolve) => (announce = resolve));
    const done = this.#run(home, store, job, task, key, { rest, next }, (sid) => announce(sid)).finally(() => {
      announce(null);
      this.#inflight.delete(key);
    });
    this.#inflight.set(key, { task, done });
    return sessionKnown;
  }

  async #run(
    home: HermesHome,
    store: CronJobStore,
    job: CronJob,
    task: RunningTask,
    key: string,
    after: { rest: 'scheduled' | 'paused'; next: NextRunAt },
    announce: (sid: string) => void,
  ): Promise<void> {
    const { leases, owner, events, logger } = this.#o;
    let renewing = true;
    const renew = () => {
      if (!renewing) return;
      void leases
        .renew(key, owner, this.#ttl)
        .then((held) => {
          if (!held) logger.error({ msg: 'lost the lease of a running task', profile: home.profile, job_id: job.id });
        })
        .catch(() => {})
        .finally(() => {
          if (renewing) handle = this.#o.timer.set(renew, this.#ttl / 3);
        });
    };
    let handle: unknown = this.#o.timer.set(renew, this.#ttl / 3);
    let outcome: TaskOutcome;
    try {
      outcome = await this.#o.runTask(home, store, job, (sid) => {
        task.session_id = sid;
        announce(sid);
        events.emit({ type: 'sessions_changed', reason: 'cron_started', session_id: sid, profile: home.profile });
      });
    } catch (err) {
      logger.error({ msg: 'task run failed', profile: home.profile, job_id: job.id, error: String((err as Error)?.stack ?? err) });
      outcome = { session_id: task.session_id || null, ok: false, error: String((err as Error)?.message ?? err), output_file: null };
    }
    try {
      await store.mutate(job.id, (j) => markFinished(j, outcome, new Date(this.#o.now()), after.next, after.rest));
    } catch (err) {
      logger.error({ msg: 'could not record a task run', profile: home.profile, job_id: job.id, error: String(err) });
    } finally {
      renewing = false;
      this.#o.timer.clear(handle);
      await leases.release(key, owner).catch(() => {});
    }
    events.emit({
      type: 'task_finished',
      profile: home.profile,
      job_id: job.id,
      job_name: job.name,
      session_id: outcome.session_id,
      status: outcome.ok ? 'ok' : 'error',
      output_file: outcome.output_file,
      finished_at: this.#o.now() / 1000,
    });
    events.emit({
      type: 'sessions_changed',
      reason: 'cron_complete',
      ...(outcome.session_id ? { session_id: outcome.session_id } : {}),
      profile: home.profile,
    });
    // The job's next slot may be sooner than the next tick.
    this.#arm(0);
  }
}
