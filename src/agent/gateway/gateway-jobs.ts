import type { CronJob, CronJobInput, CronJobStore, CronRunOutput, JobRunner, RunningTask } from '../../domain/cron/types.js';
import type { HermesHome } from '../../ports/hermes-home.js';
import { AppError, BadRequest, NotAvailable, NotFound } from '../../ports/errors.js';
import { ProviderError } from '../providers/types.js';
import { DETECT_TIMEOUT_MS, type GatewayHttp } from './http.js';

/**
 * Hermes' cron jobs through its API server (`gateway/platforms/api_server.py`): `GET/POST
 * /api/jobs`, `GET/PATCH/DELETE /api/jobs/{id}`, `POST /api/jobs/{id}/pause|resume|run`, answers
 * `{jobs}` / `{job}` / `{ok}` and `{error}`. The gateway's own ticker runs the jobs, so nothing
 * here schedules. The API has no run outputs: those come from `outputs` (Hermes writes them
 * under the same home's cron/output) when given, else there are none.
 */

/** Hermes' job ids (`uuid4().hex[:12]`); the API refuses any other form with a 400. */
const JOB_ID = /^[a-f0-9]{12}$/;
/** The fields Hermes' PATCH accepts (its whitelist); the rest of a patch cannot go through the API. */
const PATCHABLE = ['name', 'schedule', 'prompt', 'deliver', 'skills', 'skill', 'repeat', 'enabled'] as const;
const REQUEST_TIMEOUT_MS = 15_000;

/** The gateway failed on its side or is not there: a 502 the panel shows as it is. */
export class GatewayJobsUnavailable extends AppError {
  constructor(message: string) {
    super(502, message, { scheduler: 'gateway' });
  }
}

type Outputs = Pick<CronJobStore, 'listOutputs' | 'readOutput'>;

export class GatewayJobsApi {
  constructor(readonly http: GatewayHttp) {}

  /** One call; 404 with a job id is "Job not found", 400 the gateway's reason, the rest a 502. */
  async call(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
    let response: Response;
    try {
      response = await this.http.send(method, path, { ...(body !== undefined ? { body } : {}), timeoutMs: REQUEST_TIMEOUT_MS });
    } catch (err) {
      const why = err instanceof ProviderError ? `${err.message}. ${err.hint}` : String(err);
      throw new GatewayJobsUnavailable(`Hermes' gateway did not answer ${method} ${path}: ${why}`);
    }
    const text = await response.text().catch(() => '');
    let json: Record<string, unknown> = {};
    try {
      const parsed = JSON.parse(text) as unknown;
      if (parsed && typeof parsed === 'object') json = parsed as Record<string, unknown>;
    } catch {
      if (response.ok) throw new GatewayJobsUnavailable(`Hermes' gateway answered ${method} ${path} with something that is not JSON`);
    }
    if (response.ok) return json;
    const said = typeof json.error === 'string' && json.error ? json.error : `HTTP ${response.status}`;
    if (response.status === 404 && path !== '/api/jobs') throw new NotFound('Job not found');
    if (response.status === 400) throw new BadRequest(said);
    if (response.status === 401 || response.status === 403) {
      const failure = await this.http.failure(response, text, `${method} ${path}`);
      throw new GatewayJobsUnavailable(`${failure.message}. ${failure.hint}`);
    }
    throw new GatewayJobsUnavailable(`Hermes' gateway answered ${method} ${path} with ${said}`);
  }

  /**
   * Does this gateway offer the jobs API? Its capabilities document when it names jobs, else
   * `GET /api/jobs` itself: 404 (an older Hermes) or 501 (its cron module missing) is no.
   * Unreachable is no as well: the gateway's own ticker still runs jobs.json meanwhile.
   */
  async offersJobs(): Promise<boolean> {
    try {
      const caps = await this.http.send('GET', '/v1/capabilities', { timeoutMs: DETECT_TIMEOUT_MS });
      if (caps.ok) {
        const doc = (await caps.json().catch(() => null)) as Record<string, unknown> | null;
        if (mentionsJobs(doc)) return true;
      } else await caps.body?.cancel().catch(() => {});
      const list = await this.http.send('GET', '/api/jobs', { timeoutMs: DETECT_TIMEOUT_MS });
      await list.body?.cancel().catch(() => {});
      // 401/403: the API is there, the key is wrong; using it surfaces that instead of editing files behind its back.
      return list.ok || list.status === 401 || list.status === 403;
    } catch {
      return false;
    }
  }
}

function mentionsJobs(doc: Record<string, unknown> | null): boolean {
  if (!doc) return false;
  const keys = (v: unknown) => (v && typeof v === 'object' ? Object.entries(v as Record<string, unknown>) : []);
  const named = (k: string) => /(^|_)(jobs?|cron)(_|$)/.test(k);
  return keys(doc.features).some(([k, v]) => named(k) && v === true) || keys(doc.endpoints).some(([k, v]) => named(k) || String(v).startsWith('/api/jobs'));
}

