import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { queryFlag, queryParams } from '../http/validate.js';
import { BadRequest, NotFound } from '../ports/errors.js';
import { OUTPUT_FILENAME, outputSnippet, outputUsage, outputWindow } from '../domain/cron/output-file.js';
import { assertSchedulable, describeSchedule, nextRuns, parseSchedule, parseStoredTime } from '../domain/cron/schedule.js';
import { isoInZone, profileTimeZone } from '../domain/cron/time-zone.js';
import { elapsedSince, JobId, jobForApi, profileTasks } from './crons-common.js';

/** A query number the incumbent reads leniently: a bad value is the default, a good one clamped. */
const lenientInt = (fallback: number, min: number, max: number) =>
  z
    .string()
    .optional()
    .transform((v) => {
      const n = v === undefined || v.trim() === '' ? Number.NaN : Number(v);
      return Number.isInteger(n) ? Math.max(min, Math.min(max, n)) : fallback;
    });

const ListQuery = z.object({ all_profiles: queryFlag });
const OutputQuery = z.object({ job_id: JobId, limit: lenientInt(5, 1, 500) });
const HistoryQuery = z.object({ job_id: JobId, limit: z.string().optional(), offset: z.string().optional() });
const RunQuery = z.object({
  job_id: z.string().optional(),
  filename: z.string().optional(),
});
const RecentQuery = z.object({ since: z.string().optional() });
const StatusQuery = z.object({ job_id: JobId.optional() });
const PreviewQuery = z.object({
  schedule: z.string({ error: 'schedule is required' }).trim().min(1, 'schedule is required').max(500, 'schedule is too long'),
  count: lenientInt(3, 1, 20),
});

