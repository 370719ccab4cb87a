import type { CronJob, CronJobInput, CronJobStore, CronRunOutput } from '../../src/domain/cron/types.js';
import type { HermesHome } from '../../src/ports/hermes-home.js';

/**
 * A Map-backed CronJobStore for the scheduler's unit tests: jobs are put in whole (the real
 * store, HermesCronJobs, parses schedules; the end-to-end test uses it). `shared` lets two
 * schedulers see one profile's jobs, as two servers on one state dir do.
 */
export class MapCronJobStore implements CronJobStore {
  readonly outputs: CronRunOutput[] = [];
  constructor(
    readonly home: HermesHome,
    readonly jobs: Map<string, CronJob> = new Map(),
  ) {}

  put(job: Partial<CronJob> & Pick<CronJob, 'id' | 'schedule'>): CronJob {
    const full: CronJob = {
      name: job.id,
      prompt: 'do it',
      skills: [],
      model: null,
      provider: null,
      deliver: 'local',
      repeat: { times: null, completed: 0 },
      state: 'scheduled',
      enabled: true,
      next_run_at: null,
      last_run_at: null,
      last_status: null,
      created_at: '2026-01-01T00:00:00Z',
      ...job,
    };
    this.jobs.set(full.id, full);
    return full;
  }

  async list(): Promise<CronJob[]> {
    return [...this.jobs.values()].map((j) => structuredClone(j));
  }
  async get(id: string): Promise<CronJob | null> {
    const j = this.jobs.get(id);
    return j ? structuredClone(j) : null;
  }
  async create(_input: CronJobInput): Promise<CronJob> {
    throw new Error('not used by the scheduler');
  }
  async update(id: string, patch: Record<string, unknown>): Promise<CronJob | null> {
    return this.mutate(id, (j) => Object.assign(j, patch));
  }
  async remove(id: string): Promise<boolean> {
    return this.jobs.delete(id);
  }
  async pause(id: string): Promise<CronJob | null> {
    return this.mutate(id, (j) => {
      j.state = 'paused';
      j.enabled = false;
    });
  }
  async resume(id: string): Promise<CronJob | null> {
    return this.mutate(id, (j) => {
      j.state = 'scheduled';
      j.enabled = true;
    });
  }
  async mutate(id: string, change: (job: CronJob) => void): Promise<CronJob | null> {
    const j = this.jobs.get(id);
    if (!j) return null;
    change(j);
    return structuredClone(j);
  }
  async writeOutput(output: Omit<CronRunOutput, 'filename' | 'content'>): Promise<CronRunOutput> {
    const full = { ...output, filename: `${this.outputs.length}.md`, content: output.response };
    this.outputs.push(full);
    return full;
  }
  async listOutputs(jobId: string): Promise<CronRunOutput[]> {
    return this.outputs.filter((o) => o.job_id === jobId).reverse();
  }
  async readOutput(jobId: string, filename: string): Promise<CronRunOutput | null> {
    return this.outputs.find((o) => o.job_id === jobId && o.filename === filename) ?? null;
  }
}
