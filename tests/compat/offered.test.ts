import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';

/** Endpoints the incumbent's scripts call that were "not offered" before (issue 20). */

describe('POST /api/session/draft: the composer draft on the session', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp({ storage: 'fs' });
  });
  afterAll(() => t.close());

  it('saves text and files, answers the session with composer_draft, and keeps the session file and its place in the list', async () => {
    const older = await t.newSession();
    const sid = await t.newSession();
    // Make `older` the newest so a draft on `sid` would show if it moved sid up the list.
    await t.call('POST', '/api/session/rename', { session_id: older, title: 'Older' });
    const before = (await t.call('GET', `/api/session?session_id=${sid}`)).body.session;

    const r = await t.call('POST', '/api/session/draft', { session_id: sid, text: 'half a thought', files: ['notes.md'], extra: 1 });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, draft: { text: 'half a thought', files: ['notes.md'] } });

    const after = (await t.call('GET', `/api/session?session_id=${sid}`)).body.session;
    expect(after.composer_draft).toEqual({ text: 'half a thought', files: ['notes.md'] });
    expect(after.updated_at).toBe(before.updated_at);
    const list = (await t.call('GET', '/api/sessions')).body.sessions.map((s: any) => s.session_id);
    expect(list.indexOf(older)).toBeLessThan(list.indexOf(sid));

    // The file says it as the incumbent writes it.
    const file = JSON.parse(await readFile(join(t.stateDir, 'sessions', `${sid}.json`), 'utf8'));
    expect(file.composer_draft).toEqual({ text: 'half a thought', files: ['notes.md'] });

    // Only the given field changes; the same draft again is `unchanged`; GET reads it.
    expect((await t.call('POST', '/api/session/draft', { session_id: sid, text: 'whole thought' })).body.draft).toEqual({
      text: 'whole thought',
      files: ['notes.md'],
    });
    expect((await t.call('POST', '/api/session/draft', { session_id: sid, text: 'whole thought' })).body).toEqual({
      ok: true,
      draft: { text: 'whole thought', files: ['notes.md'] },
      unchanged: true,
    });
    expect((await t.call('GET', `/api/session/draft?session_id=${sid}`)).body).toEqual({ draft: { text: 'whole thought', files: ['notes.md'] } });
  });

  it('cuts and clears as the incumbent: text past 50,000 chars, more than 50 files, wrong types', async () => {
    const sid = await t.newSession();
    const long = await t.call('POST', '/api/session/draft', {
      session_id: sid,
      text: 'x'.repeat(50_010),
      files: Array.from({ length: 60 }, (_, i) => `f${i}`),
    });
    expect(long.body.draft.text).toHaveLength(50_000);
    expect(long.body.draft.files).toHaveLength(50);
    expect((await t.call('POST', '/api/session/draft', { session_id: sid, text: 42, files: 'nope' })).body.draft).toEqual({ text: '', files: [] });
  });

  it('errors: a missing session_id, an unknown session', async () => {
    expect(await t.call('POST', '/api/session/draft', { text: 'x' })).toMatchObject({ status: 400, body: { error: 'Missing required field(s): session_id' } });
    expect(await t.call('POST', '/api/session/draft', { session_id: 'nosuch000000', text: 'x' })).toMatchObject({
      status: 404,
      body: { error: 'Session not found' },
    });
    expect(await t.call('GET', '/api/session/draft')).toMatchObject({ status: 400, body: { error: 'session_id is required' } });
    const child = await t.newSession();
    await t.deps.sessions.update(child, { session_source: 'subagent' });
    expect(await t.call('POST', '/api/session/draft', { session_id: child, text: 'x' })).toMatchObject({
      status: 400,
      body: { error: 'Subagent sessions are view-only and cannot store a draft from WebUI' },
    });
    expect(await t.call('POST', '/api/session/toolsets', { session_id: child, toolsets: null })).toMatchObject({
      status: 400,
      body: { error: 'Subagent sessions are view-only and cannot be modified from WebUI' },
    });
  });
});

