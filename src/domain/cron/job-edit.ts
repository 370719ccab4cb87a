import { BadRequest } from '../../ports/errors.js';
import type { CronJob, CronJobInput, CronSchedule } from './types.js';
import { assertSchedulable, nextRunAt, parseSchedule, parseStoredTime } from './schedule.js';
import { normalizeSkills } from './jobs-file.js';
import { isoInZone } from './time-zone.js';

/**
 * Hermes' rules for making and changing a job record (cron/jobs.py create_job, update_job,
 * pause/resume, mark_job_run), re-expressed over plain records.
 */

export const EMPTY_PAYLOAD_ERROR =
  'Cron job has nothing to run: the prompt is blank and no script or skill(s) are set. Provide a prompt, a script, or at least one skill.';

/** One path component under cron/output (Hermes refuses separators, `.` and `..`). */
export const JOB_ID = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,63}$/;
export const validJobId = (id: string) => JOB_ID.test(id) && id !== '.' && id !== '..';

export interface EditContext {
  now: Date;
  timeZone: string;
  /** The model and provider config.yaml would run an unpinned job on (Hermes snapshots them). */
  defaults?: { model: string | null; provider: string | null };
}

/** `forever`/`once`/numbers → times (null = forever); 0 or less is forever. */
export function normalizeRepeat(repeat: unknown): number | null {
  if (repeat == null) return null;
  let n: number;
  if (typeof repeat === 'string') {
    const s = repeat.trim().toLowerCase();
    if (['forever', 'infinite', 'inf', 'none', ''].includes(s)) return null;
    if (['once', 'one', '1x'].includes(s)) return 1;
    n = Number(s);
    if (!Number.isInteger(n)) throw new BadRequest(`Invalid repeat value '${repeat}': use an integer, 'forever', or 'once'.`);
  } else if (typeof repeat === 'number' && Number.isInteger(repeat)) n = repeat;
  else throw new BadRequest(`Invalid repeat value ${JSON.stringify(repeat)}: use an integer, 'forever', or 'once'.`);
  return n <= 0 ? null : n;
}

const optionalText = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);

function nextIso(schedule: CronSchedule, ctx: EditContext): string | null {
  const next = nextRunAt(schedule, ctx.now, ctx.timeZone);
  return next ? isoInZone(next, ctx.timeZone) : null;
}

/** A new record with Hermes' fields, defaults and id (12 hex characters). */
export function newJob(input: CronJobInput, ctx: EditContext, id: string): CronJob {
  const schedule = parseSchedule(String(input.schedule ?? ''), ctx.now, ctx.timeZone);
  let repeat = normalizeRepeat(input.repeat);
  if (schedule.kind === 'once' && repeat === null) repeat = 1;
  const prompt = String(input.prompt ?? '').trim();
  const skills = normalizeSkills(input.skill, input.skills);
  if (!prompt && !skills.length) throw new BadRequest(EMPTY_PAYLOAD_ERROR);
  assertSchedulable(schedule, ctx.now, ctx.timeZone);
  const model = optionalText(input.model);
  const provider = optionalText(input.provider);
  const now = isoInZone(ctx.now, ctx.timeZone);
  return {
    id,
    name: optionalText(input.name) ?? (prompt || skills[0] || 'cron job').slice(0, 50).trim(),
    prompt,
    skills,
    skill: skills[0] ?? null,
    model,
    provider,
    provider_snapshot: provider ? null : (ctx.defaults?.provider ?? null),
    model_snapshot: model ? null : (ctx.defaults?.model ?? null),
    base_url: null,
    script: null,
    no_agent: false,
    monitor_script: null,
    monitor_url: null,
    monitor_state: null,
    context_from: null,
    schedule,
    schedule_display: schedule.display,
    repeat: { times: repeat, completed: 0 },
    enabled: true,
    state: 'scheduled',
    paused_at: null,
    paused_reason: null,
    created_at: now,
    next_run_at: nextIso(schedule, ctx),
    last_run_at: null,
    last_status: null,
    last_error: null,
    last_delivery_error: null,
    last_delivery_unverified: null,
    failure_streak: 0,
    deliver: optionalText(input.deliver) ?? 'local',
    origin: null,
    enabled_toolsets: null,
    workdir: null,
  };
}

const isTerminal = (job: Record<string, unknown>) => job.state === 'completed' || job.state === 'error';
const recoverableError = (job: Record<string, unknown>) =>
  job.state === 'error' && ['cron', 'interval'].includes(String((job.schedule as CronSchedule | undefined)?.kind));

const PAYLOAD_FIELDS = ['prompt', 'script', 'skill', 'skills', 'no_agent'];

/**
 * The record after `updates` (Hermes' update_job): a string schedule is parsed and moves
 * `next_run_at` (unless paused), a kind change re-derives `repeat`, skills stay aligned, `id`
 * cannot change, a completed job cannot be reactivated here, and an enabled job always has a
 * next run. Keys not named in `updates` are kept as they were.
 */