const jobOf = (body: Record<string, unknown>): CronJob => {
  const job = body.job;
  if (!job || typeof job !== 'object') throw new GatewayJobsUnavailable("Hermes' gateway answered without the job");
  return job as CronJob;
};

/** Null for a 404, so the store's "null when missing" contract holds. */
async function orNull<T>(work: Promise<T>): Promise<T | null> {
  try {
    return await work;
  } catch (err) {
    if (err instanceof NotFound) return null;
    throw err;
  }
}

function patchBody(patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of PATCHABLE) {
    const v = patch[key];
    // Hermes wants a positive repeat or none; null (forever) is simply not sent.
    if (v === undefined || (key === 'repeat' && v === null)) continue;
    out[key] = v;
  }
  return out;
}

/** One profile's jobs as the gateway keeps them (CronJobStore over its API). */
export class GatewayCronJobs implements CronJobStore {
  constructor(
    readonly home: HermesHome,
    private readonly api: GatewayJobsApi,
    private readonly outputs: Outputs | null = null,
  ) {}

  async list(options: { includeDisabled?: boolean } = {}): Promise<CronJob[]> {
    const body = await this.api.call('GET', `/api/jobs${options.includeDisabled ? '?include_disabled=true' : ''}`);
    return Array.isArray(body.jobs) ? (body.jobs as CronJob[]) : [];
  }

  async get(id: string): Promise<CronJob | null> {
    if (!JOB_ID.test(id)) return null;
    return orNull(this.api.call('GET', `/api/jobs/${id}`).then(jobOf));
  }

  async create(input: CronJobInput): Promise<CronJob> {
    // Hermes' API requires a name; its own create_job names a job after its prompt's start.
    const name = input.name?.trim() || input.prompt.trim().slice(0, 50) || 'Task';
    const body: Record<string, unknown> = { name, schedule: input.schedule, prompt: input.prompt, deliver: input.deliver || 'local' };
    if (input.skills?.length) body.skills = input.skills;
    if (typeof input.repeat === 'number') body.repeat = input.repeat;
    return jobOf(await this.api.call('POST', '/api/jobs', body));
  }

  async update(id: string, patch: Partial<CronJobInput> & Record<string, unknown>): Promise<CronJob | null> {
    if (!JOB_ID.test(id)) return null;
    const body = patchBody(patch);
    // Nothing the API can change (model, provider…): the job as it is, or a clear refusal.
    if (!Object.keys(body).length) {
      const job = await this.get(id);
      const changed = job ? Object.keys(patch).filter((k) => patch[k] !== undefined && JSON.stringify(patch[k]) !== JSON.stringify(job[k])) : [];
      if (changed.length) throw new BadRequest(`Hermes' gateway jobs API cannot change ${changed.join(', ')}`);
      return job;
    }
    return orNull(this.api.call('PATCH', `/api/jobs/${id}`, body).then(jobOf));
  }

  async remove(id: string): Promise<boolean> {
    if (!JOB_ID.test(id)) return false;
    return (await orNull(this.api.call('DELETE', `/api/jobs/${id}`))) !== null;
  }

  async pause(id: string): Promise<CronJob | null> {
    if (!JOB_ID.test(id)) return null;
    return orNull(this.api.call('POST', `/api/jobs/${id}/pause`, {}).then(jobOf));
  }

  async resume(id: string): Promise<CronJob | null> {
    if (!JOB_ID.test(id)) return null;
    return orNull(this.api.call('POST', `/api/jobs/${id}/resume`, {}).then(jobOf));
  }

  /** The change applied to a copy; what differs in the fields the API takes is PATCHed. */
  async mutate(id: string, change: (job: CronJob) => void): Promise<CronJob | null> {
    const job = await this.get(id);
    if (!job) return null;
    const next = structuredClone(job);
    change(next);
    const diff: Record<string, unknown> = {};
    for (const key of PATCHABLE) if (JSON.stringify(next[key]) !== JSON.stringify(job[key])) diff[key] = next[key];
    if (!Object.keys(diff).length) return job;
    return orNull(this.api.call('PATCH', `/api/jobs/${id}`, diff).then(jobOf));
  }

  async writeOutput(): Promise<CronRunOutput> {
    throw new NotAvailable("Hermes' gateway writes its jobs' outputs itself");
  }

  async listOutputs(jobId: string, options?: { limit?: number; offset?: number }): Promise<CronRunOutput[]> {
    return this.outputs ? this.outputs.listOutputs(jobId, options) : [];
  }

  async readOutput(jobId: string, filename: string): Promise<CronRunOutput | null> {
    return this.outputs ? this.outputs.readOutput(jobId, filename) : null;
  }
}

/** "Run now" through the gateway; its runs are not tracked here (the API does not say). */
export class GatewayJobRunner implements JobRunner {
  constructor(private readonly api: GatewayJobsApi) {}

  async runNow(jobId: string): Promise<{ ok: true; session_id: string | null }> {
    if (!JOB_ID.test(jobId)) throw new NotFound('Job not found');
    await this.api.call('POST', `/api/jobs/${jobId}/run`, {});
    return { ok: true, session_id: null };
  }

  running(): RunningTask[] {
    return [];
  }
}