describe('POST /api/sessions/cleanup and /cleanup_zero_message', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp({ storage: 'fs' });
  });
  afterAll(() => t.close());

  const exists = async (id: string) => (await t.call('GET', `/api/session?session_id=${id}`)).status === 200;

  it('cleanup deletes empty "Untitled" sessions (pinned and archived too, as the incumbent); cleanup_zero_message every empty one', async () => {
    const untitled = await t.newSession();
    const pinned = await t.newSession();
    await t.call('POST', '/api/session/pin', { session_id: pinned, pinned: true });
    const archived = await t.newSession();
    await t.call('POST', '/api/session/archive', { session_id: archived, archived: true });
    const named = await t.newSession();
    await t.call('POST', '/api/session/rename', { session_id: named, title: 'Plans' });
    const busy = await t.newSession();
    const run = t.deps.agent.registry.begin(busy, 'stream-cleanup-busy');
    const talked = await t.newSession();
    await t.deps.sessions.appendMessages(talked, [{ role: 'user', content: 'hello', timestamp: 1 }]);

    expect((await t.call('POST', '/api/sessions/cleanup', {})).body).toEqual({ ok: true, cleaned: 3 });
    expect(await Promise.all([untitled, pinned, archived].map(exists))).toEqual([false, false, false]);
    expect(await Promise.all([named, busy, talked].map(exists))).toEqual([true, true, true]);

    // The titled empty one goes with zero_message; the running one and the one with messages stay.
    expect((await t.call('POST', '/api/sessions/cleanup_zero_message')).body).toEqual({ ok: true, cleaned: 1 });
    expect(await Promise.all([named, busy, talked].map(exists))).toEqual([false, true, true]);

    await t.deps.agent.registry.end(run, 'completed');
    expect((await t.call('POST', '/api/sessions/cleanup_zero_message')).body).toEqual({ ok: true, cleaned: 1 });
    expect(await exists(busy)).toBe(false);
    expect((await t.call('POST', '/api/sessions/cleanup')).body).toEqual({ ok: true, cleaned: 0 });
  });
});

