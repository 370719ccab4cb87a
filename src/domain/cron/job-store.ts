import { BadRequest } from '../../ports/errors.js';
import type { HermesHome } from '../../ports/hermes-home.js';
import { KeyedMutex } from '../../shared/keyed-mutex.js';
import { configModel } from '../profiles.js';
import type { CronJob, CronJobInput, CronJobStore, CronRunOutput } from './types.js';
import { type EditContext, newJob, pauseFields, resumeFields, updatedJob, validJobId } from './job-edit.js';
import { type JobsDocument, parseJobsFile, readableJob, scheduleDisplay, serializeJobsFile } from './jobs-file.js';
import { OUTPUT_FILENAME, outputFilename, parseOutput, renderOutput } from './output-file.js';
import { isoInZone, profileTimeZone } from './time-zone.js';

export interface CronStoreOptions {
  now: () => number;
  /** A new job's id (Hermes: 12 hex characters of a uuid4). */
  newId?: () => string;
}

const hermesId = () => crypto.randomUUID().replace(/-/g, '').slice(0, 12);

/**
 * One profile's scheduled tasks in its Hermes home: `cron/jobs.json` and `cron/output/`.
 * Every change re-reads the file under one lock per file (Hermes' CLI may have written it
 * meanwhile), changes only the records it means to and replaces the file atomically.
 */
export class HermesCronJobs implements CronJobStore {
  readonly #locks = new KeyedMutex();
  readonly #now: () => number;
  readonly #newId: () => string;
  readonly jobsPath: string;
  readonly outputRoot: string;

  constructor(
    readonly home: HermesHome,
    options: CronStoreOptions,
  ) {
    this.#now = options.now;
    this.#newId = options.newId ?? hermesId;
    this.jobsPath = `${home.root}/cron/jobs.json`;
    this.outputRoot = `${home.root}/cron/output`;
  }

  async #context(): Promise<EditContext> {
    const [timeZone, files] = await Promise.all([profileTimeZone(this.home), this.home.config.readFiles()]);
    return { now: new Date(this.#now()), timeZone, defaults: configModel(files.configYaml) };
  }

  async #read(): Promise<JobsDocument> {
    return parseJobsFile(await this.home.files.readText(this.jobsPath));
  }

