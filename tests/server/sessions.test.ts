import { mkdir, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';

/** `count` user/assistant messages whose content is m0, m1, … */
function messages(count: number, from = 0) {
  return Array.from({ length: count }, (_, i) => ({
    role: i % 2 === 0 ? 'user' : 'assistant',
    content: `m${from + i}`,
    timestamp: 1000 + from + i,
  }));
}

describe.each(['memory', 'fs'] as const)('session routes (%s storage)', (storage) => {
  let t: TestApp;
  /** The clock the store and the routes share; tests move it by hand so `updated_at` is predictable. */
  let now: number;

  beforeEach(async () => {
    t = await makeTestApp({ storage });
    now = 1_700_000_000;
    t.deps.clock.now = () => now;
  });
  afterEach(async () => {
    await t.close();
  });

  /** Creates a session at the given clock time, optionally titled. */
  async function sessionAt(at: number, title?: string): Promise<string> {
    now = at;
    const id = await t.newSession();
    if (title !== undefined) {
      const r = await t.call('POST', '/api/session/rename', { session_id: id, title });
      expect(r.status).toBe(200);
    }
    return id;
  }

  async function getSession(id: string, query = '') {
    return t.call('GET', `/api/session?session_id=${id}${query}`);
  }

  describe('GET /api/sessions', () => {
    it('lists newest updated_at first, and a later change moves a session to the top', async () => {
      const a = await sessionAt(1000);
      const b = await sessionAt(2000);
      const c = await sessionAt(3000);
      let r = await t.call('GET', '/api/sessions');
      expect(r.status).toBe(200);
      expect(r.body.sessions.map((s: any) => s.session_id)).toEqual([c, b, a]);
      expect(r.body.total).toBe(3);
      expect(r.body.archived_count).toBe(0);
      expect(r.body).not.toHaveProperty('unreadable_sessions');

      now = 4000;
      await t.call('POST', '/api/session/rename', { session_id: a, title: 'bumped' });
      r = await t.call('GET', '/api/sessions');
      expect(r.body.sessions.map((s: any) => s.session_id)).toEqual([a, c, b]);
      expect(r.body.sessions[0]).toMatchObject({ title: 'bumped', updated_at: 4000 });
    });

    it('answers a repeat request with the current ETag with a bodiless 304, and a changed list with 200', async () => {
      const a = await sessionAt(1000);
      const first = await t.call('GET', '/api/sessions');
      const etag = first.res.headers.get('etag')!;
      expect(etag).toMatch(/^W\/".+"$/);
      const again = await t.app.request('/api/sessions', { headers: { 'If-None-Match': etag } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
      // Another variant of the list has its own tag.
      const archived = await t.call('GET', '/api/sessions?include_archived=1');
      expect(archived.res.headers.get('etag')).not.toBe(etag);
      now = 2000;
      await t.call('POST', '/api/session/rename', { session_id: a, title: 'changed' });
      const after = await t.app.request('/api/sessions', { headers: { 'If-None-Match': etag } });
      expect(after.status).toBe(200);
      expect(after.headers.get('etag')).not.toBe(etag);
      expect(((await after.json()) as any).sessions[0].title).toBe('changed');
    });

    it('breaks updated_at ties by session_id, so the order is stable', async () => {
      const ids = [await sessionAt(500), await sessionAt(500), await sessionAt(500)];
      const r = await t.call('GET', '/api/sessions');
      expect(r.body.sessions.map((s: any) => s.session_id)).toEqual([...ids].sort());
    });

    it('rows are compact: metadata and counts, never the transcript', async () => {
      const id = await sessionAt(1000);
      await t.deps.sessions.appendMessages(id, messages(3));
      const r = await t.call('GET', '/api/sessions');
      const row = r.body.sessions[0];
      expect(row).toMatchObject({ session_id: id, title: 'Untitled', message_count: 3, user_message_count: 2, pinned: false, archived: false });
      expect(row).not.toHaveProperty('messages');
      expect(row).not.toHaveProperty('tool_calls');
    });

    it('hides archived sessions unless include_archived is set, and always counts them', async () => {
      const a = await sessionAt(1000);
      const b = await sessionAt(2000);
      const archived = await t.call('POST', '/api/session/archive', { session_id: a });
      expect(archived.status).toBe(200);

      let r = await t.call('GET', '/api/sessions');
      expect(r.body.sessions.map((s: any) => s.session_id)).toEqual([b]);
      expect(r.body.total).toBe(1);
      expect(r.body.archived_count).toBe(1);

      for (const flag of ['1', 'true', 'yes', 'on']) {
        r = await t.call('GET', `/api/sessions?include_archived=${flag}`);
        expect(r.status).toBe(200);
        expect(r.body.total).toBe(2);
        expect(r.body.archived_count).toBe(1);
        expect(new Set(r.body.sessions.map((s: any) => s.session_id))).toEqual(new Set([a, b]));
        expect(r.body.sessions.find((s: any) => s.session_id === a).archived).toBe(true);
      }
      for (const flag of ['0', 'false', 'no', 'off', '']) {
        r = await t.call('GET', `/api/sessions?include_archived=${flag}`);
        expect(r.status).toBe(200);
        expect(r.body.total).toBe(1);
      }
    });

    it('pages with limit and offset; total counts every matching row', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push(await sessionAt(1000 + i));
      const newestFirst = [...ids].reverse();

      let r = await t.call('GET', '/api/sessions?limit=2');
      expect(r.body.sessions.map((s: any) => s.session_id)).toEqual(newestFirst.slice(0, 2));
      expect(r.body.total).toBe(5);

      r = await t.call('GET', '/api/sessions?limit=2&offset=2');
      expect(r.body.sessions.map((s: any) => s.session_id)).toEqual(newestFirst.slice(2, 4));
      expect(r.body.total).toBe(5);

      r = await t.call('GET', '/api/sessions?offset=4');
      expect(r.body.sessions.map((s: any) => s.session_id)).toEqual(newestFirst.slice(4));

      r = await t.call('GET', '/api/sessions?offset=50&limit=10');
      expect(r.status).toBe(200);
      expect(r.body.sessions).toEqual([]);
      expect(r.body.total).toBe(5);
    });

    it.each([
      ['include_archived=maybe', 'include_archived'],
      ['limit=-1', 'limit'],
      ['limit=abc', 'limit'],
      ['limit=1.5', 'limit'],
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['offset=-3', 'offset'],
      ['cursor=not-a-cursor', 'cursor'],
    ])('refuses a bad query (%s) with 400 naming the parameter', async (query, name) => {
      const r = await t.call('GET', `/api/sessions?${query}`);
      expect(r.status).toBe(400);
      expect(typeof r.body.error).toBe('string');
      expect(r.body.error).toContain(name);
    });
  });

  describe('GET /api/session', () => {
    it('returns the whole session with its messages', async () => {
      const id = await sessionAt(1000);
      await t.deps.sessions.appendMessages(id, [{ role: 'user', content: 'hi', timestamp: 1 }]);
      const r = await getSession(id);
      expect(r.status).toBe(200);
      expect(r.body.session).toMatchObject({
        session_id: id,
        title: 'Untitled',
        message_count: 1,
        messages: [{ role: 'user', content: 'hi', timestamp: 1 }],
        tool_calls: [],
        _messages_truncated: false,
        _messages_offset: 0,
        _msg_limit_max: 500,
      });
    });

    it('404s an unknown session', async () => {
      const r = await getSession('abcdef123456');
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: 'Session not found' });
    });

    it('400s a missing session_id', async () => {
      const r = await t.call('GET', '/api/session');
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: 'session_id is required' });
    });

    it.each(['..', 'a%2Fb', 'bad%20id', 'x'.repeat(129)])('400s an invalid session_id (%s)', async (id) => {
      const r = await t.call('GET', `/api/session?session_id=${id}`);
      expect(r.status).toBe(400);
      expect(r.body.error).toContain('Invalid session id');
    });

    it('messages=0 leaves the transcript out but keeps the count', async () => {
      const id = await sessionAt(1000);
      await t.deps.sessions.appendMessages(id, messages(4));
      const r = await getSession(id, '&messages=0');
      expect(r.status).toBe(200);
      expect(r.body.session.messages).toEqual([]);
      expect(r.body.session.message_count).toBe(4);
      expect(r.body.session.session_id).toBe(id);
    });

    it('msg_limit returns the tail window with the truncation marker and offset', async () => {
      const id = await sessionAt(1000);
      await t.deps.sessions.appendMessages(id, messages(10));
      let r = await getSession(id, '&msg_limit=3');
      expect(r.status).toBe(200);
      expect(r.body.session.messages.map((m: any) => m.content)).toEqual(['m7', 'm8', 'm9']);
      expect(r.body.session._messages_truncated).toBe(true);
      expect(r.body.session._messages_offset).toBe(7);
      expect(r.body.session.message_count).toBe(10);

      // A window as large as the transcript is not truncated.
      r = await getSession(id, '&msg_limit=10');
      expect(r.body.session.messages).toHaveLength(10);
      expect(r.body.session._messages_truncated).toBe(false);
      expect(r.body.session._messages_offset).toBe(0);
    });

    it('msg_before pages backwards through older messages', async () => {
      const id = await sessionAt(1000);
      await t.deps.sessions.appendMessages(id, messages(10));
      let r = await getSession(id, '&msg_limit=3&msg_before=7');
      expect(r.body.session.messages.map((m: any) => m.content)).toEqual(['m4', 'm5', 'm6']);
      expect(r.body.session._messages_offset).toBe(4);
      expect(r.body.session._messages_truncated).toBe(true);

      r = await getSession(id, '&msg_limit=3&msg_before=2');
      expect(r.body.session.messages.map((m: any) => m.content)).toEqual(['m0', 'm1']);
      expect(r.body.session._messages_offset).toBe(0);
      expect(r.body.session._messages_truncated).toBe(true);

      r = await getSession(id, '&msg_before=5');
      expect(r.body.session.messages.map((m: any) => m.content)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);

      r = await getSession(id, '&msg_limit=2&msg_before=99');
      expect(r.body.session.messages.map((m: any) => m.content)).toEqual(['m8', 'm9']);
      expect(r.body.session._messages_offset).toBe(8);
    });

    it('caps msg_limit at 500', async () => {
      const id = await sessionAt(1000);
      await t.deps.sessions.appendMessages(id, messages(600));
      const r = await getSession(id, '&msg_limit=10000');
      expect(r.status).toBe(200);
      expect(r.body.session.messages).toHaveLength(500);
      expect(r.body.session.messages[0].content).toBe('m100');
      expect(r.body.session.messages[499].content).toBe('m599');
      expect(r.body.session._messages_offset).toBe(100);
      expect(r.body.session._messages_truncated).toBe(true);
      expect(r.body.session.message_count).toBe(600);
    });

    it.each(['msg_limit=-1', 'msg_limit=x', 'msg_before=2.5', 'messages=perhaps'])('400s a bad window parameter (%s)', async (q) => {
      const id = await sessionAt(1000);
      const r = await getSession(id, `&${q}`);
      expect(r.status).toBe(400);
      expect(r.body.error).toContain(q.split('=')[0]);
    });
  });

  describe('POST /api/session/new', () => {
    it('creates a session with the defaults', async () => {
      now = 1234.5;
      const r = await t.call('POST', '/api/session/new', {});
      expect(r.status).toBe(200);
      const s = r.body.session;
      expect(s.session_id).toMatch(/^[0-9a-f]{12}$/);
      expect(s).toMatchObject({
        title: 'Untitled',
        workspace: t.workspace,
        model: null,
        model_provider: null,
        pinned: false,
        archived: false,
        project_id: null,
        profile: 'default',
        input_tokens: 0,
        output_tokens: 0,
        estimated_cost: null,
        created_at: 1234.5,
        updated_at: 1234.5,
        message_count: 0,
        messages: [],
        tool_calls: [],
      });
      const list = await t.call('GET', '/api/sessions');
      expect(list.body.sessions.map((x: any) => x.session_id)).toEqual([s.session_id]);
    });

    it('accepts an empty body', async () => {
      const res = await t.app.request('/api/session/new', { method: 'POST' });
      expect(res.status).toBe(200);
      expect((await res.json()).session.title).toBe('Untitled');
    });

    it('uses a given workspace (canonicalised) when it exists', async () => {
      const other = join(t.dir, 'other');
      await mkdir(other);
      const r = await t.call('POST', '/api/session/new', { workspace: other + '/' });
      expect(r.status).toBe(200);
      expect(r.body.session.workspace).toBe(await realpath(other));
    });

    it('refuses a workspace that does not exist, is relative, or is a system directory', async () => {
      let r = await t.call('POST', '/api/session/new', { workspace: join(t.dir, 'missing') });
      expect(r.status).toBe(400);
      expect(r.body.error).toContain('Workspace does not exist');

      r = await t.call('POST', '/api/session/new', { workspace: 'relative/path' });
      expect(r.status).toBe(400);
      expect(r.body.error).toContain('absolute');

      r = await t.call('POST', '/api/session/new', { workspace: '/etc' });
      expect(r.status).toBe(403);
      expect(r.body.error).toContain('system directory');

      const list = await t.call('GET', '/api/sessions');
      expect(list.body.total).toBe(0);
    });

    it('404s an unknown project and creates nothing', async () => {
      const r = await t.call('POST', '/api/session/new', { project_id: 'nope' });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: 'Project not found' });
      expect((await t.call('GET', '/api/sessions')).body.total).toBe(0);
    });

    it('assigns a known project', async () => {
      const p = await t.call('POST', '/api/projects/create', { name: 'Work' });
      const r = await t.call('POST', '/api/session/new', { project_id: p.body.project.project_id });
      expect(r.status).toBe(200);
      expect(r.body.session.project_id).toBe(p.body.project.project_id);
    });

    it("keeps the model, lowercases and trims model_provider, and records the browser's profile (not the body's)", async () => {
      const r = await t.call('POST', '/api/session/new', { model: 'GPT-X', model_provider: '  OpenRouter ', profile: 'work' });
      expect(r.status).toBe(200);
      expect(r.body.session).toMatchObject({ model: 'GPT-X', model_provider: 'openrouter', profile: 'default' });

      const blank = await t.call('POST', '/api/session/new', { model_provider: '   ' });
      expect(blank.body.session.model_provider).toBeNull();
    });

    it('uses the last workspace a session was moved to for the next new session', async () => {
      const other = join(t.dir, 'other');
      await mkdir(other);
      const id = await t.newSession();
      const u = await t.call('POST', '/api/session/update', { session_id: id, workspace: other });
      expect(u.status).toBe(200);
      const r = await t.call('POST', '/api/session/new', {});
      expect(r.body.session.workspace).toBe(await realpath(other));
    });

    it('400s a wrongly typed field', async () => {
      const r = await t.call('POST', '/api/session/new', { model: 42 });
      expect(r.status).toBe(400);
      expect(r.body.error).toContain('model');
    });
  });

  describe('POST /api/session/rename', () => {
    it('trims and collapses whitespace in the title and marks it manual', async () => {
      const id = await sessionAt(1000);
      now = 2000;
      const r = await t.call('POST', '/api/session/rename', { session_id: id, title: '  Hello \n  world  ' });
      expect(r.status).toBe(200);
      expect(r.body.session).toMatchObject({ session_id: id, title: 'Hello world', updated_at: 2000 });
      expect(r.body.session).not.toHaveProperty('messages');
      const g = await getSession(id);
      expect(g.body.session.title).toBe('Hello world');
      expect(g.body.session.manual_title).toBe(true);
    });

    it('cuts the title to 80 characters', async () => {
      const id = await sessionAt(1000);
      const r = await t.call('POST', '/api/session/rename', { session_id: id, title: 'x'.repeat(100) });
      expect(r.status).toBe(200);
      expect(r.body.session.title).toBe('x'.repeat(80));
    });

    it('an empty or blank title becomes "Untitled"', async () => {
      const id = await sessionAt(1000, 'Named');
      for (const title of ['', '   ']) {
        const r = await t.call('POST', '/api/session/rename', { session_id: id, title });
        expect(r.status).toBe(200);
        expect(r.body.session.title).toBe('Untitled');
      }
    });

    it('refuses a title over 1000 characters and a missing title', async () => {
      const id = await sessionAt(1000);
      let r = await t.call('POST', '/api/session/rename', { session_id: id, title: 'x'.repeat(1001) });
      expect(r.status).toBe(400);
      expect(r.body.error).toContain('title');
      r = await t.call('POST', '/api/session/rename', { session_id: id });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('Missing required field(s): title');
    });

    it('applies with a current expected_updated_at, 409s a stale one and writes nothing', async () => {
      const id = await sessionAt(1000.25);
      now = 2000.5;
      const ok = await t.call('POST', '/api/session/rename', { session_id: id, title: 'First', expected_updated_at: 1000.25 });
      expect(ok.status).toBe(200);
      expect(ok.body.session.updated_at).toBe(2000.5);

      now = 3000;
      const stale = await t.call('POST', '/api/session/rename', { session_id: id, title: 'Second', expected_updated_at: 1000.25 });
      expect(stale.status).toBe(409);
      expect(stale.body.current_updated_at).toBe(2000.5);
      expect(stale.body.error).toMatch(/changed/);

      const g = await getSession(id);
      expect(g.body.session.title).toBe('First');
      expect(g.body.session.updated_at).toBe(2000.5);
    });

    it('404s an unknown session and 400s a bad id', async () => {
      let r = await t.call('POST', '/api/session/rename', { session_id: 'abcdef123456', title: 'x' });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: 'Session not found' });
      r = await t.call('POST', '/api/session/rename', { session_id: '../x', title: 'x' });
      expect(r.status).toBe(400);
      expect(r.body.error).toContain('Invalid session id');
    });
  });

  describe('POST /api/session/update', () => {
    it('changes the model and lowercases model_provider', async () => {
      const id = await sessionAt(1000);
      now = 1500;
      const r = await t.call('POST', '/api/session/update', { session_id: id, model: 'claude-x', model_provider: 'Anthropic' });
      expect(r.status).toBe(200);
      expect(r.body.session).toMatchObject({ session_id: id, model: 'claude-x', model_provider: 'anthropic', updated_at: 1500 });
      const g = await getSession(id);
      expect(g.body.session).toMatchObject({ model: 'claude-x', model_provider: 'anthropic' });

      const cleared = await t.call('POST', '/api/session/update', { session_id: id, model: null });
      expect(cleared.body.session.model).toBeNull();
      expect(cleared.body.session.model_provider).toBe('anthropic');
    });

    it('changes the workspace to an existing folder', async () => {
      const other = join(t.dir, 'other');
      await mkdir(other);
      const id = await sessionAt(1000);
      const r = await t.call('POST', '/api/session/update', { session_id: id, workspace: other });
      expect(r.status).toBe(200);
      expect(r.body.session.workspace).toBe(await realpath(other));
    });

    it('refuses a missing workspace and leaves the session unchanged', async () => {
      const id = await sessionAt(1000);
      const r = await t.call('POST', '/api/session/update', { session_id: id, workspace: join(t.dir, 'nope'), model: 'm' });
      expect(r.status).toBe(400);
      expect(r.body.error).toContain('Workspace does not exist');
      const g = await getSession(id);
      expect(g.body.session).toMatchObject({ workspace: t.workspace, model: null, updated_at: 1000 });
    });

    it('404s an unknown session', async () => {
      const r = await t.call('POST', '/api/session/update', { session_id: 'abcdef123456', model: 'm' });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: 'Session not found' });
    });

    it('409s a stale expected_updated_at', async () => {
      const id = await sessionAt(1000);
      const r = await t.call('POST', '/api/session/update', { session_id: id, model: 'm', expected_updated_at: 999 });
      expect(r.status).toBe(409);
      expect(r.body.current_updated_at).toBe(1000);
      expect((await getSession(id)).body.session.model).toBeNull();
    });
  });

  describe('POST /api/session/delete', () => {
    it('deletes the session; it is then 404 and gone from the list, and a second delete is a no-op', async () => {
      const id = await sessionAt(1000);
      const keep = await sessionAt(2000);
      const r = await t.call('POST', '/api/session/delete', { session_id: id });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ ok: true });
      expect((await getSession(id)).status).toBe(404);
      const list = await t.call('GET', '/api/sessions');
      expect(list.body.sessions.map((s: any) => s.session_id)).toEqual([keep]);

      // Already gone: done (the incumbent's answer), and said so.
      const again = await t.call('POST', '/api/session/delete', { session_id: id });
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ ok: true, deleted: false });
    });

    it('400s a missing session_id', async () => {
      const r = await t.call('POST', '/api/session/delete', {});
      expect(r.status).toBe(400);
      expect(r.body.error).toBe('session_id is required');
    });
  });

  describe('POST /api/session/pin', () => {
    it('pins up to the default limit of 3 and refuses the 4th', async () => {
      const ids = [await sessionAt(1), await sessionAt(2), await sessionAt(3), await sessionAt(4)];
      for (const id of ids.slice(0, 3)) {
        const r = await t.call('POST', '/api/session/pin', { session_id: id });
        expect(r.status).toBe(200);
        expect(r.body).toMatchObject({ ok: true, session: { session_id: id, pinned: true } });
      }
      const fourth = await t.call('POST', '/api/session/pin', { session_id: ids[3] });
      expect(fourth.status).toBe(400);
      expect(fourth.body.error).toContain('at most 3');
      expect((await getSession(ids[3]!)).body.session.pinned).toBe(false);

      // Pinning one that is already pinned is not a new pin.
      const again = await t.call('POST', '/api/session/pin', { session_id: ids[0], pinned: true });
      expect(again.status).toBe(200);

      // Unpinning frees a slot.
      const unpin = await t.call('POST', '/api/session/pin', { session_id: ids[0], pinned: false });
      expect(unpin.status).toBe(200);
      expect(unpin.body.session.pinned).toBe(false);
      const now4 = await t.call('POST', '/api/session/pin', { session_id: ids[3], pinned: 1 });
      expect(now4.status).toBe(200);
      expect(now4.body.session.pinned).toBe(true);
    });

    it('counts archived pinned sessions toward the limit', async () => {
      const ids = [await sessionAt(1), await sessionAt(2), await sessionAt(3), await sessionAt(4)];
      for (const id of ids.slice(0, 3)) await t.call('POST', '/api/session/pin', { session_id: id });
      await t.call('POST', '/api/session/archive', { session_id: ids[0] });
      const r = await t.call('POST', '/api/session/pin', { session_id: ids[3] });
      expect(r.status).toBe(400);
    });

    it('takes the limit from settings pinned_sessions_limit (0 means unlimited)', async () => {
      const ids = [await sessionAt(1), await sessionAt(2), await sessionAt(3), await sessionAt(4), await sessionAt(5)];
      const set = await t.call('POST', '/api/settings', { pinned_sessions_limit: 1 });
      expect(set.status).toBe(200);
      expect((await t.call('POST', '/api/session/pin', { session_id: ids[0] })).status).toBe(200);
      const second = await t.call('POST', '/api/session/pin', { session_id: ids[1] });
      expect(second.status).toBe(400);
      expect(second.body.error).toContain('at most 1');

      await t.call('POST', '/api/settings', { pinned_sessions_limit: 0 });
      for (const id of ids) expect((await t.call('POST', '/api/session/pin', { session_id: id })).status).toBe(200);
      const list = await t.call('GET', '/api/sessions');
      expect(list.body.sessions.every((s: any) => s.pinned)).toBe(true);
    });

    it('404s an unknown session and 400s a bad flag', async () => {
      const r = await t.call('POST', '/api/session/pin', { session_id: 'abcdef123456' });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: 'Session not found' });
      const id = await sessionAt(1);
      const bad = await t.call('POST', '/api/session/pin', { session_id: id, pinned: 'yes' });
      expect(bad.status).toBe(400);
      expect(bad.body.error).toContain('pinned');
    });
  });

  describe('POST /api/session/archive', () => {
    it('archives and unarchives', async () => {
      const id = await sessionAt(1);
      let r = await t.call('POST', '/api/session/archive', { session_id: id });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ ok: true, session: { session_id: id, archived: true } });
      expect((await t.call('GET', '/api/sessions')).body.sessions).toEqual([]);
      expect((await getSession(id)).body.session.archived).toBe(true);

      r = await t.call('POST', '/api/session/archive', { session_id: id, archived: false });
      expect(r.status).toBe(200);
      expect(r.body.session.archived).toBe(false);
      const list = await t.call('GET', '/api/sessions');
      expect(list.body.sessions.map((s: any) => s.session_id)).toEqual([id]);
      expect(list.body.archived_count).toBe(0);
    });

    it('404s an unknown session', async () => {
      const r = await t.call('POST', '/api/session/archive', { session_id: 'abcdef123456' });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: 'Session not found' });
    });
  });

  describe('POST /api/session/move', () => {
    it('moves into a project and null unassigns', async () => {
      const p = (await t.call('POST', '/api/projects/create', { name: 'P' })).body.project;
      const id = await sessionAt(1);
      let r = await t.call('POST', '/api/session/move', { session_id: id, project_id: p.project_id });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ ok: true, session: { session_id: id, project_id: p.project_id } });

      r = await t.call('POST', '/api/session/move', { session_id: id, project_id: null });
      expect(r.status).toBe(200);
      expect(r.body.session.project_id).toBeNull();
      expect((await getSession(id)).body.session.project_id).toBeNull();
    });

    it('404s an unknown project and leaves the session where it was', async () => {
      const p = (await t.call('POST', '/api/projects/create', { name: 'P' })).body.project;
      const id = await sessionAt(1);
      await t.call('POST', '/api/session/move', { session_id: id, project_id: p.project_id });
      const r = await t.call('POST', '/api/session/move', { session_id: id, project_id: 'nope' });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: 'Project not found' });
      expect((await getSession(id)).body.session.project_id).toBe(p.project_id);
    });

    it('404s an unknown session; no project_id takes the session out of its project (as the incumbent)', async () => {
      let r = await t.call('POST', '/api/session/move', { session_id: 'abcdef123456', project_id: null });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: 'Session not found' });
      const id = await sessionAt(1);
      r = await t.call('POST', '/api/session/move', { session_id: id, project_id: '' });
      expect(r.status).toBe(200);
      expect(r.body.session.project_id ?? null).toBeNull();
    });
  });

  describe('POST /api/session/clear', () => {
    it('empties the transcript and resets the title', async () => {
      const id = await sessionAt(1, 'Some title');
      await t.deps.sessions.appendMessages(id, messages(4));
      const r = await t.call('POST', '/api/session/clear', { session_id: id });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ ok: true, session: { session_id: id, title: 'Untitled', message_count: 0 } });
      const g = await getSession(id);
      expect(g.body.session.messages).toEqual([]);
      expect(g.body.session.title).toBe('Untitled');
      expect(g.body.session.manual_title).toBe(false);
      expect(g.body.session.clear_generation).toBe(1);
      await t.call('POST', '/api/session/clear', { session_id: id });
      expect((await getSession(id)).body.session.clear_generation).toBe(2);
    });

    it('404s an unknown session', async () => {
      const r = await t.call('POST', '/api/session/clear', { session_id: 'abcdef123456' });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: 'Session not found' });
    });
  });

  describe('POST /api/session/truncate', () => {
    it('keeps the first keep_count messages', async () => {
      const id = await sessionAt(1);
      await t.deps.sessions.appendMessages(id, messages(5));
      const r = await t.call('POST', '/api/session/truncate', { session_id: id, keep_count: 2 });
      expect(r.status).toBe(200);
      expect(r.body.ok).toBe(true);
      expect(r.body.session.message_count).toBe(2);
      expect(r.body.session.messages.map((m: any) => m.content)).toEqual(['m0', 'm1']);
      expect((await getSession(id)).body.session.messages.map((m: any) => m.content)).toEqual(['m0', 'm1']);
    });

    it('keep_count 0 empties it and a keep_count past the end keeps everything', async () => {
      const id = await sessionAt(1);
      await t.deps.sessions.appendMessages(id, messages(3));
      let r = await t.call('POST', '/api/session/truncate', { session_id: id, keep_count: 10 });
      expect(r.status).toBe(200);
      expect(r.body.session.message_count).toBe(3);
      r = await t.call('POST', '/api/session/truncate', { session_id: id, keep_count: 0 });
      expect(r.body.session.message_count).toBe(0);
      expect(r.body.session.messages).toEqual([]);
    });

    it('400s a negative, fractional or missing keep_count; 404s an unknown session', async () => {
      const id = await sessionAt(1);
      for (const body of [{ keep_count: -1 }, { keep_count: 1.5 }, {}]) {
        const r = await t.call('POST', '/api/session/truncate', { session_id: id, ...body });
        expect(r.status).toBe(400);
        expect(r.body.error).toContain('keep_count');
      }
      const r = await t.call('POST', '/api/session/truncate', { session_id: 'abcdef123456', keep_count: 0 });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: 'Session not found' });
    });
  });

  describe('POST /api/session/branch', () => {
    it('forks the session: flat reply, "(fork)" title, parent link, full transcript', async () => {
      const id = await sessionAt(1, 'Alpha');
      await t.deps.sessions.appendMessages(id, messages(4));
      await t.call('POST', '/api/session/pin', { session_id: id });
      now = 50;
      const r = await t.call('POST', '/api/session/branch', { session_id: id });
      expect(r.status).toBe(200);
      expect(Object.keys(r.body).sort()).toEqual(['parent_session_id', 'session_id', 'title']);
      expect(r.body.title).toBe('Alpha (fork)');
      expect(r.body.parent_session_id).toBe(id);
      expect(r.body.session_id).toMatch(/^[0-9a-f]{12}$/);
      expect(r.body.session_id).not.toBe(id);

      const fork = (await getSession(r.body.session_id)).body.session;
      expect(fork).toMatchObject({ title: 'Alpha (fork)', parent_session_id: id, pinned: false, archived: false, created_at: 50, message_count: 4 });
      expect(fork.messages.map((m: any) => m.content)).toEqual(['m0', 'm1', 'm2', 'm3']);
      expect(fork.manual_title).toBeUndefined();

      // The source is unchanged.
      const source = (await getSession(id)).body.session;
      expect(source).toMatchObject({ title: 'Alpha', pinned: true, message_count: 4 });
      expect(source.parent_session_id).toBeUndefined();
      const list = await t.call('GET', '/api/sessions');
      expect(list.body.total).toBe(2);
      expect(list.body.sessions.find((s: any) => s.session_id === r.body.session_id).parent_session_id).toBe(id);
    });

    it('keep_count keeps only the first messages; a title overrides the default', async () => {
      const id = await sessionAt(1, 'Alpha');
      await t.deps.sessions.appendMessages(id, messages(4));
      const r = await t.call('POST', '/api/session/branch', { session_id: id, keep_count: 2, title: '  Side   quest ' });
      expect(r.status).toBe(200);
      expect(r.body.title).toBe('Side quest');
      const fork = (await getSession(r.body.session_id)).body.session;
      expect(fork.messages.map((m: any) => m.content)).toEqual(['m0', 'm1']);
      expect((await getSession(id)).body.session.message_count).toBe(4);
    });

    it('an untitled source forks as "Untitled (fork)"', async () => {
      const id = await sessionAt(1);
      const r = await t.call('POST', '/api/session/branch', { session_id: id });
      expect(r.body.title).toBe('Untitled (fork)');
    });

    it('404s an unknown session and 400s a bad keep_count', async () => {
      let r = await t.call('POST', '/api/session/branch', { session_id: 'abcdef123456' });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: 'Session not found' });
      const id = await sessionAt(1);
      r = await t.call('POST', '/api/session/branch', { session_id: id, keep_count: -2 });
      expect(r.status).toBe(400);
      expect(r.body.error).toContain('keep_count');
    });
  });

  describe('POST /api/session/duplicate', () => {
    it('copies the session as "<title> (copy)" with a new id, unpinned', async () => {
      const id = await sessionAt(1, 'Alpha');
      await t.deps.sessions.appendMessages(id, messages(3));
      await t.call('POST', '/api/session/pin', { session_id: id });
      now = 70;
      const r = await t.call('POST', '/api/session/duplicate', { session_id: id });
      expect(r.status).toBe(200);
      const copy = r.body.session;
      expect(copy.session_id).toMatch(/^[0-9a-f]{12}$/);
      expect(copy.session_id).not.toBe(id);
      expect(copy).toMatchObject({ title: 'Alpha (copy)', pinned: false, archived: false, created_at: 70, updated_at: 70, message_count: 3 });
      expect(copy.messages.map((m: any) => m.content)).toEqual(['m0', 'm1', 'm2']);
      expect((await getSession(copy.session_id)).status).toBe(200);
      expect((await getSession(id)).body.session.title).toBe('Alpha');
      expect((await t.call('GET', '/api/sessions')).body.total).toBe(2);
    });

    it('404s an unknown session', async () => {
      const r = await t.call('POST', '/api/session/duplicate', { session_id: 'abcdef123456' });
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: 'Session not found' });
    });
  });

  describe('GET /api/sessions/search', () => {
    let alpha: string;
    let beta: string;
    let gamma: string;
    beforeEach(async () => {
      alpha = await sessionAt(1, 'Alpha project notes');
      beta = await sessionAt(2, 'Beta');
      gamma = await sessionAt(3, 'Gamma');
      now = 10;
      await t.deps.sessions.appendMessages(beta, [
        { role: 'user', content: 'hello there', timestamp: 1 },
        { role: 'assistant', content: 'There is a NEEDLE in this haystack somewhere', timestamp: 2 },
      ]);
      now = 11;
      await t.deps.sessions.appendMessages(alpha, [{ role: 'user', content: [{ type: 'text', text: 'another needle, in parts' }], timestamp: 1 }]);
      now = 12;
    });

    it('matches titles case-insensitively', async () => {
      const r = await t.call('GET', '/api/sessions/search?q=ALPHA');
      expect(r.status).toBe(200);
      expect(r.body.query).toBe('alpha');
      expect(r.body.count).toBe(1);
      expect(r.body.sessions).toHaveLength(1);
      expect(r.body.sessions[0]).toMatchObject({ session_id: alpha, title: 'Alpha project notes', match_type: 'title', match_preview: 'Alpha project notes' });
    });

    it('matches message text only with content=1', async () => {
      let r = await t.call('GET', '/api/sessions/search?q=needle');
      expect(r.status).toBe(200);
      expect(r.body.count).toBe(0);
      expect(r.body.sessions).toEqual([]);

      r = await t.call('GET', '/api/sessions/search?q=needle&content=1');
      expect(r.status).toBe(200);
      expect(r.body.count).toBe(2);
      const byId = Object.fromEntries(r.body.sessions.map((s: any) => [s.session_id, s]));
      expect(byId[beta]).toMatchObject({ match_type: 'content', title: 'Beta' });
      expect(byId[beta].match_preview).toContain('NEEDLE in this haystack');
      expect(byId[alpha]).toMatchObject({ match_type: 'content' });
      expect(byId[alpha].match_preview).toContain('another needle');
      expect(byId[gamma]).toBeUndefined();
    });

    it('a session matching by title is listed once, as a title match', async () => {
      await t.deps.sessions.appendMessages(gamma, [{ role: 'user', content: 'gamma rays', timestamp: 1 }]);
      const r = await t.call('GET', '/api/sessions/search?q=gamma&content=1');
      expect(r.body.count).toBe(1);
      expect(r.body.sessions[0]).toMatchObject({ session_id: gamma, match_type: 'title' });
    });

    it('an empty or blank q lists every (unarchived) session', async () => {
      await t.call('POST', '/api/session/archive', { session_id: gamma });
      for (const q of ['', '?q=', '?q=%20%20']) {
        const r = await t.call('GET', `/api/sessions/search${q}`);
        expect(r.status).toBe(200);
        expect(r.body.query).toBe('');
        expect(r.body.count).toBe(2);
        // Newest first: alpha's transcript moved last.
        expect(r.body.sessions.map((s: any) => s.session_id)).toEqual([alpha, beta]);
      }
    });

    it('honours limit and 400s a bad flag', async () => {
      const r = await t.call('GET', '/api/sessions/search?q=a&limit=1');
      expect(r.status).toBe(200);
      expect(r.body.count).toBe(1);
      const bad = await t.call('GET', '/api/sessions/search?q=a&content=sometimes');
      expect(bad.status).toBe(400);
      expect(bad.body.error).toContain('content');
    });
  });

  describe('GET /api/session/export', () => {
    it('exports JSON as an attachment named hermes-<id>.json', async () => {
      const id = await sessionAt(1, 'Export me');
      await t.deps.sessions.appendMessages(id, [{ role: 'user', content: 'hi', timestamp: 1 }]);
      for (const q of ['', '&format=json']) {
        const res = await t.app.request(`/api/session/export?session_id=${id}${q}`);
        expect(res.status).toBe(200);
        expect(res.headers.get('Content-Type')).toBe('application/json; charset=utf-8');
        expect(res.headers.get('Content-Disposition')).toBe(`attachment; filename="hermes-${id}.json"`);
        expect(res.headers.get('Cache-Control')).toBe('no-store');
        const body = JSON.parse(await res.text());
        expect(body).toMatchObject({ session_id: id, title: 'Export me', messages: [{ role: 'user', content: 'hi', timestamp: 1 }] });
      }
    });

    it('exports Markdown as hermes-<id>.md', async () => {
      const id = await sessionAt(1, 'Export me');
      await t.call('POST', '/api/session/update', { session_id: id, model: 'model-x' });
      await t.deps.sessions.appendMessages(id, [
        { role: 'user', content: 'hi', timestamp: 1 },
        { role: 'assistant', content: 'hello back', timestamp: 2, tool_calls: [{ function: { name: 'read_file', arguments: '{"path":"a"}' } }] },
        { role: 'tool', name: 'read_file', content: 'file body', timestamp: 3 },
      ]);
      const res = await t.app.request(`/api/session/export?session_id=${id}&format=md`);
      expect(res.status).toBe(200);
      expect(res.headers.get('Content-Type')).toBe('text/markdown; charset=utf-8');
      expect(res.headers.get('Content-Disposition')).toBe(`attachment; filename="hermes-${id}.md"`);
      const md = await res.text();
      expect(md.startsWith('# Export me\n')).toBe(true);
      expect(md).toContain(`- Session: \`${id}\``);
      expect(md).toContain('- Model: model-x');
      expect(md).toContain('## User\n\nhi');
      expect(md).toContain('## Assistant\n\nhello back');
      expect(md).toContain('**Tool call:** `read_file`');
      expect(md).toContain('## Tool · read_file\n\n```\nfile body\n```');
    });

    it('404s an unknown session and 400s an unknown format', async () => {
      let r = await t.call('GET', '/api/session/export?session_id=abcdef123456');
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ error: 'Session not found' });
      const id = await sessionAt(1);
      r = await t.call('GET', `/api/session/export?session_id=${id}&format=xml`);
      expect(r.status).toBe(400);
      expect(r.body.error).toContain('format must be "json", "md" or "html"');
    });
  });

  describe('POST /api/session/import', () => {
    it('creates a new session with the messages and a default title', async () => {
      now = 90;
      const msgs = [
        { role: 'user', content: 'imported question', timestamp: 5 },
        { role: 'assistant', content: 'imported answer', timestamp: 6, extra_field: { kept: true } },
      ];
      const r = await t.call('POST', '/api/session/import', { messages: msgs });
      expect(r.status).toBe(200);
      expect(r.body.ok).toBe(true);
      const s = r.body.session;
      expect(s.session_id).toMatch(/^[0-9a-f]{12}$/);
      expect(s).toMatchObject({ title: 'Imported session', workspace: t.workspace, message_count: 2, created_at: 90, pinned: false });
      expect(s.messages).toEqual(msgs);
      const g = await getSession(s.session_id);
      expect(g.body.session.messages).toEqual(msgs);
    });

    it('round-trips an export into a new session with a new id', async () => {
      const id = await sessionAt(1, 'Original');
      await t.deps.sessions.appendMessages(id, messages(3));
      const exported = await (await t.app.request(`/api/session/export?session_id=${id}`)).json();
      const r = await t.call('POST', '/api/session/import', { ...exported, title: '  Restored  ', pinned: 1 });
      expect(r.status).toBe(200);
      expect(r.body.session.session_id).not.toBe(id);
      expect(r.body.session).toMatchObject({ title: 'Restored', pinned: true, message_count: 3 });
      expect(r.body.session.messages.map((m: any) => m.content)).toEqual(['m0', 'm1', 'm2']);
      expect((await t.call('GET', '/api/sessions')).body.total).toBe(2);
    });

    it('400s when messages is missing, not a list, or holds a message without a role', async () => {
      for (const body of [{}, { messages: 'nope' }, { messages: [{ content: 'no role' }] }]) {
        const r = await t.call('POST', '/api/session/import', body);
        expect(r.status).toBe(400);
        expect(r.body.error).toContain('messages');
      }
      expect((await t.call('GET', '/api/sessions')).body.total).toBe(0);
    });

    it('refuses a workspace that does not exist', async () => {
      const r = await t.call('POST', '/api/session/import', { messages: [], workspace: join(t.dir, 'missing') });
      expect(r.status).toBe(400);
      expect(r.body.error).toContain('Workspace does not exist');
    });
  });
});