describe('GET/POST/DELETE /api/prompts: saved prompts in <home>/webui/saved_prompts.json', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(() => t.close());
  const file = () => join(t.hermesHome, 'webui', 'saved_prompts.json');

  it('saves, lists and deletes, in the incumbent file format', async () => {
    expect((await t.call('GET', '/api/prompts')).body).toEqual({ prompts: [] });
    const a = await t.call('POST', '/api/prompts', { text: '  Summarise this thread in three bullets.  ', label: ' Summary ' });
    expect(a.status).toBe(200);
    expect(a.body.ok).toBe(true);
    expect(a.body.prompt).toMatchObject({ label: 'Summary', text: 'Summarise this thread in three bullets.' });
    expect(a.body.prompt.id).toMatch(/^[0-9a-f]{12}$/);
    expect(typeof a.body.prompt.created_at).toBe('number');
    const longText = `Review ${'é'.repeat(70)}`;
    const b = (await t.call('POST', '/api/prompts', { text: longText })).body.prompt;
    expect(b.label).toBe(Array.from(longText).slice(0, 60).join(''));

    const text = await readFile(file(), 'utf8');
    expect(text).toBe(JSON.stringify([a.body.prompt, b], null, 2));
    expect(text).toContain('é'); // ensure_ascii=False: written as is
    expect((await t.call('GET', '/api/prompts')).body.prompts.map((p: any) => p.id)).toEqual([a.body.prompt.id, b.id]);

    expect((await t.call('DELETE', '/api/prompts', { id: a.body.prompt.id })).body).toEqual({ ok: true });
    expect((await t.call('GET', '/api/prompts')).body.prompts.map((p: any) => p.id)).toEqual([b.id]);
  });

  it('reads a file the Python server wrote, keeps its extra fields, and reads a damaged file as empty', async () => {
    const python = [{ id: 'abcdef012345', label: 'Old', text: 'From Python', created_at: 1780000000.123456, pinned: true }];
    await writeFile(file(), JSON.stringify(python, null, 2));
    expect((await t.call('GET', '/api/prompts')).body.prompts).toEqual(python);
    await t.call('POST', '/api/prompts', { text: 'New one' });
    expect(JSON.parse(await readFile(file(), 'utf8'))[0]).toEqual(python[0]);
    await writeFile(file(), '{ not json');
    expect((await t.call('GET', '/api/prompts')).body).toEqual({ prompts: [] });
  });

  it('errors as the incumbent: no text, text over 8,000 chars, the 200 limit, no id', async () => {
    expect(await t.call('POST', '/api/prompts', { text: '   ' })).toMatchObject({ status: 400, body: { error: 'text is required' } });
    expect(await t.call('POST', '/api/prompts', { text: 'y'.repeat(8001) })).toMatchObject({ status: 400, body: { error: 'text too long (max 8000 chars)' } });
    expect((await t.call('POST', '/api/prompts', { text: 'y'.repeat(8000) })).status).toBe(200);
    const full = Array.from({ length: 200 }, (_, i) => ({ id: `p${i}`, label: `P${i}`, text: `t${i}`, created_at: 1 }));
    await writeFile(file(), JSON.stringify(full, null, 2));
    expect(await t.call('POST', '/api/prompts', { text: 'one more' })).toMatchObject({ status: 400, body: { error: 'saved prompts limit reached (max 200)' } });
    expect(JSON.parse(await readFile(file(), 'utf8'))).toHaveLength(200);
    expect(await t.call('DELETE', '/api/prompts', {})).toMatchObject({ status: 400, body: { error: 'id is required' } });
  });

  it("a profile's prompts live in that profile's home", async () => {
    expect((await t.call('POST', '/api/profile/create', { name: 'work' })).status).toBe(200);
    const saved = await t.call('POST', '/api/prompts', { text: 'Work prompt' }, { Cookie: 'hermes_profile=work' });
    expect(saved.status).toBe(200);
    const workFile = join(t.hermesHome, 'profiles', 'work', 'webui', 'saved_prompts.json');
    expect(JSON.parse(await readFile(workFile, 'utf8')).map((p: any) => p.text)).toEqual(['Work prompt']);
    expect((await t.call('GET', '/api/prompts')).body.prompts.map((p: any) => p.text)).not.toContain('Work prompt');
  });
});

describe('GET /api/system/health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(() => t.close());

  it("answers the host's CPU, memory and disk in the incumbent's fields", async () => {
    const r = await t.call('GET', '/api/system/health');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'ok', available: true, errors: [] });
    expect(r.body.checked_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+\+00:00$/);
    expect(r.body.cpu.percent).toBeGreaterThanOrEqual(0);
    expect(r.body.cpu.percent).toBeLessThanOrEqual(100);
    for (const key of ['memory', 'disk']) {
      const m = r.body[key];
      expect(m.total_bytes).toBeGreaterThan(0);
      expect(m.used_bytes).toBeGreaterThan(0);
      expect(m.used_bytes).toBeLessThanOrEqual(m.total_bytes);
      expect(m.percent).toBeCloseTo((m.used_bytes / m.total_bytes) * 100, 0);
    }
    expect(Object.keys(r.body.webui_runtime)).toEqual(['sessions', 'streams', 'session_list_cache', 'models_cache']);
    expect(r.body.webui_runtime.streams).toMatchObject({ available: true, active: 0 });
  });
});

