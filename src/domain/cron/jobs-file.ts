import { Conflict } from '../../ports/errors.js';
import type { CronJob } from './types.js';

/**
 * `cron/jobs.json` as Hermes writes it: `{"jobs": [...], "updated_at": "<iso>"}`, json.dump with
 * indent=2 and ensure_ascii=False, no trailing newline. Other top-level keys and every unknown
 * job field are kept where they were. A bare list or an id-keyed map (older or hand-made files)
 * is read as Hermes reads it and written back in the canonical shape; anything else is refused,
 * and the file is never rewritten.
 */

export interface JobsDocument {
  /** The parsed top level (an object) with `jobs` replaced by the list below on write. */
  top: Record<string, unknown>;
  jobs: Record<string, unknown>[];
}

export const JOBS_FILE_PROBLEM = 'cron/jobs.json cannot be read';

function refuse(why: string): never {
  throw new Conflict(`${JOBS_FILE_PROBLEM} (${why}); it is left untouched — fix or remove it`, { jobs_file_problem: why });
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export function parseJobsFile(text: string | null): JobsDocument {
  if (text === null || !text.trim()) return { top: {}, jobs: [] };
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    refuse(`not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (Array.isArray(data)) return { top: {}, jobs: data.filter(isRecord) };
  if (!isRecord(data)) refuse(`expected {"jobs": [...]}, got ${data === null ? 'null' : typeof data}`);
  const jobs = data.jobs ?? [];
  if (Array.isArray(jobs)) {
    if (!jobs.every(isRecord)) refuse('an entry of "jobs" is not an object');
    return { top: data, jobs };
  }
  if (isRecord(jobs)) {
    // An id-keyed map (external tools): flattened, the inline id winning over the key.
    const list = Object.entries(jobs)
      .filter(([, v]) => isRecord(v))
      .map(([k, v]) => ({ ...(v as Record<string, unknown>), id: (v as Record<string, unknown>).id || k }));
    return { top: data, jobs: list };
  }
  refuse('"jobs" is neither a list nor a map');
}

export function serializeJobsFile(doc: JobsDocument, updatedAt: string): string {
  const top: Record<string, unknown> = { ...doc.top };
  // Key order as found; a new file gets Hermes' order (jobs, then updated_at).
  top.jobs = doc.jobs;
  top.updated_at = updatedAt;
  return JSON.stringify(top, null, 2);
}

const text = (v: unknown, fallback = '') => (v == null ? fallback : String(v));

/** Hermes' unique, ordered skill list from `skills` (list or string) or the legacy `skill`. */
export function normalizeSkills(skill: unknown, skills: unknown): string[] {
  const raw = skills == null ? (skill ? [skill] : []) : typeof skills === 'string' ? [skills] : Array.isArray(skills) ? skills : [];
  const out: string[] = [];
  for (const item of raw) {
    const s = text(item).trim();
    if (s && !out.includes(s)) out.push(s);
  }
  return out;
}

const paused = (job: Record<string, unknown>) => text(job.state).trim() === 'paused' || Boolean(job.paused_at);

/** The state to show, derived from `enabled` as Hermes does (an enabled job never shows paused). */
export function effectiveState(job: Record<string, unknown>): string {
  const stored = text(job.state).trim();
  if (stored === 'completed' || stored === 'error') return stored;
  if (job.enabled === false) return paused(job) || stored === 'paused' ? 'paused' : stored || 'paused';
  if (stored === 'paused' || job.paused_at) return 'scheduled';
  return stored || 'scheduled';
}

/** May the scheduler fire it: enabled, and no pause marker. */
export function isRunnable(job: Record<string, unknown>): boolean {
  return job.enabled !== false && !paused(job);
}

export function scheduleDisplay(job: Record<string, unknown>): string {
  const display = text(job.schedule_display).trim();
  if (display) return display;
  const s = job.schedule;
  if (isRecord(s)) {
    for (const key of ['display', 'value', 'expr', 'run_at']) {
      const v = text(s[key]).trim();
      if (v) return v;
    }
  } else if (s != null) return String(s);
  return '?';
}

/** A read-safe copy of a stored record (Hermes' _normalize_job_record); storage is untouched. */
export function readableJob(raw: Record<string, unknown>): CronJob {
  const job: Record<string, unknown> = { ...raw };
  const skills = normalizeSkills(job.skill, job.skills);
  job.skills = skills;
  job.skill = skills[0] ?? null;
  job.id = text(job.id, 'unknown');
  job.prompt = text(job.prompt);
  let name = text(job.name).trim();
  if (!name) {
    const source = (job.prompt as string) || skills[0] || text(job.script).trim() || (job.id as string) || 'cron job';
    name = source.slice(0, 50).trim() || 'cron job';
  }
  job.name = name;
  job.schedule_display = scheduleDisplay(job);
  job.state = effectiveState(job);
  return job as CronJob;
}
