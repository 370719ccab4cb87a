import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';

/** Task runs (source `cron`) in the session list: hidden by default, `?source=cron` lists only them. */
describe.each(['memory', 'fs'] as const)('GET /api/sessions and task sessions (%s)', (storage) => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp({ storage });
  });
  afterEach(async () => {
    await t.close();
  });

  async function seed() {
    const chat = await t.newSession();
    const task = await t.newSession();
    await t.deps.sessions.update(task, { session_source: 'cron', title: 'Inbox summary' });
    return { chat, task };
  }
  const ids = (body: any) => body.sessions.map((s: any) => s.session_id);

  it('leaves task sessions out of the normal list and counts them', async () => {
    const { chat, task } = await seed();
    const all = await t.call('GET', '/api/sessions');
    expect(all.status).toBe(200);
    expect(ids(all.body)).toEqual([chat]);
    expect(all.body).toMatchObject({ total: 1, cron_count: 1 });

    const only = await t.call('GET', '/api/sessions?source=cron');
    expect(ids(only.body)).toEqual([task]);
    expect(only.body.sessions[0]).toMatchObject({ session_source: 'cron', title: 'Inbox summary' });
    expect(only.body).toMatchObject({ total: 1, cron_count: 1 });

    // Pages follow the same rule.
    const page = await t.call('GET', '/api/sessions?limit=10');
    expect(ids(page.body)).toEqual([chat]);
    const tasksPage = await t.call('GET', '/api/sessions?limit=10&source=cron');
    expect(ids(tasksPage.body)).toEqual([task]);
  });

  it('shows them in the normal list with show_cron_sessions, and the ETag changes with the setting', async () => {
    const { chat, task } = await seed();
    const before = await t.call('GET', '/api/sessions');
    const saved = await t.call('POST', '/api/settings', { show_cron_sessions: true });
    expect(saved.status).toBe(200);
    const after = await t.call('GET', '/api/sessions');
    expect(ids(after.body).sort()).toEqual([chat, task].sort());
    expect(after.body.cron_count).toBe(1);
    expect(after.res.headers.get('ETag')).not.toBe(before.res.headers.get('ETag'));
  });

  it('counts no tasks when there are none, and refuses an unknown source', async () => {
    const chat = await t.newSession();
    const all = await t.call('GET', '/api/sessions');
    expect(ids(all.body)).toEqual([chat]);
    expect(all.body).not.toHaveProperty('cron_count');
    expect((await t.call('GET', '/api/sessions?source=cron')).body).toMatchObject({ sessions: [], total: 0, cron_count: 0 });
    const bad = await t.call('GET', '/api/sessions?source=telegram');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toEqual(expect.any(String));
  });
});
