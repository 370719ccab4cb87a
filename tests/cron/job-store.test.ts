import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NodeHermesHomes } from '../../src/adapters/platform/node-hermes-homes.js';
import { HermesCronJobs } from '../../src/domain/cron/job-store.js';
import { recordRun } from '../../src/domain/cron/job-edit.js';
import { Conflict } from '../../src/ports/errors.js';

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'cron', 'hermes-jobs.json');
/** 2026-12-01 10:00 in Berlin. */
const NOW = Date.parse('2026-12-01T09:00:00Z');

/** The text of the job with `id` as it sits in the file (its block of lines). */
function jobBlock(text: string, id: string): string {
  const start = text.lastIndexOf('\n    {', text.indexOf(`"id": "${id}"`));
  const end = text.indexOf('\n    }', start) + 6;
  return text.slice(start, end);
}

describe('HermesCronJobs over cron/jobs.json', () => {
  let dir: string;
  let store: HermesCronJobs;
  let jobsFile: string;
  let ids: string[];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cron-store-'));
    await writeFile(join(dir, 'config.yaml'), 'timezone: Europe/Berlin\nmodel:\n  default: openai/gpt-5\n  provider: openrouter\n');
    const homes = new NodeHermesHomes(dir, {});
    ids = ['c0ffee000001', 'c0ffee000002', 'c0ffee000003'];
    let n = 0;
    store = new HermesCronJobs(homes.defaultHome, { now: () => NOW, newId: () => ids[n++]! });
    jobsFile = join(dir, 'cron', 'jobs.json');
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const seed = async () => {
    await mkdir(join(dir, 'cron'), { recursive: true });
    const text = await readFile(FIXTURE, 'utf8');
    await writeFile(jobsFile, text);
    return text;
  };

  it('reads no jobs from a missing file and creates a record with Hermes fields and defaults', async () => {
    expect(await store.list()).toEqual([]);
    const job = await store.create({ prompt: '  Summarise the inbox  ', schedule: 'every day at 9am', skills: ['email', 'email', ' '] });
    expect(job).toMatchObject({
      id: 'c0ffee000001',
      name: 'Summarise the inbox',
      prompt: 'Summarise the inbox',
      skills: ['email'],
      skill: 'email',
      model: null,
      provider: null,
      model_snapshot: 'openai/gpt-5',
      provider_snapshot: 'openrouter',
      schedule: { kind: 'cron', expr: '0 9 * * *', display: 'every day at 9am' },
      schedule_display: 'every day at 9am',
      repeat: { times: null, completed: 0 },
      enabled: true,
      state: 'scheduled',
      deliver: 'local',
      created_at: '2026-12-01T10:00:00+01:00',
      next_run_at: '2026-12-02T09:00:00+01:00',
      last_run_at: null,
      last_status: null,
    });
    const text = await readFile(jobsFile, 'utf8');
    expect(text.endsWith('}')).toBe(true);
    const data = JSON.parse(text);
    expect(Object.keys(data)).toEqual(['jobs', 'updated_at']);
    expect(data.updated_at).toBe('2026-12-01T10:00:00+01:00');
    expect(text).toBe(JSON.stringify(data, null, 2));
    // A one-shot runs once.
    expect((await store.create({ prompt: 'ping', schedule: 'in 30m' })).repeat).toEqual({ times: 1, completed: 0 });
  });

  it('keeps a Hermes-written file byte for byte where nothing changed, unknown fields and keys included', async () => {
    const original = await seed();
    const untouched = jobBlock(original, 'a1b2c3d4e5f6');

    const updated = await store.update('0f0f0f0f0f0f', { name: 'Weekly summary', schedule: 'every 2h' });
    expect(updated).toMatchObject({
      name: 'Weekly summary',
      schedule: { kind: 'interval', minutes: 120 },
      hermes_only: 'keep me',
      next_run_at: '2026-12-01T12:00:00+01:00',
    });
    let text = await readFile(jobsFile, 'utf8');
    expect(jobBlock(text, 'a1b2c3d4e5f6')).toBe(untouched);
    expect(JSON.parse(text).schema_note).toBe('kept');

    await store.pause('0f0f0f0f0f0f', 'holiday');
    await store.resume('0f0f0f0f0f0f');
    const created = await store.create({ prompt: 'new one', schedule: '0 7 * * 1-5' });
    expect(await store.remove(created.id)).toBe(true);
    text = await readFile(jobsFile, 'utf8');
    expect(jobBlock(text, 'a1b2c3d4e5f6')).toBe(untouched);
    const data = JSON.parse(text);
    expect(Object.keys(data)).toEqual(['jobs', 'updated_at', 'schema_note']);
    expect(data.jobs.map((j: { id: string }) => j.id)).toEqual(['a1b2c3d4e5f6', '0f0f0f0f0f0f']);
    expect(data.jobs[1]).toMatchObject({ hermes_only: 'keep me', enabled: true, state: 'scheduled', paused_at: null, paused_reason: null });
  });

  it('pauses and resumes as Hermes does, and refuses what Hermes refuses', async () => {
    await seed();
    const paused = await store.pause('a1b2c3d4e5f6', 'away');
    expect(paused).toMatchObject({ enabled: false, state: 'paused', paused_at: '2026-12-01T10:00:00+01:00', paused_reason: 'away' });
    // A paused job's schedule edit does not give it a next run.
    expect(await store.update('a1b2c3d4e5f6', { schedule: '0 8 * * *' })).toMatchObject({
      next_run_at: '2026-12-02T09:00:00+01:00',
      schedule_display: '0 8 * * *',
    });
    const resumed = await store.resume('a1b2c3d4e5f6');
    expect(resumed).toMatchObject({ enabled: true, state: 'scheduled', next_run_at: '2026-12-02T08:00:00+01:00' });
    await expect(store.update('a1b2c3d4e5f6', { id: 'other' })).rejects.toThrow(/cannot be updated: id/);
    await expect(store.update('a1b2c3d4e5f6', { prompt: '', skills: [] })).rejects.toThrow(/nothing to run/);
    await expect(store.update('a1b2c3d4e5f6', { schedule: 'whenever' })).rejects.toThrow(/Invalid schedule 'whenever'/);
    await expect(store.create({ prompt: 'x', schedule: '2026-11-30T10:00:00' })).rejects.toThrow(/in the past/);
    expect(await store.update('nope00000000', { name: 'x' })).toBeNull();
    expect(await store.update('../escape', { name: 'x' })).toBeNull();
    expect(await store.get('../escape')).toBeNull();
    expect(await store.remove('nope00000000')).toBe(false);
  });

  it('records a run: repeat counts, a job that reached repeat.times completes, a recurring one moves on', async () => {
    await seed();
    const ctx = await store.context();
    const after = await store.mutate('0f0f0f0f0f0f', (job) => recordRun(job, { ok: true }, ctx));
    expect(after).toMatchObject({ repeat: { times: 3, completed: 2 }, last_status: 'ok', state: 'scheduled', next_run_at: '2026-12-08T10:00:00+01:00' });
    await store.mutate('0f0f0f0f0f0f', (job) => recordRun(job, { ok: false, error: 'boom' }, ctx));
    const done = await store.get('0f0f0f0f0f0f');
    expect(done).toMatchObject({
      repeat: { times: 3, completed: 3 },
      last_status: 'error',
      last_error: 'boom',
      state: 'completed',
      enabled: false,
      next_run_at: null,
    });
    // A completed job is not reactivated through update.
    await expect(store.update('0f0f0f0f0f0f', { enabled: true })).rejects.toThrow(/Cannot activate terminal cron job/);
  });

  it('never overwrites a malformed file', async () => {
    await mkdir(join(dir, 'cron'), { recursive: true });
    const broken = '{"jobs": [ {"id": "x", ';
    await writeFile(jobsFile, broken);
    await expect(store.list()).rejects.toBeInstanceOf(Conflict);
    await expect(store.create({ prompt: 'x', schedule: 'every 1h' })).rejects.toThrow(/cannot be read .*left untouched/);
    await expect(store.pause('x')).rejects.toBeInstanceOf(Conflict);
    expect(await readFile(jobsFile, 'utf8')).toBe(broken);
    await writeFile(jobsFile, '"just a string"');
    await expect(store.create({ prompt: 'x', schedule: 'every 1h' })).rejects.toBeInstanceOf(Conflict);
    expect(await readFile(jobsFile, 'utf8')).toBe('"just a string"');
  });

  it('reads a bare list and an id-keyed map as Hermes does and writes the canonical shape back', async () => {
    await mkdir(join(dir, 'cron'), { recursive: true });
    await writeFile(
      jobsFile,
      JSON.stringify({ jobs: { k1: { name: 'mapped', prompt: 'p', schedule: { kind: 'interval', minutes: 5, display: 'every 5m' } } } }),
    );
    expect((await store.list()).map((j) => [j.id, j.name, j.state])).toEqual([['k1', 'mapped', 'scheduled']]);
    await store.update('k1', { name: 'renamed' });
    expect(JSON.parse(await readFile(jobsFile, 'utf8')).jobs).toMatchObject([{ id: 'k1', name: 'renamed' }]);
  });

  it('serialises concurrent edits: none is lost', async () => {
    await seed();
    await Promise.all(Array.from({ length: 3 }, (_, i) => store.create({ prompt: `job ${i}`, schedule: 'every 1h' })));
    await Promise.all([store.update('a1b2c3d4e5f6', { name: 'A' }), store.update('0f0f0f0f0f0f', { name: 'B' })]);
    const names = (await store.list()).map((j) => j.name).sort();
    expect(names).toEqual(['A', 'B', 'job 0', 'job 1', 'job 2']);
    // Atomic replace: no temporary file is left beside jobs.json.
    expect((await readdir(join(dir, 'cron'))).sort()).toEqual(['jobs.json']);
  });

  it("writes run outputs in Hermes' layout, reads them back newest first, and removes them with the job", async () => {
    await seed();
    const first = await store.writeOutput({
      job_id: 'a1b2c3d4e5f6',
      run_at: '2026-12-01T08:00:05Z',
      status: 'ok',
      model: 'openai/gpt-5',
      provider: 'openrouter',
      input_tokens: 1200,
      output_tokens: 345,
      cost: 0.0042,
      duration_seconds: 12.34,
      session_id: 'sess_1',
      response: 'Three new mails.\n\n## Details\nNone urgent.',
    });
    expect(first.filename).toBe('2026-12-01_09-00-05.md');
    expect(first.content).toBe(
      [
        '# Cron Job: Morning inbox',
        '',
        '**Job ID:** a1b2c3d4e5f6',
        '**Run Time:** 2026-12-01 09:00:05',
        '**Schedule:** 0 9 * * *',
        '**Model:** openai/gpt-5',
        '**Provider:** openrouter',
        '**Tokens:** 1200 input, 345 output',
        '**Cost:** $0.0042',
        '**Duration:** 12.3s',
        '**Session:** sess_1',
        '',
        '## Prompt',
        '',
        'Summarise my inbox folder',
        '',
        '## Response',
        '',
        'Three new mails.\n\n## Details\nNone urgent.',
        '',
      ].join('\n'),
    );
    const failed = await store.writeOutput({
      job_id: 'a1b2c3d4e5f6',
      run_at: '2026-12-01T08:00:05Z',
      status: 'error',
      model: null,
      provider: null,
      input_tokens: null,
      output_tokens: null,
      cost: null,
      duration_seconds: null,
      session_id: null,
      response: 'provider unreachable',
    });
    expect(failed.filename).toBe('2026-12-01_09-00-05_1.md');
    expect(failed.content).toContain('# Cron Job: Morning inbox (FAILED)\n');
    const future = new Date(Date.now() + 60_000);
    await utimes(join(dir, 'cron', 'output', 'a1b2c3d4e5f6', failed.filename), future, future);

    const runs = await store.listOutputs('a1b2c3d4e5f6');
    expect(runs.map((r) => r.filename)).toEqual(['2026-12-01_09-00-05_1.md', '2026-12-01_09-00-05.md']);
    expect(runs[0]).toMatchObject({ status: 'error', response: 'provider unreachable', model: null });
    expect(runs[1]).toMatchObject({
      status: 'ok',
      run_at: '2026-12-01T08:00:05.000Z',
      model: 'openai/gpt-5',
      provider: 'openrouter',
      input_tokens: 1200,
      output_tokens: 345,
      cost: 0.0042,
      duration_seconds: 12.3,
      session_id: 'sess_1',
      response: 'Three new mails.\n\n## Details\nNone urgent.',
    });
    expect(await store.listOutputs('a1b2c3d4e5f6', { limit: 1, offset: 1 })).toHaveLength(1);
    expect(await store.readOutput('a1b2c3d4e5f6', '../jobs.json')).toBeNull();
    expect(await store.readOutput('a1b2c3d4e5f6', 'missing.md')).toBeNull();

    // A file Hermes wrote (no usage lines) parses too.
    await writeFile(
      join(dir, 'cron', 'output', 'a1b2c3d4e5f6', '2026-11-30_09-00-00.md'),
      '# Cron Job: Morning inbox\n\n**Job ID:** a1b2c3d4e5f6\n**Run Time:** 2026-11-30 09:00:00\n**Schedule:** 0 9 * * *\n\n## Prompt\n\nSummarise\n\n## Response\n\nAll quiet.\n',
    );
    expect(await store.readOutput('a1b2c3d4e5f6', '2026-11-30_09-00-00.md')).toMatchObject({
      run_at: '2026-11-30T08:00:00.000Z',
      status: 'ok',
      response: 'All quiet.',
      model: null,
      session_id: null,
    });

    expect(await store.remove('a1b2c3d4e5f6')).toBe(true);
    expect(await stat(join(dir, 'cron', 'output', 'a1b2c3d4e5f6')).catch(() => null)).toBeNull();
  });
});
