import type { Context } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { requestHome } from '../http/request-home.js';
import { NotFound } from '../ports/errors.js';
import type { HermesHome } from '../ports/hermes-home.js';
import type { CronJob, ProfileTasks } from '../domain/cron/types.js';
import { validJobId } from '../domain/cron/job-edit.js';
import { describeSchedule } from '../domain/cron/schedule.js';

/** `job_id` as the incumbent checks it: one safe path component. */
export const JobId = z.string({ error: 'job_id required' }).trim().min(1, 'job_id required').refine(validJobId, 'invalid job_id');

/** The request's profile and its tasks; 404 where this server has no scheduled tasks. */
export async function profileTasks(c: Context, deps: AppDeps): Promise<{ home: HermesHome; tasks: ProfileTasks }> {
  if (!deps.cron) throw new NotFound('Scheduled tasks are not available on this server');
  const home = await requestHome(c, deps);
  return { home, tasks: await deps.cron.forHome(home) };
}

/**
 * A job as the incumbent answers it (`profile` null when unset, `toast_notifications` true
 * unless muted) with the schedule in words besides Hermes' fields.
 */
export function jobForApi(job: CronJob): Record<string, unknown> {
  return {
    ...job,
    profile: job.profile ?? null,
    toast_notifications: job.toast_notifications !== false,
    schedule_text: describeSchedule(job.schedule),
  };
}

/** Seconds since `startedAt` (ms), one decimal, as the incumbent's `elapsed`. */
export const elapsedSince = (startedAt: number, now: number) => Math.round(Math.max(0, now - startedAt) / 100) / 10;

/** Why nothing here can start a run, in words for the panel. */
export function noRunnerReason(tasks: ProfileTasks): string {
  if (tasks.kind === 'gateway') return "Hermes' gateway runs this profile's jobs; it offers no way to start one from here (run `hermes cron run <job_id>`)";
  return "No scheduler runs jobs on this server; Hermes' gateway runs them when it is running";
}
