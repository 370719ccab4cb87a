import { mkdir, readFile, realpath, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';

describe.each(['memory', 'fs'] as const)('POST /api/projects/bind (%s storage)', (storage) => {
  let t: TestApp;
  let a: string;
  let b: string;
  let c: string;
  let pid: string;
  beforeEach(async () => {
    t = await makeTestApp({ storage });
    const dir = async (name: string) => {
      await mkdir(join(t.dir, name), { recursive: true });
      return realpath(join(t.dir, name));
    };
    a = await dir('alpha');
    b = await dir('beta');
    c = await dir('gamma');
    pid = (await t.call('POST', '/api/projects/create', { name: 'Work' })).body.project.project_id;
  });
  afterEach(async () => {
    await t.close();
  });

  const bind = (body: Record<string, unknown>) => t.call('POST', '/api/projects/bind', { project_id: pid, ...body });
  const stored = async () => (await t.call('GET', '/api/projects')).body.projects.find((p: { project_id: string }) => p.project_id === pid);
  const savedPaths = async () => (await t.call('GET', '/api/workspaces')).body.workspaces.map((w: { path: string }) => w.path);
  const BASE = ['project_id', 'name', 'color', 'profile', 'created_at'];

  describe('workspaces', () => {
    it('replaces the list, mirrors workspaces[0] into the legacy field, and GET /api/projects returns it', async () => {
      const r = await bind({ workspaces: [a, b] });
      expect(r.status).toBe(200);
      expect(r.body.ok).toBe(true);
      expect(r.body.project).toMatchObject({ workspaces: [a, b], workspace: a });
      expect(r.body.project).not.toHaveProperty('default_workspace');
      expect(await stored()).toEqual(r.body.project);
      const again = await bind({ workspaces: [c] });
      expect(again.body.project).toMatchObject({ workspaces: [c], workspace: c });
    });

    it('resolves each entry as /api/session/new does and de-duplicates, keeping first-seen order', async () => {
      const link = join(t.dir, 'link-to-beta');
      await symlink(b, link);
      const r = await bind({ workspaces: [b, `${a}/`, link, a, '  '] });
      expect(r.status).toBe(200);
      expect(r.body.project.workspaces).toEqual([b, a]);
    });

    it('auto-registers bound paths in the saved workspace list, keeping Home', async () => {
      expect(await savedPaths()).toEqual([t.workspace]);
      await bind({ workspaces: [a, b] });
      expect(await savedPaths()).toEqual([t.workspace, a, b]);
      // Already saved: not added twice.
      await bind({ workspaces: [b, c] });
      expect(await savedPaths()).toEqual([t.workspace, a, b, c]);
      const names = (await t.call('GET', '/api/workspaces')).body.workspaces.map((w: { name: string }) => w.name);
      expect(names).toEqual(['Home', 'alpha', 'beta', 'gamma']);
    });

    it('null clears the list, the default and the legacy field together', async () => {
      await bind({ workspaces: [a, b], default_workspace: b });
      const r = await bind({ workspaces: null });
      expect(r.status).toBe(200);
      expect(Object.keys(r.body.project).sort()).toEqual([...BASE].sort());
    });

    it.each([
      [{ workspaces: 'nope' }, 'workspaces must be a list of paths'],
      [{ workspaces: [1] }, 'workspaces.0: must be a path string'],
      [{ workspaces: ['relative/dir'] }, 'workspaces[0]: Workspace path must be absolute'],
      [{ workspaces: ['/definitely/not/here'] }, 'workspaces[0]: Workspace does not exist'],
      [{ workspaces: ['/etc'] }, 'workspaces[0]: Refusing a system directory'],
      [{ default_workspace: 5 }, 'default_workspace: must be a path string'],
      [{ workspace: '/definitely/not/here' }, 'workspace: Workspace does not exist'],
    ])('refuses %j with 400 naming the field, changing nothing', async (body, message) => {
      await bind({ workspaces: [a] });
      const before = await stored();
      const r = await bind({ ...body, model: 'changed' });
      expect(r.status).toBe(400);
      expect(r.body.error).toContain(message);
      expect(await stored()).toEqual(before);
      expect(await savedPaths()).toEqual([t.workspace, a]);
    });

    it('a refused entry later in the list registers none of the earlier ones', async () => {
      const r = await bind({ workspaces: [a, '/definitely/not/here'] });
      expect(r.status).toBe(400);
      expect(r.body.error).toContain('workspaces[1]');
      expect(await savedPaths()).toEqual([t.workspace]);
      expect(await stored()).not.toHaveProperty('workspaces');
    });
  });

  describe('default_workspace', () => {
    it('must be a member: a value outside the list is added to it', async () => {
      await bind({ workspaces: [a] });
      const r = await bind({ default_workspace: b });
      expect(r.body.project).toMatchObject({ workspaces: [a, b], default_workspace: b, workspace: a });
      expect(await savedPaths()).toContain(b);
    });

    it('alone on an unbound project binds that one workspace', async () => {
      const r = await bind({ default_workspace: c });
      expect(r.body.project).toMatchObject({ workspaces: [c], default_workspace: c, workspace: c });
    });

    it('removing the workspace that was the default drops the default', async () => {
      await bind({ workspaces: [a, b], default_workspace: b });
      const r = await bind({ workspaces: [a, c] });
      expect(r.body.project).toMatchObject({ workspaces: [a, c], workspace: a });
      expect(r.body.project).not.toHaveProperty('default_workspace');
    });

    it('a default still in the new list stays', async () => {
      await bind({ workspaces: [a, b], default_workspace: b });
      expect((await bind({ workspaces: [b, c] })).body.project).toMatchObject({ workspaces: [b, c], default_workspace: b });
    });

    it('null (or blank) clears only the default', async () => {
      await bind({ workspaces: [a, b], default_workspace: b });
      expect((await bind({ default_workspace: null })).body.project).toMatchObject({ workspaces: [a, b], workspace: a });
      await bind({ default_workspace: b });
      const r = await bind({ default_workspace: '' });
      expect(r.body.project).not.toHaveProperty('default_workspace');
      expect(r.body.project.workspaces).toEqual([a, b]);
    });

    it('cannot be set in the request that clears the list', async () => {
      const r = await bind({ workspaces: null, default_workspace: a });
      expect(r.status).toBe(400);
      expect(r.body.error).toMatch(/^default_workspace: /);
    });
  });

  describe('the legacy workspace field', () => {
    it('binds exactly that workspace, kept in sync as workspaces: [w]', async () => {
      await bind({ workspaces: [a, b], default_workspace: b });
      const r = await bind({ workspace: c });
      expect(r.body.project).toMatchObject({ workspace: c, workspaces: [c], default_workspace: c });
    });

    it('null clears every workspace key', async () => {
      await bind({ workspace: a });
      const r = await bind({ workspace: null });
      expect(Object.keys(r.body.project).sort()).toEqual([...BASE].sort());
    });

    it('sent with workspaces it must equal their first entry', async () => {
      expect((await bind({ workspaces: [a, b], workspace: a })).status).toBe(200);
      const r = await bind({ workspaces: [a, b], workspace: b });
      expect(r.status).toBe(400);
      expect(r.body.error).toMatch(/^workspace: /);
    });
  });

  describe('auto_assign', () => {
    it('is stored as true, and false or null removes it', async () => {
      expect((await bind({ auto_assign: true })).body.project.auto_assign).toBe(true);
      expect((await bind({ auto_assign: false })).body.project).not.toHaveProperty('auto_assign');
      await bind({ auto_assign: true });
      expect((await bind({ auto_assign: null })).body.project).not.toHaveProperty('auto_assign');
    });

    it.each(['yes', 1, 'true', []])('refuses %j: a JSON boolean only', async (value) => {
      const r = await bind({ auto_assign: value });
      expect(r.status).toBe(400);
      expect(r.body.error).toContain('auto_assign must be true, false or null');
    });

    it('files a new session started in a bound workspace, unless a project is named', async () => {
      const other = (await t.call('POST', '/api/projects/create', { name: 'Other' })).body.project.project_id;
      await bind({ workspaces: [a], auto_assign: true });
      const filed = await t.call('POST', '/api/session/new', { workspace: a });
      expect(filed.body.session.project_id).toBe(pid);
      const named = await t.call('POST', '/api/session/new', { workspace: a, project_id: other });
      expect(named.body.session.project_id).toBe(other);
      const elsewhere = await t.call('POST', '/api/session/new', { workspace: b });
      expect(elsewhere.body.session.project_id).toBeNull();
      await bind({ auto_assign: false });
      expect((await t.call('POST', '/api/session/new', { workspace: a })).body.session.project_id).toBeNull();
    });
  });

  describe('model, model_provider, reasoning_effort', () => {
    it('bind single values; null clears that axis only', async () => {
      const r = await bind({ model: ' gpt-5 ', model_provider: 'openrouter', reasoning_effort: 'HIGH' });
      expect(r.body.project).toMatchObject({ model: 'gpt-5', model_provider: 'openrouter', reasoning_effort: 'high' });
      expect((await bind({ model_provider: null })).body.project).toMatchObject({ model: 'gpt-5', reasoning_effort: 'high' });
      expect(await stored()).not.toHaveProperty('model_provider');
      const cleared = await bind({ reasoning_effort: null });
      expect(cleared.body.project).not.toHaveProperty('reasoning_effort');
      expect(cleared.body.project.model).toBe('gpt-5');
    });

    it('clearing the model clears its provider too', async () => {
      await bind({ model: 'claude-sonnet-4', model_provider: 'anthropic' });
      const r = await bind({ model: null });
      expect(r.body.project).not.toHaveProperty('model');
      expect(r.body.project).not.toHaveProperty('model_provider');
    });

    it('a provider needs a model, bound before or in the same request', async () => {
      const alone = await bind({ model_provider: 'anthropic' });
      expect(alone.status).toBe(400);
      expect(alone.body.error).toMatch(/^model_provider: /);
      const cleared = await bind({ model: null, model_provider: 'anthropic' });
      expect(cleared.status).toBe(400);
      await bind({ model: 'm1' });
      expect((await bind({ model_provider: 'anthropic' })).body.project).toMatchObject({ model: 'm1', model_provider: 'anthropic' });
    });

    it.each(['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'])('accepts reasoning_effort %s', async (effort) => {
      expect((await bind({ reasoning_effort: effort })).body.project.reasoning_effort).toBe(effort);
    });

    it.each([
      [{ reasoning_effort: 'extreme' }, 'reasoning_effort must be one of none, minimal, low, medium, high, xhigh, max'],
      [{ reasoning_effort: 3 }, 'reasoning_effort must be a string or null'],
      [{ model: 42 }, 'model must be a string or null'],
      [{ model: 'm'.repeat(257) }, 'model must be at most 256 characters'],
      [{ model_provider: ['x'] }, 'model_provider must be a string or null'],
    ])('refuses %j with 400 naming the field', async (body, message) => {
      const r = await bind(body);
      expect(r.status).toBe(400);
      expect(r.body.error).toContain(message);
      expect(Object.keys(await stored()).sort()).toEqual([...BASE].sort());
    });
  });

  describe('partial updates and the request itself', () => {
    it('touches only the supplied fields', async () => {
      await bind({ workspaces: [a, b], default_workspace: b, auto_assign: true, model: 'm1', model_provider: 'p1', reasoning_effort: 'low' });
      const full = await stored();
      expect((await bind({ model: 'm2' })).body.project).toEqual({ ...full, model: 'm2' });
      expect((await bind({ reasoning_effort: 'max' })).body.project).toEqual({ ...full, model: 'm2', reasoning_effort: 'max' });
      expect((await bind({})).body.project).toEqual({ ...full, model: 'm2', reasoning_effort: 'max' });
    });

    it('an unknown project is 404, a missing project_id 400', async () => {
      const unknown = await t.call('POST', '/api/projects/bind', { project_id: 'nope', model: 'm' });
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: 'Project not found' });
      const missing = await t.call('POST', '/api/projects/bind', { model: 'm' });
      expect(missing.status).toBe(400);
      expect(missing.body.error).toContain('project_id is required');
    });

    it('malformed JSON and non-objects are 400', async () => {
      const res = await t.app.request('/api/projects/bind', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{oops' });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: 'Request body is not valid JSON' });
      expect((await t.call('POST', '/api/projects/bind', [1])).status).toBe(400);
    });
  });
});

describe('projects.json keeps the incumbent format', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await makeTestApp({ storage: 'fs' });
  });
  afterEach(async () => {
    await t.close();
  });

  it('writes bindings as keys, never nulls, and keeps unknown keys and other projects', async () => {
    const ws = await realpath(t.workspace);
    await writeFile(
      join(t.stateDir, 'projects.json'),
      JSON.stringify([
        { project_id: 'p1', name: 'Old', color: null, profile: 'default', created_at: 1, workspace: ws, future_key: { x: 1 } },
        { project_id: 'p2', name: 'Other', color: '#fff', profile: 'default', created_at: 2 },
      ]),
    );
    // A row from before workspace lists: the legacy field counts as its list.
    const extra = join(t.dir, 'extra');
    await mkdir(extra);
    const r = await t.call('POST', '/api/projects/bind', { project_id: 'p1', default_workspace: extra, model: 'm' });
    expect(r.status).toBe(200);
    const file = JSON.parse(await readFile(join(t.stateDir, 'projects.json'), 'utf8'));
    const extraReal = await realpath(extra);
    expect(file).toEqual([
      {
        project_id: 'p1',
        name: 'Old',
        color: null,
        profile: 'default',
        created_at: 1,
        workspace: ws,
        future_key: { x: 1 },
        workspaces: [ws, extraReal],
        default_workspace: extraReal,
        model: 'm',
      },
      { project_id: 'p2', name: 'Other', color: '#fff', profile: 'default', created_at: 2 },
    ]);
    await t.call('POST', '/api/projects/bind', { project_id: 'p1', workspaces: null, model: null });
    expect(JSON.parse(await readFile(join(t.stateDir, 'projects.json'), 'utf8'))[0]).toEqual({
      project_id: 'p1',
      name: 'Old',
      color: null,
      profile: 'default',
      created_at: 1,
      future_key: { x: 1 },
    });
  });
});
