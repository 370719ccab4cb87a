import { q, request } from './client.js';
import type { CronJob } from '../../src/domain/cron/types.js';

export type { CronJob } from '../../src/domain/cron/types.js';

/** A job as GET /api/crons returns it: Hermes' record plus the schedule in words. */
export type CronJobRow = CronJob & { schedule_text?: string; toast_notifications?: boolean };

/** Who runs the profile's jobs (ours, beside the incumbent's fields). */
export interface CronScheduler {
  kind: 'webui' | 'gateway' | 'none';
  via: 'api' | 'files';
}

export interface CronList {
  jobs: CronJobRow[];
  scheduler?: CronScheduler;
  cron_unavailable?: boolean;
  active_profile?: string;
}

/** What a run's output file says about itself (the incumbent's `usage`). */
export interface RunUsage {
  model?: string;
  provider?: string;
  duration_seconds?: number;
  input_tokens?: number;
  output_tokens?: number;
  total_tokens?: number;
  estimated_cost_usd?: number;
}

/** One row of GET /api/crons/history: an output file (`modified` in epoch seconds). */
export interface CronRunRow {
  filename: string;
  size: number;
  modified: number;
  usage: RunUsage;
  status?: string;
  session_id?: string | null;
}

export interface CronRunDetail {
  job_id: string;
  filename: string;
  content: string;
  snippet: string;
  usage: RunUsage;
  status?: string;
  session_id?: string | null;
}

/** One completion of GET /api/crons/recent (`completed_at` in epoch seconds). */
export interface CronCompletion {
  job_id: string;
  name: string;
  status: string;
  completed_at: number;
  session_id?: string;
}

export interface SchedulePreview {
  ok: true;
  schedule: Record<string, unknown>;
  display: string;
  next_runs: string[];
}

/** The fields the form edits (POST /api/crons/create; update takes any subset plus job_id). */
export interface CronJobFields {
  prompt: string;
  schedule: string;
  name?: string | null;
  model?: string | null;
  skills?: string[];
  deliver?: string;
}

type Saved = { ok: true; job: CronJobRow };
/** POST /api/crons/run: started, or refused because a run of it is in progress. */
export type RunStarted = { ok: true; job_id: string; status: 'running' } | { ok: false; job_id: string; status: 'already_running'; elapsed?: number };

/** The Tasks panel's calls (the incumbent's /api/crons family), on the browser's profile. */
export const cronsApi = {
  list: () => request<CronList>('GET', '/api/crons'),
  preview: (schedule: string, signal?: AbortSignal) =>
    request<SchedulePreview>('GET', `/api/crons/preview?${q({ schedule })}`, undefined, signal ? { signal } : {}),
  deliveryOptions: () => request<{ platforms: Array<{ value: string; label: string }> }>('GET', '/api/crons/delivery-options').then((r) => r.platforms),
  history: (jobId: string, limit = 50) =>
    request<{ job_id: string; runs: CronRunRow[]; total: number }>('GET', `/api/crons/history?${q({ job_id: jobId, limit })}`),
  run: (jobId: string, filename: string) => request<CronRunDetail>('GET', `/api/crons/run?${q({ job_id: jobId, filename })}`),
  status: () => request<{ running: Record<string, number> }>('GET', '/api/crons/status').then((r) => r.running),
  recent: (since: number) => request<{ completions: CronCompletion[] }>('GET', `/api/crons/recent?${q({ since })}`).then((r) => r.completions),
  create: (fields: CronJobFields) => request<Saved>('POST', '/api/crons/create', fields).then((r) => r.job),
  update: (jobId: string, fields: Partial<CronJobFields>) => request<Saved>('POST', '/api/crons/update', { job_id: jobId, ...fields }).then((r) => r.job),
  remove: (jobId: string) => request<{ ok: true }>('POST', '/api/crons/delete', { job_id: jobId }),
  runNow: (jobId: string) => request<RunStarted>('POST', '/api/crons/run', { job_id: jobId }),
  pause: (jobId: string) => request<Saved>('POST', '/api/crons/pause', { job_id: jobId }).then((r) => r.job),
  resume: (jobId: string) => request<Saved>('POST', '/api/crons/resume', { job_id: jobId }).then((r) => r.job),
};
