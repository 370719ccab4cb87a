import type { HermesHome } from '../../ports/hermes-home.js';

/**
 * Scheduled tasks as Hermes keeps them: `<profile home>/cron/jobs.json` (`{"jobs":[…]}`) and
 * `cron/output/<job_id>/<timestamp>.md`. The forms follow Hermes' cron/jobs.py; every field we
 * do not know is kept as it was (the index signature).
 */

/** How Hermes stores a parsed schedule (`display` is what `hermes cron list` shows). */
export type CronSchedule =
  | { kind: 'once'; run_at: string; display: string; [key: string]: unknown }
  | { kind: 'interval'; minutes: number; display: string; [key: string]: unknown }
  | { kind: 'cron'; expr: string; display: string; [key: string]: unknown };

export type CronJobState = 'scheduled' | 'paused' | 'completed' | 'running' | (string & {});

/** One job record in jobs.json. */
export interface CronJob {
  id: string;
  name: string;
  prompt: string;
  schedule: CronSchedule;
  schedule_display?: string;
  skills: string[];
  model: string | null;
  provider: string | null;
  deliver: string;
  repeat: { times: number | null; completed: number };
  state: CronJobState;
  enabled: boolean;
  next_run_at: string | null;
  last_run_at: string | null;
  last_status: string | null;
  last_error?: string | null;
  created_at: string;
  [key: string]: unknown;
}

/** What a user gives to create or edit a job (POST /api/crons/create|update). */
export interface CronJobInput {
  prompt: string;
  /** As typed: `30m`, `every 2h`, `0 9 * * *`, an ISO time. */
  schedule: string;
  name?: string | null;
  deliver?: string | null;
  skills?: string[];
  model?: string | null;
  provider?: string | null;
  repeat?: number | null;
  [key: string]: unknown;
}

/** One run's output file, parsed back. */
export interface CronRunOutput {
  job_id: string;
  /** The file's name under `cron/output/<job_id>/` (`2026-12-01_09-00-00.md`). */
  filename: string;
  /** When the run finished, ISO. */
  run_at: string;
  status: 'ok' | 'error' | (string & {});
  model: string | null;
  provider: string | null;
  input_tokens: number | null;
  output_tokens: number | null;
  cost: number | null;
  duration_seconds: number | null;
  /** The session the run was (ours: its session id; null for runs Hermes made). */
  session_id: string | null;
  /** The agent's answer (the markdown after the header), or the error. */
  response: string;
  /** The whole file as written. */
  content: string;
}

/**
 * One profile's jobs and run outputs. Writes go through one lock per file and replace
 * jobs.json atomically; a job's unknown fields survive every edit.
 */
export interface CronJobStore {
  readonly home: HermesHome;
  list(options?: { includeDisabled?: boolean }): Promise<CronJob[]>;
  get(id: string): Promise<CronJob | null>;
  /** BadRequest for a schedule Hermes would not parse (with the reason). */
  create(input: CronJobInput): Promise<CronJob>;
  /** Null when there is no such job. A changed schedule recomputes `next_run_at`. */
  update(id: string, patch: Partial<CronJobInput> & Record<string, unknown>): Promise<CronJob | null>;
  remove(id: string): Promise<boolean>;
  pause(id: string, reason?: string | null): Promise<CronJob | null>;
  resume(id: string): Promise<CronJob | null>;
  /** Changes one job under the lock (the scheduler's state updates); null when it is gone. */
  mutate(id: string, change: (job: CronJob) => void): Promise<CronJob | null>;
  writeOutput(output: Omit<CronRunOutput, 'filename' | 'content'>): Promise<CronRunOutput>;
  /** Newest first. */
  listOutputs(jobId: string, options?: { limit?: number; offset?: number }): Promise<CronRunOutput[]>;
  readOutput(jobId: string, filename: string): Promise<CronRunOutput | null>;
  /** The output files' names, sizes and mtimes (epoch seconds), newest first, without reading them. */
  outputFiles?(jobId: string): Promise<{ filename: string; size: number; mtime: number }[]>;
}

/**
 * Who runs the jobs: this server's scheduler (the built-in agent), Hermes' gateway (the chat
 * backend is a gateway: its own ticker runs them), or nobody (no scheduler here: Workers, or
 * HERMES_WEBUI_SCHEDULER=off).
 */
export type SchedulerKind = 'webui' | 'gateway' | 'none';

/** A run of a job in progress on this server. */
export interface RunningTask {
  profile: string;
  job_id: string;
  session_id: string;
  /** Epoch milliseconds. */
  started_at: number;
}

/** Starts a job's run now and says which runs are in progress (one profile's). */
export interface JobRunner {
  /** Runs the job now, whatever its schedule; `already_running` when a run of it is in progress. */
  runNow(jobId: string): Promise<{ ok: true; session_id: string | null } | { ok: false; already_running: true }>;
  running(jobId?: string): RunningTask[];
}

/** This server's scheduler: ticks, takes a lease per run, runs due jobs as built-in agent turns. */
export interface TaskScheduler {
  start(): void;
  /** Stops ticking and waits (at most `timeoutMs`) for runs in progress. */
  stop(timeoutMs?: number): Promise<void>;
  /** The profile's runner (run now, running). */
  runnerFor(home: HermesHome): JobRunner;
  /** One tick now (tests drive it with an injected clock). */
  tick(): Promise<void>;
  /** Jobs were created or changed here: look at them at once rather than at the next tick. */
  wake(): void;
}

/** One profile's tasks as the routes see them: the jobs, and who runs them. */
export interface ProfileTasks {
  kind: SchedulerKind;
  /** `api`: the gateway's jobs API answers; `files`: cron/jobs.json is edited here. */
  via: 'api' | 'files';
  jobs: CronJobStore;
  /** Null where nothing here can start a run (kind `none`, or a gateway without a jobs API). */
  runner: JobRunner | null;
}

/** What the crons routes need: the request's profile's tasks. */
export interface CronService {
  forHome(home: HermesHome): Promise<ProfileTasks>;
  /** This server's scheduler, started and stopped by the entry file; null where there is none. */
  scheduler: TaskScheduler | null;
}
