import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { startPushEndpoint, verifyVapid, type PushEndpoint } from '../fixtures/push-endpoint.js';

const LOCAL = { HERMES_WEBUI_PUSH_ALLOW_LOCAL: '1' };

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('Web Push delivery', () => {
  const open: Array<TestApp | ChatHarness | PushEndpoint> = [];
  afterEach(async () => {
    for (const o of open.splice(0).reverse()) await o.close();
  });

  async function subscribed(t: TestApp, ep: PushEndpoint, path?: string) {
    const sub = ep.subscription(path);
    const r = await t.call('POST', '/api/push/subscribe', sub);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return sub;
  }

  it('sends RFC 8030 headers, a VAPID signature the public key verifies, and an aes128gcm body the subscription decrypts', async () => {
    const t = await makeTestApp({ env: LOCAL });
    open.push(t);
    const ep = await startPushEndpoint();
    open.push(ep);
    const sub = await subscribed(t, ep);
    const { public_key } = (await t.call('GET', '/api/push/vapid-public-key')).body;

    t.deps.events.emit({
      type: 'task_finished',
      profile: 'default',
      job_id: 'abc123',
      job_name: 'Morning inbox summary',
      session_id: 'sess01',
      status: 'ok',
      output_file: 'cron/output/abc123/2026-12-01_09-00-00.md',
      finished_at: 1,
    });
    const push = await ep.next();
    expect(push.path).toBe('/push/1');
    expect(push.headers['content-encoding']).toBe('aes128gcm');
    expect(push.headers['content-type']).toBe('application/octet-stream');
    expect(Number(push.headers.ttl)).toBe(86400);
    expect(push.headers.urgency).toBe('normal');
    expect(push.headers.topic).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const claims = verifyVapid(push.headers.authorization, public_key, new URL(sub.endpoint).origin);
    expect(String(claims.sub)).toMatch(/^mailto:/);

    const payload = JSON.parse(ep.decrypt(push.body));
    expect(payload).toEqual({
      title: 'Task finished: Morning inbox summary',
      body: 'The scheduled run completed.',
      tag: 'hermes-task-abc123',
      data: { kind: 'task', job_id: 'abc123', session_id: 'sess01', url: '/session/sess01' },
    });
    // Subscriptions are per profile: a browser in profile `work` hears only `work`'s tasks.
    await mkdir(join(t.hermesHome, 'profiles', 'work'), { recursive: true });
    const work = await startPushEndpoint();
    open.push(work);
    expect((await t.call('POST', '/api/push/subscribe', work.subscription('/w'), { Cookie: 'hermes_profile=work' })).status).toBe(200);
    expect((await t.deps.push!.store.list('work')).map((s) => s.endpoint)).toEqual([work.subscription('/w').endpoint]);
    t.deps.events.emit({
      type: 'task_finished',
      profile: 'work',
      job_id: 'j2',
      job_name: 'Sync',
      session_id: null,
      status: 'error',
      output_file: null,
      finished_at: 2,
    });
    expect(JSON.parse(work.decrypt((await work.next()).body))).toMatchObject({ title: 'Task failed: Sync', data: { kind: 'task', url: '/panel/tasks' } });
    expect(ep.received).toHaveLength(1);
  });

  it('an approval waiting in a real turn pushes the command preview and its ids; Allow once from it finishes the turn; a stale id answers nothing', async () => {
    const t = await makeChatApp({ env: LOCAL, extraYaml: 'approvals:\n  mode: manual\n' });
    open.push(t);
    const ep = await startPushEndpoint();
    open.push(ep);
    await subscribed(t, ep);
    const sid = await t.newSession();
    t.model.enqueue([{ toolCall: { id: 'run1', name: 'terminal', args: { command: 'rm -rf build' } } }], [{ text: 'All finished, the build folder is gone.' }]);
    const { stream_id } = (await t.start(sid, 'please clean the build folder')).body;

    const push = await ep.next();
    expect(push.headers.urgency).toBe('high');
    const payload = JSON.parse(ep.decrypt(push.body));
    const pending = (await t.call('GET', `/api/approval/pending?session_id=${sid}`)).body.pending;
    expect(payload).toEqual({
      title: 'Approval needed',
      body: 'rm -rf build',
      tag: `hermes-approval-${sid}`,
      data: { kind: 'approval', session_id: sid, approval_id: pending.approval_id, url: `/session/${sid}` },
      actions: [
        { action: 'allow', title: 'Allow once' },
        { action: 'deny', title: 'Deny' },
      ],
    });
    expect(push.body.length).toBeLessThan(3 * 1024);

    // A notification for an approval that is gone never answers the one waiting now.
    const stale = await t.call('POST', '/api/approval/respond', { session_id: sid, approval_id: 'ffffffffffffffff', choice: 'once' });
    expect(stale.status).toBe(404);
    expect(stale.body.error).toMatch(/not found/);
    const other = await t.call('POST', '/api/approval/respond', { session_id: await t.newSession(), approval_id: pending.approval_id, choice: 'once' });
    expect(other.status).toBe(404);
    expect((await t.call('GET', `/api/approval/pending?session_id=${sid}`)).body.pending.approval_id).toBe(pending.approval_id);

    const answered = await t.call('POST', '/api/approval/respond', { session_id: sid, approval_id: payload.data.approval_id, choice: 'once' });
    expect(answered.body).toMatchObject({ ok: true, choice: 'once', approval_id: pending.approval_id });
    const frames = await t.stream(stream_id);
    expect(frames.some((f) => f.event === 'done')).toBe(true);
    // The command ran: the model was sent its result, not a refusal.
    const ran = t
      .turnRequests()
      .at(-1)
      .messages.findLast((m: any) => m.role === 'tool' && m.tool_call_id === 'run1')?.content;
    expect(JSON.parse(ran).exit_code).toBe(0);

    // The finished turn is announced with the session's title and a short preview of the answer.
    const done = JSON.parse(ep.decrypt((await ep.next()).body));
    const title = (await t.call('GET', `/api/session?session_id=${sid}`)).body.session.title;
    expect(done).toEqual({
      title,
      body: 'All finished, the build folder is gone.',
      tag: `hermes-turn-${sid}`,
      data: { kind: 'turn', session_id: sid, url: `/session/${sid}` },
    });
  });

  it('redacts a secret in the answer preview and cuts a long command to fit the payload cap', async () => {
    const t = await makeChatApp({ env: LOCAL, extraYaml: 'approvals:\n  mode: manual\n' });
    open.push(t);
    const ep = await startPushEndpoint();
    open.push(ep);
    await subscribed(t, ep);
    const sid = await t.newSession();
    const long = `echo ${'x'.repeat(4000)} && rm -rf build`;
    t.model.enqueue(
      [{ toolCall: { id: 'run1', name: 'terminal', args: { command: long } } }],
      [{ text: 'Your key is sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD, keep it safe.' }],
    );
    const { stream_id } = (await t.start(sid, 'go')).body;
    const approval = JSON.parse(ep.decrypt((await ep.next()).body));
    expect(approval.body.length).toBeLessThanOrEqual(1500);
    expect(approval.body.endsWith('…')).toBe(true);
    expect(long.startsWith(approval.body.slice(0, -1))).toBe(true);
    await t.call('POST', '/api/approval/respond', { session_id: sid, approval_id: approval.data.approval_id, choice: 'deny' });
    await t.stream(stream_id);
    const done = JSON.parse(ep.decrypt((await ep.next()).body));
    expect(done.body).not.toContain('sk-proj-abcdefghijklmnopqrstuvwxyz');
    expect(done.body).toMatch(/^Your key is .*\*\*\*/);
  });

  it('removes a subscription the push service says is gone (410) and keeps one that failed otherwise', async () => {
    const t = await makeTestApp({ env: LOCAL });
    open.push(t);
    const gone = await startPushEndpoint();
    open.push(gone);
    const flaky = await startPushEndpoint();
    open.push(flaky);
    await subscribed(t, gone, '/gone');
    await subscribed(t, flaky, '/flaky');
    gone.answer(410);
    flaky.answer(500);
    const emit = (n: number) =>
      t.deps.events.emit({
        type: 'task_finished',
        profile: 'default',
        job_id: `j${n}`,
        job_name: 'n',
        session_id: null,
        status: 'ok',
        output_file: null,
        finished_at: n,
      });
    emit(1);
    await gone.next();
    await flaky.next();
    await until(async () => (await t.deps.push!.store.list()).length === 1, 'the 410 subscription to go');
    expect((await t.deps.push!.store.list())[0]!.endpoint).toBe(flaky.subscription('/flaky').endpoint);
    emit(2);
    await flaky.next();
    // A failing push service is logged once, not once per message.
    await until(async () => t.logger.errors.some((e) => e.msg === 'web push not delivered'), 'the failure log line');
    expect(t.logger.errors.filter((e) => e.msg === 'web push not delivered')).toHaveLength(1);
    expect(gone.received).toHaveLength(1);
  });

  it('re-checks the endpoint at send time: a subscription stored while local endpoints were allowed is not sent to once they are not', async () => {
    const ep = await startPushEndpoint();
    open.push(ep);
    const t = await makeTestApp();
    open.push(t);
    await t.deps.push!.store.put({ ...ep.subscription(), profile: 'default', created_at: 1, expiration_time: null, user_agent: 'Chrome on Linux' });
    t.deps.events.emit({
      type: 'task_finished',
      profile: 'default',
      job_id: 'j',
      job_name: 'n',
      session_id: null,
      status: 'ok',
      output_file: null,
      finished_at: 1,
    });
    await until(async () => t.logger.errors.some((e) => e.msg === 'web push not delivered'), 'the refusal log line');
    expect(String(t.logger.errors.find((e) => e.msg === 'web push not delivered')!.reason)).toMatch(/https:\/\//);
    expect(ep.received).toHaveLength(0);
  });

  it('a question waiting pushes its text with the session and clarify ids', async () => {
    const t = await makeTestApp({ env: LOCAL });
    open.push(t);
    const ep = await startPushEndpoint();
    open.push(ep);
    await subscribed(t, ep);
    const sid = await t.newSession();
    const stop = new AbortController();
    const { pending, answer } = t.deps.agent.hub.requestClarify(sid, 'Which branch should I deploy?', ['main', 'next'], 60_000, stop.signal);
    const push = await ep.next();
    expect(push.headers.urgency).toBe('high');
    expect(JSON.parse(ep.decrypt(push.body))).toEqual({
      title: 'Hermes has a question',
      body: 'Which branch should I deploy?',
      tag: `hermes-clarify-${sid}`,
      data: { kind: 'clarify', session_id: sid, clarify_id: pending.clarify_id, url: `/session/${sid}` },
    });
    stop.abort();
    await expect(answer).rejects.toBeDefined();
  });
});
