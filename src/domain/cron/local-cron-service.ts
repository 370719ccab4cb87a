import type { HermesHome } from '../../ports/hermes-home.js';
import type { CronService, ProfileTasks, TaskScheduler } from './types.js';
import { HermesCronJobs } from './job-store.js';

/**
 * The CronService over each profile's own cron/jobs.json: one store per home (so its lock is
 * the only writer here), run by `scheduler` when there is one, else by nobody (`kind: none`).
 */
export class LocalCronService implements CronService {
  readonly #stores = new Map<string, HermesCronJobs>();

  constructor(
    private readonly options: { now: () => number; newId?: () => string },
    readonly scheduler: TaskScheduler | null = null,
  ) {}

  /** The store for a home (the same object for the same home). */
  storeFor(home: HermesHome): HermesCronJobs {
    let store = this.#stores.get(home.root);
    if (!store) this.#stores.set(home.root, (store = new HermesCronJobs(home, this.options)));
    return store;
  }

  async forHome(home: HermesHome): Promise<ProfileTasks> {
    const jobs = this.storeFor(home);
    if (!this.scheduler) return { kind: 'none', via: 'files', jobs, runner: null };
    return { kind: 'webui', via: 'files', jobs, runner: this.scheduler.runnerFor(home) };
  }
}