export function updatedJob(job: Record<string, unknown>, input: Record<string, unknown>, ctx: EditContext): Record<string, unknown> {
  if ('id' in input) throw new BadRequest('Cron job field(s) cannot be updated: id');
  const updates: Record<string, unknown> = { ...input };
  if (typeof updates.schedule === 'string') updates.schedule = parseSchedule(updates.schedule, ctx.now, ctx.timeZone);
  const oldKind = (job.schedule as CronSchedule | undefined)?.kind;
  const newSchedule = updates.schedule as CronSchedule | undefined;
  const completed = Number((job.repeat as { completed?: unknown } | undefined)?.completed ?? 0) || 0;
  if ('repeat' in updates) {
    const r = updates.repeat;
    updates.repeat =
      r && typeof r === 'object' && !Array.isArray(r)
        ? { completed, ...(r as object), times: normalizeRepeat((r as { times?: unknown }).times) }
        : { times: normalizeRepeat(r), completed };
  } else if (newSchedule && newSchedule.kind !== oldKind) {
    const repeat = { completed: 0, ...((job.repeat as object) ?? {}) } as { times?: number | null; completed: number };
    if (newSchedule.kind === 'once' && repeat.times == null) updates.repeat = { ...repeat, times: 1 };
    else if (newSchedule.kind !== 'once' && oldKind === 'once' && repeat.times === 1) updates.repeat = { ...repeat, times: null };
  }
  for (const key of ['model', 'provider'] as const) if (key in updates) updates[key] = optionalText(updates[key]);
  const merged: Record<string, unknown> = { ...job, ...updates };
  const skills = normalizeSkills(merged.skill, merged.skills);
  merged.skills = skills;
  merged.skill = skills[0] ?? null;
  const rejectActivation = () => {
    if (isTerminal(job) && !recoverableError(job) && (!isTerminal(merged) || merged.enabled === true || merged.next_run_at != null)) {
      throw new BadRequest(`Cannot activate terminal cron job '${String(job.name ?? job.id)}' through update_job; use cron resume --run-now or --at.`);
    }
  };
  rejectActivation();
  if (PAYLOAD_FIELDS.some((k) => k in updates)) {
    const empty = !String(merged.prompt ?? '').trim() && !String(merged.script ?? '').trim() && !skills.length;
    if (empty) throw new BadRequest(EMPTY_PAYLOAD_ERROR);
  }
  if (newSchedule) {
    merged.schedule_display = typeof updates.schedule_display === 'string' ? updates.schedule_display : newSchedule.display;
    if (merged.state !== 'paused') {
      assertSchedulable(newSchedule, ctx.now, ctx.timeZone);
      merged.next_run_at = nextIso(newSchedule, ctx);
    }
  }
  if (['schedule', 'next_run_at', 'enabled', 'state'].some((k) => k in updates)) delete merged.pending_slot;
  if (merged.enabled !== false && merged.state !== 'paused' && !merged.next_run_at && merged.schedule) {
    const schedule = merged.schedule as CronSchedule;
    const next = nextIso(schedule, ctx);
    if (!next && schedule.kind === 'once') {
      throw new BadRequest(`Requested one-shot time ${String(schedule.run_at)} is in the past (grace window: 120s) and cannot be scheduled.`);
    }
    merged.next_run_at = next;
  }
  rejectActivation();
  return merged;
}

/** The fields pause sets (Hermes' pause_job). */
export function pauseFields(ctx: EditContext, reason: string | null | undefined): Record<string, unknown> {
  return { enabled: false, state: 'paused', paused_at: isoInZone(ctx.now, ctx.timeZone), paused_reason: reason ?? null };
}

/** The fields resume sets: the next run counted from now (Hermes' resume_job). */
export function resumeFields(job: Record<string, unknown>, ctx: EditContext): Record<string, unknown> {
  const schedule = job.schedule as CronSchedule;
  const next = schedule ? nextIso(schedule, ctx) : null;
  if (!next && schedule?.kind === 'once') {
    throw new BadRequest(`Cannot resume: one-shot time ${String(schedule.run_at)} is in the past (grace window: 120s) and will never fire.`);
  }
  return { enabled: true, state: 'scheduled', paused_at: null, paused_reason: null, next_run_at: next };
}

/**
 * A finished run written into the record (for the scheduler): last run and status, the repeat
 * count; a one-shot, or a job that reached `repeat.times`, completes; otherwise the next run
 * from now.
 */
export function recordRun(job: Record<string, unknown>, run: { ok: boolean; error?: string | null }, ctx: EditContext): void {
  const repeat = { times: null as number | null, completed: 0, ...((job.repeat as object) ?? {}) };
  repeat.completed = (Number(repeat.completed) || 0) + 1;
  job.repeat = repeat;
  job.last_run_at = isoInZone(ctx.now, ctx.timeZone);
  job.last_status = run.ok ? 'ok' : 'error';
  job.last_error = run.ok ? null : (run.error ?? 'error');
  job.failure_streak = run.ok ? 0 : (Number(job.failure_streak) || 0) + 1;
  delete job.manual_run_at;
  delete job.manual_run_prompt;
  const schedule = job.schedule as CronSchedule;
  if (schedule?.kind === 'once' || (repeat.times != null && repeat.completed >= repeat.times)) {
    job.enabled = false;
    job.state = 'completed';
    job.next_run_at = null;
    return;
  }
  const lastRun = parseStoredTime(job.last_run_at, ctx.timeZone);
  const next = schedule ? nextRunAt(schedule, ctx.now, ctx.timeZone, lastRun) : null;
  job.next_run_at = next ? isoInZone(next, ctx.timeZone) : null;
}