describe('POST /api/file/path', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(() => t.close());

  it('answers the absolute path inside the workspace, existing or not; refuses what leads out', async () => {
    const sid = await t.newSession();
    const ws = (await t.call('GET', `/api/session?session_id=${sid}`)).body.session.workspace;
    await mkdir(join(ws, 'src'), { recursive: true });
    expect((await t.call('POST', '/api/file/path', { session_id: sid, path: 'src/main.ts' })).body).toEqual({ ok: true, path: join(ws, 'src', 'main.ts') });
    expect((await t.call('POST', '/api/file/path', { session_id: sid, path: '.' })).body).toEqual({ ok: true, path: ws });
    expect((await t.call('POST', '/api/file/path', { session_id: sid, path: '../secret' })).status).toBe(403);
    await symlink(t.dir, join(ws, 'out'));
    expect((await t.call('POST', '/api/file/path', { session_id: sid, path: 'out' })).status).toBe(403);
    expect((await t.call('POST', '/api/file/path', { session_id: sid, path: 'out/state' })).status).toBe(403);
    expect(await t.call('POST', '/api/file/path', { path: 'x' })).toMatchObject({ status: 400, body: { error: 'Missing required field(s): session_id' } });
    expect(await t.call('POST', '/api/file/path', { session_id: 'nosuch000000', path: 'x' })).toMatchObject({
      status: 404,
      body: { error: 'Session not found' },
    });
  });
});

describe('POST /api/session/toolsets: the built-in agent offers only those toolsets', () => {
  let t: ChatHarness;
  beforeAll(async () => {
    t = await makeChatApp();
  });
  afterAll(() => t.close());

  const toolNames = (req: any) => (req.tools ?? []).map((x: any) => x.function.name).sort();

  it('narrows the next turn to the chosen toolsets, and null gives every tool back', async () => {
    const sid = await t.newSession();
    const set = await t.call('POST', '/api/session/toolsets', { session_id: sid, toolsets: ['file', 'todo'] });
    expect(set.body).toEqual({ ok: true, enabled_toolsets: ['file', 'todo'] });
    expect((await t.call('GET', `/api/session?session_id=${sid}`)).body.session.enabled_toolsets).toEqual(['file', 'todo']);

    t.model.enqueue([{ text: 'ok' }, { finish: 'stop' }]);
    await t.stream((await t.start(sid, 'first')).body.stream_id);
    expect(toolNames(t.turnRequests().at(-1))).toEqual(['patch', 'read_file', 'search_files', 'todo', 'write_file']);

    expect((await t.call('POST', '/api/session/toolsets', { session_id: sid, toolsets: null })).body).toEqual({ ok: true, enabled_toolsets: null });
    t.model.enqueue([{ text: 'ok' }, { finish: 'stop' }]);
    await t.stream((await t.start(sid, 'second')).body.stream_id);
    const all = toolNames(t.turnRequests().at(-1));
    expect(all).toEqual(expect.arrayContaining(['terminal', 'read_file', 'todo', 'memory', 'skills_list']));
  });

  it('errors as the incumbent', async () => {
    const sid = await t.newSession();
    expect(await t.call('POST', '/api/session/toolsets', { session_id: sid, toolsets: [] })).toMatchObject({
      status: 400,
      body: { error: 'toolsets must be a non-empty list or null' },
    });
    expect(await t.call('POST', '/api/session/toolsets', { session_id: sid, toolsets: ['file', ''] })).toMatchObject({
      status: 400,
      body: { error: 'each toolset must be a non-empty string' },
    });
    expect(await t.call('POST', '/api/session/toolsets', { toolsets: null })).toMatchObject({
      status: 400,
      body: { error: 'Missing required field(s): session_id' },
    });
    expect(await t.call('POST', '/api/session/toolsets', { session_id: 'nosuch000000', toolsets: null })).toMatchObject({
      status: 404,
      body: { error: 'Session not found' },
    });
  });
});