/** GET /api/crons*: jobs, run history and outputs, running state, and the schedule preview. */
export function cronReadRoutes(deps: AppDeps) {
  const app = new Hono();

  app.get('/api/crons', async (c) => {
    const { all_profiles } = queryParams(c, ListQuery);
    const { home, tasks } = await profileTasks(c, deps);
    const active = (await tasks.jobs.list()).map((j) => ({ ...jobForApi(j), owner_profile: home.profile, read_only: false }));
    // Other profiles' rows are counted (and shown read-only when asked); one that fails to read is left out.
    const others: Record<string, unknown>[] = [];
    for (const name of await deps.homes.list()) {
      if (name === home.profile) continue;
      try {
        const other = await deps.cron!.forHome(await deps.homes.get(name));
        for (const j of await other.jobs.list()) others.push({ ...jobForApi(j), owner_profile: name, read_only: true });
      } catch {}
    }
    return c.json({
      jobs: all_profiles ? [...active, ...others] : active,
      all_profiles: Boolean(all_profiles),
      active_profile: home.profile,
      other_profile_count: all_profiles ? 0 : others.length,
      scheduler: { kind: tasks.kind, via: tasks.via },
    });
  });

  app.get('/api/crons/output', async (c) => {
    const { job_id, limit } = queryParams(c, OutputQuery);
    const { tasks } = await profileTasks(c, deps);
    const runs = await tasks.jobs.listOutputs(job_id, { limit });
    return c.json({ job_id, outputs: runs.map((r) => ({ filename: r.filename, content: outputWindow(r.content) })) });
  });

  app.get('/api/crons/history', async (c) => {
    const q = queryParams(c, HistoryQuery);
    const offset = Number(q.offset ?? '0');
    const limit = Number(q.limit ?? '50');
    if (!Number.isInteger(offset) || !Number.isInteger(limit)) throw new BadRequest('offset and limit must be integers');
    const page = { offset: Math.max(0, offset), limit: Math.max(1, Math.min(500, limit)) };
    const { tasks } = await profileTasks(c, deps);
    const all = (await tasks.jobs.outputFiles?.(q.job_id)) ?? null;
    const runs = await tasks.jobs.listOutputs(q.job_id, page);
    const stats = new Map((all ?? []).map((f) => [f.filename, f]));
    return c.json({
      job_id: q.job_id,
      runs: runs.map((r) => ({
        filename: r.filename,
        size: stats.get(r.filename)?.size ?? new TextEncoder().encode(r.content).length,
        modified: stats.get(r.filename)?.mtime ?? Date.parse(r.run_at) / 1000,
        usage: outputUsage(r),
        // Ours besides the incumbent's: the parsed header, so the panel needs no second request.
        status: r.status,
        run_at: r.run_at,
        session_id: r.session_id,
      })),
      total: all ? all.length : runs.length,
      offset: page.offset,
    });
  });

  app.get('/api/crons/run', async (c) => {
    const q = queryParams(c, RunQuery);
    const jobId = q.job_id?.trim() ?? '';
    const filename = q.filename?.trim() ?? '';
    if (!jobId || !filename) throw new BadRequest('job_id and filename required');
    if (!JobId.safeParse(jobId).success) throw new BadRequest('invalid job_id');
    if (!OUTPUT_FILENAME.test(filename) || filename.includes('..')) throw new BadRequest('invalid filename');
    const { tasks } = await profileTasks(c, deps);
    const run = await tasks.jobs.readOutput(jobId, filename);
    if (!run) throw new NotFound('run not found');
    return c.json({
      job_id: jobId,
      filename,
      content: run.content,
      snippet: outputSnippet(run),
      usage: outputUsage(run),
      status: run.status,
      run_at: run.run_at,
      session_id: run.session_id,
      response: run.response,
    });
  });

  app.get('/api/crons/recent', async (c) => {
    const raw = Number(queryParams(c, RecentQuery).since ?? '0');
    const since = Number.isFinite(raw) ? raw : 0;
    const { home, tasks } = await profileTasks(c, deps);
    const zone = await profileTimeZone(home);
    const completions = [];
    for (const job of await tasks.jobs.list()) {
      const at = parseStoredTime(job.last_run_at, zone);
      if (!at || at.getTime() / 1000 <= since) continue;
      const [latest] = await tasks.jobs.listOutputs(job.id, { limit: 1 });
      completions.push({
        job_id: job.id,
        name: job.name,
        status: job.last_status ?? 'unknown',
        completed_at: at.getTime() / 1000,
        toast_notifications: job.toast_notifications !== false,
        session_id: latest?.session_id ?? '',
        filename: latest?.filename ?? null,
      });
    }
    return c.json({ completions, since });
  });

  app.get('/api/crons/status', async (c) => {
    const { job_id } = queryParams(c, StatusQuery);
    const { tasks } = await profileTasks(c, deps);
    const now = deps.clock.now() * 1000;
    const running = tasks.runner?.running(job_id) ?? [];
    if (job_id) {
      const run = running.find((r) => r.job_id === job_id);
      return c.json({ job_id, running: Boolean(run), elapsed: run ? elapsedSince(run.started_at, now) : 0, session_id: run?.session_id ?? null });
    }
    return c.json({ running: Object.fromEntries(running.map((r) => [r.job_id, elapsedSince(r.started_at, now)])) });
  });

  app.get('/api/crons/delivery-options', async (c) => {
    await profileTasks(c, deps);
    return c.json({
      platforms: [
        { value: 'local', label: 'Local (save output only)' },
        { value: 'origin', label: 'Origin (reply to creator)' },
      ],
    });
  });

  // Ours: the panel's live preview of a schedule as typed.
  app.get('/api/crons/preview', async (c) => {
    const { schedule: text, count } = queryParams(c, PreviewQuery);
    const { home } = await profileTasks(c, deps);
    const zone = await profileTimeZone(home);
    const now = new Date(deps.clock.now() * 1000);
    const schedule = parseSchedule(text, now, zone);
    assertSchedulable(schedule, now, zone);
    return c.json({
      ok: true,
      schedule,
      display: schedule.display,
      schedule_text: describeSchedule(schedule),
      time_zone: zone,
      next_runs: nextRuns(schedule, now, count, zone).map((d) => isoInZone(d, zone)),
    });
  });

  return app;
}
