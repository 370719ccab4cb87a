import { mkdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';
import { utcOffset } from '../../src/http/server-time.js';

/**
 * The incumbent's session endpoints, driven with the request shapes its clients send (every
 * field its sidebar and composer put in, and some it does not know), checked against the answer
 * fields those clients read (inventory §1.4, api/routes.py and api/session_ops.py).
 */
let t: ChatHarness;
beforeAll(async () => {
  t = await makeChatApp({ env: {} });
});
afterAll(async () => t.close());

/** The body the incumbent's "new chat" button posts, plus a field nobody knows. */
const newBody = (extra: Record<string, unknown> = {}) => ({
  model: 'test-model',
  model_provider: 'custom',
  profile: 'default',
  project_id: null,
  prev_session_id: null,
  enabled_toolsets: null,
  worktree: false,
  some_future_field: { nested: true },
  ...extra,
});

async function turn(sid: string, text: string, answer: string) {
  t.model.enqueue([{ text: answer }]);
  const start = await t.start(sid, text);
  expect(start.status).toBe(200);
  await t.stream(start.body.stream_id);
}

describe('GET /api/sessions', () => {
  it('answers the incumbent list fields with server_time (epoch seconds) and server_tz (%z)', async () => {
    await t.call('POST', '/api/session/new', newBody());
    const before = Date.now() / 1000;
    const r = await t.call('GET', '/api/sessions?include_archived=0&exclude_hidden=1&archived_limit=50&sidebar_source=webui&all_profiles=0');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ sessions: expect.any(Array), archived_count: 0, all_profiles: false, active_profile: 'default' });
    expect(r.body.server_time).toBeGreaterThanOrEqual(before - 1);
    expect(r.body.server_time).toBeLessThanOrEqual(Date.now() / 1000 + 1);
    expect(r.body.server_tz).toMatch(/^[+-]\d{4}$/);
    expect(r.body.server_tz).toBe(utcOffset(new Date()));
    const row = r.body.sessions[0];
    for (const k of [
      'session_id',
      'title',
      'workspace',
      'model',
      'message_count',
      'created_at',
      'updated_at',
      'last_message_at',
      'pinned',
      'archived',
      'project_id',
      'profile',
    ])
      expect(row).toHaveProperty(k);
  });

  it('keeps server_time fresh (whole seconds) on a cached body and on paged answers', async () => {
    const a = await t.call('GET', '/api/sessions');
    expect(Number.isInteger(a.body.server_time)).toBe(true);
    await new Promise((r) => setTimeout(r, (a.body.server_time + 1.05) * 1000 - Date.now()));
    const b = await t.call('GET', '/api/sessions');
    expect(b.body.sessions).toEqual(a.body.sessions);
    expect(b.body.server_time).toBeGreaterThan(a.body.server_time);
    const paged = await t.call('GET', '/api/sessions?limit=5');
    expect(paged.body).toHaveProperty('next_cursor');
    expect(paged.body.server_tz).toMatch(/^[+-]\d{4}$/);
  });

  it('formats %z offsets east and west of UTC', () => {
    const at = (minutesWest: number) => ({ getTimezoneOffset: () => minutesWest }) as Date;
    expect(utcOffset(at(0))).toBe('+0000');
    expect(utcOffset(at(-330))).toBe('+0530');
    expect(utcOffset(at(240))).toBe('-0400');
  });
});

describe('POST /api/session/new and /update', () => {
  it('expands ~ in the workspace as the incumbent does', async () => {
    // HOME is the test's own folder (makeChatApp's env has none: the server user's home then).
    const home = join(t.dir, 'home');
    const app = await makeChatApp({ env: { HOME: home } });
    try {
      await mkdir(join(home, 'project'), { recursive: true });
      const r = await app.call('POST', '/api/session/new', newBody({ workspace: '~/project' }));
      expect(r.status).toBe(200);
      expect(r.body.session.workspace).toBe(await realpath(join(home, 'project')));
      const u = await app.call('POST', '/api/session/update', {
        session_id: r.body.session.session_id,
        workspace: '~',
        model: 'test-model',
        model_provider: 'custom',
      });
      expect(u.status).toBe(200);
      expect(u.body.session.workspace).toBe(await realpath(home));
      // Still refused: a relative path, and ~user forms (which would name another account's home).
      expect((await app.call('POST', '/api/session/new', newBody({ workspace: 'project' }))).status).toBe(400);
      expect((await app.call('POST', '/api/session/new', newBody({ workspace: '~root/x' }))).status).toBe(400);
    } finally {
      await app.close();
    }
  });

  it('answers {session: {…, messages: []}} and ignores fields it does not use', async () => {
    const r = await t.call('POST', '/api/session/new', newBody());
    expect(r.status).toBe(200);
    expect(r.body.session).toMatchObject({ model: 'test-model', messages: [], message_count: 0, profile: 'default', _msg_limit_max: 500 });
    expect(r.body.session.session_id).toMatch(/^[0-9a-f]{12}$/);
  });
});

