import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';

describe('/api/crons', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp({ configYaml: 'timezone: Europe/Berlin\nmodel:\n  default: openai/gpt-5\n' });
  });
  afterEach(async () => {
    await t.close();
  });

  const WORK = { Cookie: 'hermes_profile=work' };
  const create = (body: unknown, headers: Record<string, string> = {}) => t.call('POST', '/api/crons/create', body, headers);

  it('creates, lists, edits, pauses, resumes and deletes a job in jobs.json', async () => {
    const empty = await t.call('GET', '/api/crons');
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({
      jobs: [],
      all_profiles: false,
      active_profile: 'default',
      other_profile_count: 0,
      scheduler: { kind: 'webui', via: 'files' },
    });

    const made = await create({ prompt: 'Summarise my inbox folder', schedule: 'every 1h', name: 'Inbox', skills: ['email'] });
    expect(made.status).toBe(200);
    expect(made.body.ok).toBe(true);
    const job = made.body.job;
    expect(job).toMatchObject({
      name: 'Inbox',
      schedule: { kind: 'interval', minutes: 60, display: 'every 60m' },
      schedule_text: 'every hour',
      state: 'scheduled',
      enabled: true,
      deliver: 'local',
      skills: ['email'],
      repeat: { times: null, completed: 0 },
      profile: null,
      toast_notifications: true,
    });
    expect(job.id).toMatch(/^[0-9a-f]{12}$/);
    expect(job.next_run_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{6})?\+0[12]:00$/);
    const onDisk = JSON.parse(await readFile(join(t.hermesHome, 'cron', 'jobs.json'), 'utf8'));
    expect(onDisk.jobs[0]).toMatchObject({ id: job.id, name: 'Inbox', model_snapshot: 'openai/gpt-5' });
    expect(onDisk.jobs[0]).not.toHaveProperty('schedule_text');

    const list = await t.call('GET', '/api/crons');
    expect(list.body.jobs).toHaveLength(1);
    expect(list.body.jobs[0]).toMatchObject({ id: job.id, owner_profile: 'default', read_only: false, schedule_text: 'every hour' });

    const edited = await t.call('POST', '/api/crons/update', { job_id: job.id, schedule: '0 9 * * *', model: '', toast_notifications: false });
    expect(edited.status).toBe(200);
    expect(edited.body.job).toMatchObject({
      schedule: { kind: 'cron', expr: '0 9 * * *' },
      schedule_text: 'every day at 09:00',
      model: null,
      toast_notifications: false,
    });
    expect(edited.body.job.next_run_at).toMatch(/T09:00:00\+0[12]:00$/);

    const paused = await t.call('POST', '/api/crons/pause', { job_id: job.id, reason: 'holiday' });
    expect(paused.body).toMatchObject({ ok: true, job: { state: 'paused', enabled: false, paused_reason: 'holiday' } });
    const resumed = await t.call('POST', '/api/crons/resume', { job_id: job.id });
    expect(resumed.body).toMatchObject({ ok: true, job: { state: 'scheduled', enabled: true, paused_reason: null } });

    expect((await t.call('POST', '/api/crons/delete', { job_id: job.id })).body).toEqual({ ok: true, job_id: job.id });
    expect((await t.call('GET', '/api/crons')).body.jobs).toEqual([]);
  });

  it('answers 404 "Job not found", 400 for bad ids and invalid schedules, with reasons', async () => {
    for (const path of ['/api/crons/update', '/api/crons/delete', '/api/crons/run', '/api/crons/pause', '/api/crons/resume']) {
      const r = await t.call('POST', path, { job_id: 'abcdef123456' });
      expect([r.status, r.body], path).toEqual([404, { error: 'Job not found' }]);
      const bad = await t.call('POST', path, { job_id: '../etc' });
      expect([bad.status, bad.body], path).toEqual([400, { error: 'job_id: invalid job_id' }]);
      const none = await t.call('POST', path, {});
      expect(none.status, path).toBe(400);
      expect(none.body.error).toMatch(/job_id required/);
    }
    expect((await create({ prompt: 'x' })).body).toEqual({ error: 'Missing required field(s): schedule' });
    const badSchedule = await create({ prompt: 'x', schedule: 'whenever' });
    expect(badSchedule.status).toBe(400);
    expect(badSchedule.body.error).toMatch(/^Invalid schedule 'whenever'\. Use:/);
    const badCron = await create({ prompt: 'x', schedule: '0 25 * * *' });
    expect([badCron.status, badCron.body.error]).toEqual([400, expect.stringMatching(/^Invalid cron expression '0 25 \* \* \*'/)]);
    expect((await create({ prompt: 'x', schedule: '2020-01-01T00:00:00' })).body.error).toMatch(/in the past/);
    expect((await create({ prompt: 5, schedule: 'every 1h' })).status).toBe(400);
    const made = await create({ prompt: 'x', schedule: 'every 1h' });
    expect((await t.call('POST', '/api/crons/update', { job_id: made.body.job.id, 'bad key': 1 })).status).toBe(400);
    expect((await t.call('POST', '/api/crons/update', { job_id: made.body.job.id, schedule: 'nope' })).body.error).toMatch(/Invalid schedule/);
  });

  it('says nobody runs jobs here (HERMES_WEBUI_SCHEDULER=off): run now is a 409 naming who runs them', async () => {
    const off = await makeTestApp({ env: { HERMES_WEBUI_SCHEDULER: 'off' } });
    try {
      expect((await off.call('GET', '/api/crons')).body.scheduler).toEqual({ kind: 'none', via: 'files' });
      const job = await off.call('POST', '/api/crons/create', { prompt: 'x', schedule: 'every 1h' });
      const refused = await off.call('POST', '/api/crons/run', { job_id: job.body.job.id });
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatch(/No scheduler runs jobs on this server/);
    } finally {
      await off.close();
    }
  });

  it('run now starts a run when this server schedules; one that cannot start (no model here) is recorded as an error', async () => {
    const made = await create({ prompt: 'x', schedule: 'every 1h' });
    const id = made.body.job.id;
    const r = await t.call('POST', '/api/crons/run', { job_id: id });
    expect(r.status).toBe(200);
    // No model is configured in this app: the run fails before it has a session.
    expect(r.body).toEqual({ ok: true, job_id: id, status: 'running', session_id: null });
    await expect
      .poll(async () => (await t.call('GET', `/api/crons/status?job_id=${id}`)).body, { timeout: 10_000 })
      .toEqual({ job_id: id, running: false, elapsed: 0, session_id: null });
    expect((await t.call('GET', '/api/crons/status')).body).toEqual({ running: {} });
    const job = (await t.call('GET', '/api/crons')).body.jobs.find((j: { id: string }) => j.id === id);
    expect(job).toMatchObject({ last_status: 'error', last_error: expect.any(String) });
    const history = await t.call('GET', `/api/crons/history?job_id=${id}`);
    expect(history.status).toBe(200);
    expect(history.body.runs).toEqual([expect.objectContaining({ status: 'error', session_id: null })]);
  });

  it('previews a schedule: the parsed record, words and the next runs in the profile zone', async () => {
    const r = await t.call('GET', `/api/crons/preview?schedule=${encodeURIComponent('weekdays at 9am')}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      ok: true,
      schedule: { kind: 'cron', expr: '0 9 * * 1-5', display: 'weekdays at 9am' },
      schedule_text: 'every weekday at 09:00',
      time_zone: 'Europe/Berlin',
    });
    expect(r.body.next_runs).toHaveLength(3);
    for (const at of r.body.next_runs) {
      expect(at).toMatch(/T09:00:00\+0[12]:00$/);
      expect([1, 2, 3, 4, 5]).toContain(new Date(at).getUTCDay());
    }
    const bad = await t.call('GET', '/api/crons/preview?schedule=every%20fortnight');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/^Invalid duration: 'fortnight'/);
    expect((await t.call('GET', '/api/crons/preview')).status).toBe(400);
  });

  it('lists run history and outputs in the incumbent shapes, and recent completions', async () => {
    const made = await create({ prompt: 'Summarise', schedule: 'every 1h', name: 'Inbox' });
    const id = made.body.job.id;
    const dir = join(t.hermesHome, 'cron', 'output', id);
    await mkdir(dir, { recursive: true });
    await writeFile(
      join(dir, '2026-12-01_09-00-00.md'),
      '# Cron Job: Inbox\n\n**Job ID:** x\n**Run Time:** 2026-12-01 09:00:00\n**Schedule:** every 60m\n**Model:** openai/gpt-5\n**Tokens:** 1,200 input, 300 output\n**Cost:** $0.01\n**Duration:** 4.5s\n**Session:** s_1\n\n## Prompt\n\nSummarise\n\n## Response\n\nAll quiet.\n',
    );
    const history = await t.call('GET', `/api/crons/history?job_id=${id}`);
    expect(history.body).toMatchObject({ job_id: id, total: 1, offset: 0 });
    expect(history.body.runs[0]).toMatchObject({
      filename: '2026-12-01_09-00-00.md',
      usage: { model: 'openai/gpt-5', input_tokens: 1200, output_tokens: 300, total_tokens: 1500, estimated_cost_usd: 0.01, duration_seconds: 4.5 },
      status: 'ok',
      session_id: 's_1',
      run_at: '2026-12-01T08:00:00.000Z',
    });
    expect(typeof history.body.runs[0].size).toBe('number');
    expect(typeof history.body.runs[0].modified).toBe('number');
    expect((await t.call('GET', `/api/crons/history?job_id=${id}&limit=x`)).body).toEqual({ error: 'offset and limit must be integers' });

    const outputs = await t.call('GET', `/api/crons/output?job_id=${id}&limit=abc`);
    expect(outputs.body.outputs).toEqual([{ filename: '2026-12-01_09-00-00.md', content: expect.stringContaining('All quiet.') }]);

    const run = await t.call('GET', `/api/crons/run?job_id=${id}&filename=2026-12-01_09-00-00.md`);
    expect(run.body).toMatchObject({ job_id: id, filename: '2026-12-01_09-00-00.md', snippet: 'All quiet.', usage: { model: 'openai/gpt-5' } });
    expect((await t.call('GET', `/api/crons/run?job_id=${id}&filename=..%2F..%2Fconfig.yaml`)).body).toEqual({ error: 'invalid filename' });
    expect(await t.call('GET', `/api/crons/run?job_id=${id}&filename=nope.md`)).toMatchObject({ status: 404, body: { error: 'run not found' } });
    expect((await t.call('GET', `/api/crons/run?job_id=${id}`)).body).toEqual({ error: 'job_id and filename required' });

    expect((await t.call('GET', '/api/crons/recent?since=0')).body).toEqual({ completions: [], since: 0 });
    // A run recorded in the record (as the scheduler writes it) shows as a completion.
    const file = join(t.hermesHome, 'cron', 'jobs.json');
    const data = JSON.parse(await readFile(file, 'utf8'));
    data.jobs[0].last_run_at = '2026-12-01T09:00:04+01:00';
    data.jobs[0].last_status = 'ok';
    await writeFile(file, JSON.stringify(data, null, 2));
    const recent = await t.call('GET', '/api/crons/recent?since=abc');
    expect(recent.body).toEqual({
      since: 0,
      completions: [
        {
          job_id: id,
          name: 'Inbox',
          status: 'ok',
          completed_at: Date.parse('2026-12-01T08:00:04Z') / 1000,
          toast_notifications: true,
          session_id: 's_1',
          filename: '2026-12-01_09-00-00.md',
        },
      ],
    });
    expect((await t.call('GET', `/api/crons/recent?since=${Date.parse('2026-12-01T08:00:04Z') / 1000}`)).body.completions).toEqual([]);
    expect((await t.call('GET', '/api/crons/delivery-options')).body.platforms[0]).toEqual({ value: 'local', label: 'Local (save output only)' });
  });

  it("keeps each profile's jobs in its own home, and shows others read-only on request", async () => {
    expect((await t.call('POST', '/api/profile/create', { name: 'work' })).status).toBe(200);
    await create({ prompt: 'default job', schedule: 'every 1h' });
    const work = await create({ prompt: 'work job', schedule: 'every 2h' }, WORK);
    expect(work.status).toBe(200);
    const workFile = JSON.parse(await readFile(join(t.hermesHome, 'profiles', 'work', 'cron', 'jobs.json'), 'utf8'));
    expect(workFile.jobs.map((j: { prompt: string }) => j.prompt)).toEqual(['work job']);

    const defaults = await t.call('GET', '/api/crons');
    expect(defaults.body.jobs.map((j: { prompt: string }) => j.prompt)).toEqual(['default job']);
    expect(defaults.body.other_profile_count).toBe(1);
    const all = await t.call('GET', '/api/crons?all_profiles=1');
    expect(all.body.jobs.map((j: { prompt: string; owner_profile: string; read_only: boolean }) => [j.prompt, j.owner_profile, j.read_only])).toEqual([
      ['default job', 'default', false],
      ['work job', 'work', true],
    ]);
    // Another profile's job is not found from this one.
    expect((await t.call('POST', '/api/crons/delete', { job_id: work.body.job.id })).status).toBe(404);
    expect((await t.call('POST', '/api/crons/delete', { job_id: work.body.job.id }, WORK)).status).toBe(200);
  });

  it('refuses to touch a malformed jobs.json (409) and leaves it as it was', async () => {
    await mkdir(join(t.hermesHome, 'cron'), { recursive: true });
    await writeFile(join(t.hermesHome, 'cron', 'jobs.json'), '{ not json');
    const list = await t.call('GET', '/api/crons');
    expect(list.status).toBe(409);
    expect(list.body.error).toMatch(/cron\/jobs\.json cannot be read/);
    expect((await create({ prompt: 'x', schedule: 'every 1h' })).status).toBe(409);
    expect(await readFile(join(t.hermesHome, 'cron', 'jobs.json'), 'utf8')).toBe('{ not json');
  });
});
