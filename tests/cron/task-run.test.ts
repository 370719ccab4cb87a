import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppEvent } from '../../src/runs/app-events.js';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';

/**
 * A scheduled job end to end: the server's own scheduler (real timers) finds it due, runs it
 * as a built-in agent turn against the scripted OpenAI-compatible server, and records it as
 * Hermes does (jobs.json, cron/output/<job>/<stamp>.md).
 */
describe('a task run', () => {
  let t: ChatHarness | null = null;
  afterEach(async () => {
    await t?.deps.cron?.scheduler?.stop();
    await t?.close();
    t = null;
  });

  async function dueJob(h: ChatHarness, prompt: string) {
    const tasks = await h.deps.cron!.forHome(h.deps.homes.defaultHome);
    expect(tasks.kind).toBe('webui');
    const job = await tasks.jobs.create({ prompt, schedule: 'every 1h', name: 'Morning summary' });
    // Due a minute ago (as if missed while the server was down).
    await tasks.jobs.mutate(job.id, (j) => {
      j.next_run_at = new Date(Date.now() - 60_000).toISOString();
    });
    return { tasks, job };
  }

  function listen(h: ChatHarness) {
    const seen: AppEvent[] = [];
    h.deps.events.on((e) => {
      if (e.type === 'task_finished' || e.type === 'sessions_changed' || e.type === 'turn_started') seen.push(e);
    });
    return seen;
  }

  it('creates its cron session, writes the output file in Hermes format and updates jobs.json', async () => {
    t = await makeChatApp({ storage: 'fs' });
    const { tasks, job } = await dueJob(t, 'Summarise the inbox folder');
    const seen = listen(t);
    t.model.enqueue([{ text: 'Three new messages.' }, { usage: { inputTokens: 120, outputTokens: 8 } }]);
    t.deps.cron!.scheduler!.start();
    await vi.waitFor(() => expect(seen.some((e) => e.type === 'task_finished')).toBe(true), { timeout: 20_000 });

    const finished = seen.find((e) => e.type === 'task_finished') as Extract<AppEvent, { type: 'task_finished' }>;
    expect(finished).toMatchObject({ profile: 'default', job_id: job.id, job_name: 'Morning summary', status: 'ok' });
    const sid = finished.session_id!;
    expect(sid).toMatch(new RegExp(`^cron_${job.id}_\\d{8}_\\d{6}$`));
    expect(seen).toContainEqual(expect.objectContaining({ type: 'turn_started', session_id: sid, source: 'cron' }));
    expect(seen).toContainEqual({ type: 'sessions_changed', reason: 'cron_started', session_id: sid, profile: 'default' });
    expect(seen).toContainEqual({ type: 'sessions_changed', reason: 'cron_complete', session_id: sid, profile: 'default' });

    // The model got the job's prompt as the user's message.
    const request = t.turnRequests()[0];
    expect(request.messages.at(-1)).toMatchObject({ role: 'user', content: 'Summarise the inbox folder' });

    // The session: source cron, titled by the job, listed.
    const session = await t.deps.sessions.get(sid);
    expect(session).toMatchObject({ session_source: 'cron', source_tag: 'cron', title: 'Morning summary', active_stream_id: null });
    expect(session!.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    // Task runs stay out of the normal list and show under the Tasks filter.
    const normal = await t.call('GET', '/api/sessions');
    expect(normal.body.sessions.some((s: { session_id: string }) => s.session_id === sid)).toBe(false);
    const list = await t.call('GET', '/api/sessions?source=cron');
    expect(list.status).toBe(200);
    expect(list.body.sessions.find((s: { session_id: string }) => s.session_id === sid)).toMatchObject({ session_source: 'cron', title: 'Morning summary' });

    // The output file, parsed back by the store.
    const outputs = await tasks.jobs.listOutputs(job.id);
    expect(outputs).toHaveLength(1);
    expect(outputs[0]).toMatchObject({
      job_id: job.id,
      filename: finished.output_file,
      status: 'ok',
      model: 'test-model',
      input_tokens: 120,
      output_tokens: 8,
      session_id: sid,
    });
    expect(outputs[0]!.response).toContain('Three new messages.');
    const onDisk = await readFile(join(t.hermesHome, 'cron', 'output', job.id, finished.output_file!), 'utf8');
    expect(onDisk).toBe(outputs[0]!.content);

    // jobs.json: the run recorded, the next slot in the future.
    const file = JSON.parse(await readFile(join(t.hermesHome, 'cron', 'jobs.json'), 'utf8'));
    const stored = file.jobs.find((j: { id: string }) => j.id === job.id);
    expect(stored).toMatchObject({ state: 'scheduled', last_status: 'ok', last_error: null, repeat: { completed: 1 } });
    expect(Date.parse(stored.next_run_at)).toBeGreaterThan(Date.now() + 55 * 60_000);
    expect(t.deps.cron!.scheduler!.runnerFor(t.deps.homes.defaultHome).running()).toEqual([]);

    // The completion is what the Tasks badge and notifications read.
    const recent = await t.call('GET', '/api/crons/recent?since=0');
    expect(recent.status).toBe(200);
    expect(recent.body.completions).toEqual([
      expect.objectContaining({ job_id: job.id, name: 'Morning summary', status: 'ok', session_id: sid, filename: finished.output_file }),
    ]);
  });

  it('runs a one-shot created through the API at its instant, not at the scheduler’s next tick', async () => {
    // A tick period far beyond the test's wait: only the wake on create can make it run in time.
    t = await makeChatApp({ storage: 'fs', scheduler: { tickMs: 10 * 60_000 } });
    const seen = listen(t);
    t.deps.cron!.scheduler!.start();
    await t.deps.cron!.scheduler!.tick();
    t.model.enqueue([{ text: 'Done on time.' }]);
    const due = new Date(Date.now() + 1500);
    const made = await t.call('POST', '/api/crons/create', { prompt: 'Say it is done', schedule: due.toISOString(), name: 'Soon' });
    expect(made.status).toBe(200);
    expect(made.body.job.schedule.kind).toBe('once');
    await vi.waitFor(() => expect(seen.some((e) => e.type === 'task_finished')).toBe(true), { timeout: 15_000 });
    const started = seen.find((e) => e.type === 'turn_started') as Extract<AppEvent, { type: 'turn_started' }>;
    // Seconds, as every session timestamp: at its instant (not before it), long before a tick.
    expect(started.pending_started_at).toBeGreaterThan(due.getTime() / 1000 - 1);
    expect(started.pending_started_at).toBeLessThan(due.getTime() / 1000 + 60);
    expect(await (await t.deps.cron!.forHome(t.deps.homes.defaultHome)).jobs.get(made.body.job.id)).toMatchObject({ state: 'completed', last_status: 'ok' });
  });

  it('denies a command that needs approval under the default cron_mode, and the run finishes', async () => {
    t = await makeChatApp({ storage: 'fs' });
    const { tasks, job } = await dueJob(t, 'Clean the build folder');
    const seen = listen(t);
    t.model.enqueue([{ toolCall: { id: 'call1', name: 'terminal', args: { command: 'rm -rf build' } } }], [{ text: 'I could not clean it.' }]);
    t.deps.cron!.scheduler!.start();
    await vi.waitFor(() => expect(seen.some((e) => e.type === 'task_finished')).toBe(true), { timeout: 20_000 });

    const toolResult = t.turnRequests()[1].messages.find((m: { role: string }) => m.role === 'tool');
    expect(toolResult.content).toContain('BLOCKED');
    expect(toolResult.content).toContain('approvals.cron_mode: approve');
    expect(t.deps.agent.hub.pendingApproval(seen.find((e) => e.type === 'task_finished')!.session_id as string).pending_count).toBe(0);
    const outputs = await tasks.jobs.listOutputs(job.id);
    expect(outputs[0]).toMatchObject({ status: 'ok' });
    expect(outputs[0]!.response).toContain('I could not clean it.');
  });
});

describe('who runs the jobs', () => {
  it('is nobody here with HERMES_WEBUI_SCHEDULER=off, and the gateway when it answers chat turns (this server runs nothing)', async () => {
    const { makeTestApp } = await import('../helpers/app.js');
    const off = await makeTestApp({ env: { HERMES_WEBUI_SCHEDULER: 'off' } });
    const gw = await makeTestApp({ env: { HERMES_WEBUI_CHAT_BACKEND: 'gateway', HERMES_WEBUI_GATEWAY_BASE_URL: 'http://127.0.0.1:9' } });
    try {
      expect(off.deps.cron!.scheduler).toBeNull();
      expect(await off.deps.cron!.forHome(off.deps.homes.defaultHome)).toMatchObject({ kind: 'none', runner: null });
      const tasks = await gw.deps.cron!.forHome(gw.deps.homes.defaultHome);
      expect(tasks).toMatchObject({ kind: 'gateway', runner: null });
      const job = await tasks.jobs.create({ prompt: 'p', schedule: 'every 1h' });
      await tasks.jobs.mutate(job.id, (j) => {
        j.next_run_at = new Date(Date.now() - 60_000).toISOString();
      });
      await gw.deps.cron!.scheduler!.tick();
      expect(gw.deps.cron!.scheduler!.runnerFor(gw.deps.homes.defaultHome).running()).toEqual([]);
      expect(await tasks.jobs.get(job.id)).toMatchObject({ state: 'scheduled', last_run_at: null });
    } finally {
      await gw.deps.cron?.scheduler?.stop();
      await off.close();
      await gw.close();
    }
  });
});