describe('GET /api/session', () => {
  it('400 without session_id, 404 "Session not found" for an unknown one', async () => {
    expect(await t.call('GET', '/api/session')).toMatchObject({ status: 400, body: { error: expect.stringContaining('session_id') } });
    expect(await t.call('GET', '/api/session?session_id=000000000000')).toMatchObject({ status: 404, body: { error: 'Session not found' } });
  });

  it('pages the tail with msg_limit / msg_before and says so with the incumbent fields', async () => {
    const sid = await t.newSession();
    await turn(sid, 'one', 'first');
    await turn(sid, 'two', 'second');
    const r = await t.call('GET', `/api/session?session_id=${sid}&messages=1&msg_limit=2&resolve_model=1&expand_renderable=0`);
    expect(r.status).toBe(200);
    expect(r.body.session).toMatchObject({ session_id: sid, message_count: 4, _messages_truncated: true, _messages_offset: 2, _msg_limit_max: 500 });
    expect(r.body.session.messages.map((m: any) => m.content)).toEqual(['two', 'second']);
    const older = await t.call('GET', `/api/session?session_id=${sid}&messages=1&msg_limit=2&msg_before=2`);
    expect(older.body.session.messages.map((m: any) => m.content)).toEqual(['one', 'first']);
  });
});

describe('session operations', () => {
  it('rename {session_id, title} → {session}; 400 without an id, 404 for an unknown one', async () => {
    const sid = await t.newSession();
    const r = await t.call('POST', '/api/session/rename', { session_id: sid, title: 'Renamed', client_ts: 1 });
    expect(r).toMatchObject({ status: 200, body: { session: { session_id: sid, title: 'Renamed' } } });
    expect((await t.call('POST', '/api/session/rename', { title: 'x' })).status).toBe(400);
    expect(await t.call('POST', '/api/session/rename', { session_id: '000000000000', title: 'x' })).toMatchObject({
      status: 404,
      body: { error: 'Session not found' },
    });
  });

  it('retry → {ok, last_user_text, removed_count}; undo → {ok, removed_count, removed_preview}', async () => {
    const sid = await t.newSession();
    await turn(sid, 'first question', 'first answer');
    await turn(sid, 'a second question that is longer than forty characters in all', 'second answer');
    const retry = await t.call('POST', '/api/session/retry', { session_id: sid, extra: true });
    expect(retry).toMatchObject({
      status: 200,
      body: { ok: true, last_user_text: 'a second question that is longer than forty characters in all', removed_count: 2 },
    });
    const undo = await t.call('POST', '/api/session/undo', { session_id: sid });
    expect(undo).toMatchObject({ status: 200, body: { ok: true, removed_count: 2, removed_preview: 'first question' } });
    // Nothing left: the incumbent's 400 texts.
    expect(await t.call('POST', '/api/session/retry', { session_id: sid })).toMatchObject({ status: 400, body: { error: 'No previous message to retry.' } });
    expect(await t.call('POST', '/api/session/undo', { session_id: sid })).toMatchObject({ status: 400, body: { error: 'Nothing to undo.' } });
  });

  it('branch → {session_id, title, parent_session_id}; duplicate → {session}', async () => {
    const sid = await t.newSession();
    await turn(sid, 'q', 'a');
    const branch = await t.call('POST', '/api/session/branch', { session_id: sid, keep_count: 2, title: 'Fork' });
    expect(branch).toMatchObject({ status: 200, body: { title: 'Fork', parent_session_id: sid } });
    expect(branch.body.session_id).not.toBe(sid);
    const dup = await t.call('POST', '/api/session/duplicate', { session_id: sid });
    expect(dup.status).toBe(200);
    expect(dup.body.session.session_id).not.toBe(sid);
    expect(dup.body.session.messages).toHaveLength(2);
  });

  it('pin, archive, clear, truncate take the incumbent bodies', async () => {
    const sid = await t.newSession();
    await turn(sid, 'q', 'a');
    expect(await t.call('POST', '/api/session/pin', { session_id: sid, pinned: true })).toMatchObject({ status: 200, body: { session: { pinned: true } } });
    expect(await t.call('POST', '/api/session/archive', { session_id: sid, archived: true })).toMatchObject({
      status: 200,
      body: { session: { archived: true } },
    });
    expect(await t.call('POST', '/api/session/truncate', { session_id: sid, keep_count: 1 })).toMatchObject({
      status: 200,
      body: { session: { message_count: 1 } },
    });
    expect(await t.call('POST', '/api/session/clear', { session_id: sid })).toMatchObject({ status: 200, body: { ok: true, session: { message_count: 0 } } });
  });

  it('status {session_id} → its card; delete → {ok}, then 404', async () => {
    const sid = await t.newSession();
    const st = await t.call('GET', `/api/session/status?session_id=${sid}`);
    expect(st.body).toMatchObject({ session_id: sid, agent_running: false, message_count: 0 });
    expect(await t.call('POST', '/api/session/delete', { session_id: sid })).toMatchObject({ status: 200, body: { ok: true } });
    // The incumbent deletes idempotently: a second delete (another tab, a retried script) is ok too.
    expect(await t.call('POST', '/api/session/delete', { session_id: sid })).toMatchObject({ status: 200, body: { ok: true } });
    expect((await t.call('GET', `/api/session?session_id=${sid}`)).status).toBe(404);
    expect((await t.call('POST', '/api/session/delete', {})).status).toBe(400);
  });
});