describe('GET /api/provider/cost-history: daily spend from the sessions this server ran', () => {
  let t: ChatHarness;
  beforeAll(async () => {
    t = await makeChatApp();
  });
  afterAll(() => t.close());

  it("sums today's turn costs for the session's provider, over a clamped window", async () => {
    const sid = await t.newSession();
    t.model.enqueue([{ text: 'ok' }, { usage: { inputTokens: 100, outputTokens: 10, cost: 0.25 } }, { finish: 'stop' }]);
    await t.stream((await t.start(sid, 'spend')).body.stream_id);
    const cost = (await t.call('GET', `/api/session?session_id=${sid}`)).body.session.estimated_cost;
    expect(cost).toBeGreaterThan(0);

    const r = await t.call('GET', '/api/provider/cost-history?provider=custom&days=3');
    expect(r.body).toMatchObject({ ok: true, provider: 'custom', supported: true, status: 'available', window_days: 3, limit: null, monthly_budget: null });
    const today = new Date().toISOString().slice(0, 10);
    expect(r.body.snapshots).toHaveLength(3);
    expect(r.body.snapshots[2]).toEqual({ date: today, used: cost, delta: cost });
    expect(r.body.snapshots[0]).toMatchObject({ used: 0, delta: 0 });

    expect((await t.call('GET', '/api/provider/cost-history?provider=openrouter&days=2')).body.snapshots.map((s: any) => s.delta)).toEqual([0, 0]);
    expect((await t.call('GET', '/api/provider/cost-history?provider=custom&days=9999')).body.window_days).toBe(365);
    expect((await t.call('GET', '/api/provider/cost-history?provider=custom&days=0')).body.window_days).toBe(1);
    expect((await t.call('GET', '/api/provider/cost-history?provider=custom&days=abc')).body.window_days).toBe(7);
    expect((await t.call('GET', '/api/provider/cost-history')).body).toMatchObject({ ok: false, provider: null, status: 'missing_provider' });
  });
});

describe('GET /api/provider/quota: OpenRouter key credit', () => {
  let openrouter: Server;
  let base: string;
  const seen: { path?: string; auth?: string }[] = [];
  let answer: { status: number; body: unknown } = { status: 200, body: {} };
  let t: TestApp | null = null;

  beforeAll(async () => {
    // OpenRouter's GET /api/v1/key, scripted.
    openrouter = createServer((req, res) => {
      seen.push({ path: req.url, auth: req.headers.authorization });
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
    await new Promise<void>((resolve) => openrouter.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(openrouter.address() as AddressInfo).port}/api/v1`;
  });
  afterEach(async () => {
    await t?.close();
    t = null;
  });
  afterAll(() => new Promise<void>((resolve) => openrouter.close(() => resolve())));

  const openrouterApp = (key: string | null) =>
    makeTestApp({
      configYaml: `model:\n  default: anthropic/claude-sonnet-4.6\n  provider: openrouter\n  base_url: ${base}\n`,
      ...(key ? { agentEnv: { OPENROUTER_API_KEY: key } } : {}),
    });

  it("reads the key's usage and limit from OpenRouter with the configured key", async () => {
    t = await openrouterApp('sk-or-test-1');
    answer = { status: 200, body: { data: { label: 'sk-or-…', usage: 12.5, limit: 50, limit_remaining: '37.5' } } };
    const r = await t.call('GET', '/api/provider/quota');
    expect(r.body).toEqual({
      ok: true,
      provider: 'openrouter',
      display_name: 'OpenRouter',
      supported: true,
      status: 'available',
      label: 'OpenRouter credits',
      quota: { limit_remaining: 37.5, usage: 12.5, limit: 50 },
      message: 'OpenRouter quota status loaded.',
    });
    expect(seen.at(-1)).toEqual({ path: '/api/v1/key', auth: 'Bearer sk-or-test-1' });

    answer = { status: 401, body: { error: { message: 'bad key' } } };
    expect((await t.call('GET', '/api/provider/quota?provider=openrouter')).body).toMatchObject({ ok: false, status: 'invalid_key', quota: null });
    answer = { status: 500, body: {} };
    expect((await t.call('GET', '/api/provider/quota')).body).toMatchObject({ ok: false, status: 'unavailable', quota: null });
    expect((await t.call('GET', '/api/provider/quota?provider=anthropic')).body).toMatchObject({
      ok: false,
      provider: 'anthropic',
      supported: false,
      status: 'unsupported',
    });
  });

  it('says no_key without a key', async () => {
    t = await openrouterApp(null);
    expect((await t.call('GET', '/api/provider/quota')).body).toMatchObject({
      ok: false,
      provider: 'openrouter',
      supported: true,
      status: 'no_key',
      quota: null,
    });
  });
});
