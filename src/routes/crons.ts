import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { jsonBody } from '../http/validate.js';
import { BadRequest, Conflict, NotFound } from '../ports/errors.js';
import { cronReadRoutes } from './crons-read.js';
import { elapsedSince, JobId, jobForApi, noRunnerReason, profileTasks } from './crons-common.js';

const Text = (max: number) => z.string().max(max, `must be at most ${max} characters`);
const OptionalText = (max: number) => Text(max).nullable().optional();
const Skills = z
  .union([z.array(Text(200)).max(50, 'at most 50 skills'), Text(200)])
  .nullable()
  .optional();
const Repeat = z
  .union([
    z.number().int(),
    Text(20),
    z
      .object({
        times: z
          .union([z.number().int(), Text(20)])
          .nullable()
          .optional(),
      })
      .passthrough(),
  ])
  .nullable()
  .optional();

const CreateBody = z.object({
  prompt: Text(100_000).optional(),
  schedule: Text(500).optional(),
  name: OptionalText(200),
  deliver: OptionalText(200),
  skills: Skills,
  skill: OptionalText(200),
  model: OptionalText(300),
  provider: OptionalText(100),
  repeat: Repeat,
  profile: OptionalText(64),
  toast_notifications: z.boolean().optional(),
});

// Fields Hermes' update_job takes besides the known ones: plain names, JSON values.
const FIELD_NAME = /^[a-z_][a-z0-9_]{0,63}$/;
const UpdateBody = CreateBody.extend({ job_id: JobId, enabled: z.boolean().optional() }).catchall(z.unknown());
const JobBody = z.object({ job_id: JobId });
const PauseBody = z.object({ job_id: JobId, reason: OptionalText(500) });

/** The incumbent's /api/crons* over the request's profile (cron/jobs.json there). */
export function cronRoutes(deps: AppDeps) {
  const app = new Hono();
  app.route('/', cronReadRoutes(deps));
  // A job this server runs changed: its scheduler arms the new next run now, not at its next tick.
  const wake = (tasks: { runner: unknown }) => tasks.runner && deps.cron?.scheduler?.wake();

  app.post('/api/crons/create', async (c) => {
    const body = await jsonBody(c, CreateBody);
    const missing = (['prompt', 'schedule'] as const).filter((k) => !body[k]?.trim());
    if (missing.length) throw new BadRequest(`Missing required field(s): ${missing.join(', ')}`);
    const { tasks } = await profileTasks(c, deps);
    let job = await tasks.jobs.create({
      prompt: body.prompt!,
      schedule: body.schedule!,
      name: body.name || null,
      deliver: body.deliver || 'local',
      skills: typeof body.skills === 'string' ? [body.skills] : (body.skills ?? (body.skill ? [body.skill] : [])),
      model: body.model || null,
      provider: body.provider || null,
      ...(body.repeat !== undefined ? { repeat: body.repeat as number | null } : {}),
    });
    // WebUI-only settings go on after creation, as the incumbent does.
    const extra: Record<string, unknown> = {};
    if (body.profile) extra.profile = body.profile;
    if (body.toast_notifications === false) extra.toast_notifications = false;
    if (Object.keys(extra).length) job = (await tasks.jobs.update(job.id, extra)) ?? job;
    wake(tasks);
    return c.json({ ok: true, job: jobForApi(job) });
  });

  app.post('/api/crons/update', async (c) => {
    const { job_id, ...fields } = await jsonBody(c, UpdateBody);
    const updates: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(fields)) {
      if (!FIELD_NAME.test(key)) throw new BadRequest(`Unknown field: ${key.slice(0, 64)}`);
      if (key === 'model' || key === 'provider' || key === 'profile') updates[key] = value || null;
      else if (value !== null && value !== undefined) updates[key] = value;
    }
    const { tasks } = await profileTasks(c, deps);
    const job = await tasks.jobs.update(job_id, updates);
    if (!job) throw new NotFound('Job not found');
    wake(tasks);
    return c.json({ ok: true, job: jobForApi(job) });
  });

  app.post('/api/crons/delete', async (c) => {
    const { job_id } = await jsonBody(c, JobBody);
    const { tasks } = await profileTasks(c, deps);
    if (!(await tasks.jobs.remove(job_id))) throw new NotFound('Job not found');
    return c.json({ ok: true, job_id });
  });

  app.post('/api/crons/run', async (c) => {
    const { job_id } = await jsonBody(c, JobBody);
    const { tasks } = await profileTasks(c, deps);
    if (!(await tasks.jobs.get(job_id))) throw new NotFound('Job not found');
    if (!tasks.runner) throw new Conflict(noRunnerReason(tasks), { scheduler: { kind: tasks.kind, via: tasks.via } });
    const result = await tasks.runner.runNow(job_id);
    if (!result.ok) {
      const run = tasks.runner.running(job_id).find((r) => r.job_id === job_id);
      return c.json({ ok: false, job_id, status: 'already_running', elapsed: run ? elapsedSince(run.started_at, deps.clock.now() * 1000) : 0 });
    }
    return c.json({ ok: true, job_id, status: 'running', session_id: result.session_id });
  });

  app.post('/api/crons/pause', async (c) => {
    const { job_id, reason } = await jsonBody(c, PauseBody);
    const { tasks } = await profileTasks(c, deps);
    const job = await tasks.jobs.pause(job_id, reason ?? null);
    if (!job) throw new NotFound('Job not found');
    return c.json({ ok: true, job: jobForApi(job) });
  });

  app.post('/api/crons/resume', async (c) => {
    const { job_id } = await jsonBody(c, JobBody);
    const { tasks } = await profileTasks(c, deps);
    const job = await tasks.jobs.resume(job_id);
    if (!job) throw new NotFound('Job not found');
    wake(tasks);
    return c.json({ ok: true, job: jobForApi(job) });
  });

  return app;
}
