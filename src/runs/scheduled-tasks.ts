import { nextRunAt } from '../domain/cron/schedule.js';
import { isoInZone, profileTimeZone } from '../domain/cron/time-zone.js';
import type { CronJobStore, CronService, ProfileTasks, TaskScheduler } from '../domain/cron/types.js';
import type { HermesHome } from '../ports/hermes-home.js';
import type { NextRunAt } from './task-job-state.js';

/**
 * The profile's schedule arithmetic for the scheduler: next runs in the profile's time zone,
 * stored as Hermes stores them (ISO with that zone's offset).
 */
export async function profileNextRunAt(home: HermesHome): Promise<NextRunAt> {
  const zone = await profileTimeZone(home);
  return (schedule, after) => {
    const at = nextRunAt(schedule, after, zone);
    return at ? isoInZone(at, zone) : null;
  };
}

/**
 * deps.cron on Node: each profile's jobs, and who runs them — this server's scheduler (`webui`),
 * Hermes' gateway when it answers chat turns (its own ticker runs the jobs, so this server does
 * not: no double runs), or nobody (`HERMES_WEBUI_SCHEDULER=off`).
 */
export class ScheduledTasks implements CronService {
  constructor(
    private readonly storeFor: (home: HermesHome) => CronJobStore,
    readonly scheduler: TaskScheduler | null,
    /** True while the chat backend is a Hermes gateway. */
    private readonly gatewayRuns: () => Promise<boolean>,
  ) {}

  async forHome(home: HermesHome): Promise<ProfileTasks> {
    const jobs = this.storeFor(home);
    if (!this.scheduler) return { kind: 'none', via: 'files', jobs, runner: null };
    if (await this.gatewayRuns()) return { kind: 'gateway', via: 'files', jobs, runner: null };
    return { kind: 'webui', via: 'files', jobs, runner: this.scheduler.runnerFor(home) };
  }
}
