import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';

/** Approval and clarify endpoints and the workspace suggester with the incumbent's bodies and texts. */
let t: TestApp;
let sid: string;
beforeAll(async () => {
  t = await makeTestApp();
  sid = await t.newSession();
});
afterAll(async () => t.close());

describe('approvals and clarify', () => {
  it('pending answers {pending, pending_count} and {pending} when nothing waits', async () => {
    expect((await t.call('GET', `/api/approval/pending?session_id=${sid}&x=1`)).body).toEqual({ pending: null, pending_count: 0 });
    expect((await t.call('GET', `/api/clarify/pending?session_id=${sid}`)).body).toEqual({ pending: null });
  });

  it("respond: 400 'session_id is required', 'Invalid choice: x', 'response is required'", async () => {
    expect(await t.call('POST', '/api/approval/respond', { choice: 'once' })).toMatchObject({ status: 400, body: { error: 'session_id is required' } });
    expect(await t.call('POST', '/api/approval/respond', { session_id: sid, choice: 'bogus' })).toMatchObject({
      status: 400,
      body: { error: 'Invalid choice: bogus' },
    });
    expect(await t.call('POST', '/api/clarify/respond', { answer: 'x' })).toMatchObject({ status: 400, body: { error: 'session_id is required' } });
    expect(await t.call('POST', '/api/clarify/respond', { session_id: sid })).toMatchObject({ status: 400, body: { error: 'response is required' } });
  });

  it('a stale clarify answer is 409 {ok: false, stale: true}; `answer` stands for `response`', async () => {
    const r = await t.call('POST', '/api/clarify/respond', { session_id: sid, answer: 'x', clarify_id: 'gone' });
    expect(r).toMatchObject({ status: 409, body: { ok: false, stale: true } });
    expect(typeof r.body.error).toBe('string');
  });

  it('an approval without a choice is a denial (nothing pending here: 404)', async () => {
    const r = await t.call('POST', '/api/approval/respond', { session_id: sid });
    expect(r.status).toBe(404);
    expect(typeof r.body.error).toBe('string');
  });
});

describe('GET /api/workspaces/suggest', () => {
  it('answers {suggestions, prefix} for a path prefix', async () => {
    const prefix = t.workspace.slice(0, -2);
    const r = await t.call('GET', `/api/workspaces/suggest?prefix=${encodeURIComponent(prefix)}`);
    expect(r.status).toBe(200);
    expect(r.body.prefix).toBe(prefix);
    expect(r.body.suggestions).toContain(t.workspace);
  });
});