  /** Read, change and write jobs.json under the lock; nothing is written when `change` throws. */
  async #edit<T>(change: (doc: JobsDocument, ctx: EditContext) => T): Promise<T> {
    return this.#locks.run(this.jobsPath, async () => {
      const doc = await this.#read();
      const ctx = await this.#context();
      const result = change(doc, ctx);
      await this.home.files.writeText(this.jobsPath, serializeJobsFile(doc, isoInZone(ctx.now, ctx.timeZone)));
      return result;
    });
  }

  /** Edits one job; null (and no write) when there is no such job. */
  async #editJob(id: string, change: (job: Record<string, unknown>, ctx: EditContext) => Record<string, unknown>): Promise<CronJob | null> {
    if (!validJobId(id)) return null;
    return this.#locks.run(this.jobsPath, async () => {
      const doc = await this.#read();
      const index = doc.jobs.findIndex((j) => j.id === id);
      if (index === -1) return null;
      const ctx = await this.#context();
      const next = change(doc.jobs[index]!, ctx);
      doc.jobs[index] = next;
      await this.home.files.writeText(this.jobsPath, serializeJobsFile(doc, isoInZone(ctx.now, ctx.timeZone)));
      return readableJob(next);
    });
  }

  async list(options: { includeDisabled?: boolean } = {}): Promise<CronJob[]> {
    const jobs = (await this.#read()).jobs.map(readableJob);
    return options.includeDisabled === false ? jobs.filter((j) => j.enabled !== false) : jobs;
  }

  async get(id: string): Promise<CronJob | null> {
    if (!validJobId(id)) return null;
    const job = (await this.#read()).jobs.find((j) => j.id === id);
    return job ? readableJob(job) : null;
  }

  async create(input: CronJobInput): Promise<CronJob> {
    return this.#edit((doc, ctx) => {
      let id = this.#newId();
      while (doc.jobs.some((j) => j.id === id)) id = this.#newId();
      const job = newJob(input, ctx, id);
      doc.jobs.push(job);
      return readableJob(job);
    });
  }

  update(id: string, patch: Partial<CronJobInput> & Record<string, unknown>): Promise<CronJob | null> {
    return this.#editJob(id, (job, ctx) => updatedJob(job, patch, ctx));
  }

  async remove(id: string): Promise<boolean> {
    if (!validJobId(id)) return false;
    const removed = await this.#locks.run(this.jobsPath, async () => {
      const doc = await this.#read();
      const before = doc.jobs.length;
      doc.jobs = doc.jobs.filter((j) => j.id !== id);
      if (doc.jobs.length === before) return false;
      const ctx = await this.#context();
      await this.home.files.writeText(this.jobsPath, serializeJobsFile(doc, isoInZone(ctx.now, ctx.timeZone)));
      return true;
    });
    // Its run outputs go with it, as Hermes' remove_job does.
    if (removed) await this.home.files.remove(`${this.outputRoot}/${id}`);
    return removed;
  }

  pause(id: string, reason?: string | null): Promise<CronJob | null> {
    return this.#editJob(id, (job, ctx) => updatedJob(job, pauseFields(ctx, reason), ctx));
  }

  resume(id: string): Promise<CronJob | null> {
    return this.#editJob(id, (job, ctx) => updatedJob(job, resumeFields(job, ctx), ctx));
  }

  mutate(id: string, change: (job: CronJob) => void): Promise<CronJob | null> {
    return this.#editJob(id, (job) => {
      change(job as CronJob);
      return job;
    });
  }

  /** The profile's zone and clock, for callers that record runs (EditContext for recordRun). */
  context(): Promise<EditContext> {
    return this.#context();
  }

  async writeOutput(output: Omit<CronRunOutput, 'filename' | 'content'>): Promise<CronRunOutput> {
    if (!validJobId(output.job_id)) throw new BadRequest('invalid job_id');
    const [job, timeZone] = await Promise.all([this.get(output.job_id), profileTimeZone(this.home)]);
    const header = {
      job_name: job?.name ?? output.job_id,
      prompt: job?.prompt ?? '',
      schedule_display: job ? scheduleDisplay(job) : '?',
    };
    const content = renderOutput(output, header, timeZone);
    const dir = `${this.outputRoot}/${output.job_id}`;
    return this.#locks.run(dir, async () => {
      // Two runs finishing in one second keep both files (Hermes would overwrite the first).
      const base = outputFilename(new Date(output.run_at), timeZone).slice(0, -3);
      let filename = `${base}.md`;
      for (let n = 1; await this.home.files.stat(`${dir}/${filename}`); n++) filename = `${base}_${n}.md`;
      await this.home.files.writeText(`${dir}/${filename}`, content);
      return parseOutput(output.job_id, filename, content, timeZone, null);
    });
  }

  /** Output files newest first (by modification time, as the incumbent sorts), with their total. */
  async outputFiles(jobId: string): Promise<{ filename: string; size: number; mtime: number }[]> {
    if (!validJobId(jobId)) return [];
    const dir = `${this.outputRoot}/${jobId}`;
    const entries = (await this.home.files.list(dir)).filter((e) => e.kind === 'file' && e.name.endsWith('.md'));
    const rows = await Promise.all(
      entries.map(async (e) => {
        const st = await this.home.files.stat(`${dir}/${e.name}`);
        return st ? { filename: e.name, size: st.size, mtime: st.mtime } : null;
      }),
    );
    return rows.filter((r) => r !== null).sort((a, b) => b.mtime - a.mtime || b.filename.localeCompare(a.filename));
  }

  async listOutputs(jobId: string, options: { limit?: number; offset?: number } = {}): Promise<CronRunOutput[]> {
    const offset = options.offset ?? 0;
    const page = (await this.outputFiles(jobId)).slice(offset, options.limit === undefined ? undefined : offset + options.limit);
    const timeZone = await profileTimeZone(this.home);
    const runs = await Promise.all(page.map((f) => this.#readOutput(jobId, f.filename, timeZone, f.mtime)));
    return runs.filter((r) => r !== null);
  }

  async readOutput(jobId: string, filename: string): Promise<CronRunOutput | null> {
    if (!validJobId(jobId) || !OUTPUT_FILENAME.test(filename) || filename.includes('..')) return null;
    const st = await this.home.files.stat(`${this.outputRoot}/${jobId}/${filename}`);
    if (st?.kind !== 'file') return null;
    return this.#readOutput(jobId, filename, await profileTimeZone(this.home), st.mtime);
  }

  async #readOutput(jobId: string, filename: string, timeZone: string, mtime: number): Promise<CronRunOutput | null> {
    const text = await this.home.files.readText(`${this.outputRoot}/${jobId}/${filename}`).catch(() => null);
    return text === null ? null : parseOutput(jobId, filename, text, timeZone, mtime);
  }
}
