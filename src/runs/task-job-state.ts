import type { CronJob, CronSchedule } from '../domain/cron/types.js';

/** The next run of a schedule strictly after `after` (ISO), or null when it will not run again (a past one-shot). */
export type NextRunAt = (schedule: CronSchedule, after: Date) => string | null;

/** Whether the scheduler should start the job now: enabled, scheduled, and its `next_run_at` has come. */
export function isDue(job: CronJob, nowMs: number): boolean {
  if (job.enabled === false) return false;
  if (job.state === 'paused' || job.state === 'completed' || job.state === 'running') return false;
  if (typeof job.next_run_at !== 'string' || !job.next_run_at) return false;
  const at = Date.parse(job.next_run_at);
  return Number.isFinite(at) && at <= nowMs;
}

/** When the job is next due (ms), for the timer; null when it is not waiting for a time. */
export function dueAt(job: CronJob): number | null {
  if (job.enabled === false || job.state === 'paused' || job.state === 'completed' || job.state === 'running') return null;
  const at = typeof job.next_run_at === 'string' ? Date.parse(job.next_run_at) : Number.NaN;
  return Number.isFinite(at) ? at : null;
}

const recurring = (job: CronJob) => job.schedule?.kind === 'cron' || job.schedule?.kind === 'interval';

/**
 * A run begins: the job is `running`, and a recurring job's `next_run_at` moves to the first
 * slot after now before the run starts (as Hermes advances it), so the slots missed while the
 * server was down become this one run and a crash mid-run never repeats it. A one-shot keeps its
 * time until it has run.
 */
export function markStarted(job: CronJob, now: Date, nextRunAt: NextRunAt): void {
  job.state = 'running';
  if (recurring(job)) job.next_run_at = nextRunAt(job.schedule, now);
}

/**
 * A run ended (Hermes' mark_job_run): last run and status, one more completed repeat; a job
 * whose repeats are used up, or a one-shot, is completed (disabled, no next run); otherwise the
 * next slot after the end. A pause during the run is kept.
 */
export function markFinished(
  job: CronJob,
  outcome: { ok: boolean; error: string | null },
  now: Date,
  nextRunAt: NextRunAt,
  /** What the job returns to: `paused` for a paused job run by hand. */
  rest: 'scheduled' | 'paused' = 'scheduled',
): void {
  job.last_run_at = now.toISOString();
  job.last_status = outcome.ok ? 'ok' : 'error';
  job.last_error = outcome.ok ? null : outcome.error;
  const repeat = job.repeat && typeof job.repeat === 'object' ? job.repeat : { times: null, completed: 0 };
  repeat.completed = (Number.isFinite(repeat.completed) ? repeat.completed : 0) + 1;
  job.repeat = repeat;
  const next = repeat.times != null && repeat.times > 0 && repeat.completed >= repeat.times ? null : recurring(job) ? nextRunAt(job.schedule, now) : null;
  job.next_run_at = next;
  if (next === null) {
    job.enabled = false;
    job.state = 'completed';
  } else if (job.state === 'running') job.state = rest;
}

/**
 * A run that no server finishes any more (one crashed mid-run, its lease expired): the job is
 * scheduled again with the error. A recurring job's next slot was set when the run began; a
 * one-shot keeps its time, so it runs once more (as Hermes lets one-shots retry after a crash).
 */
export function markAbandoned(job: CronJob, now: Date): void {
  job.state = 'scheduled';
  job.last_run_at = now.toISOString();
  job.last_status = 'error';
  job.last_error = 'The run was interrupted: the server stopped before it finished.';
}
