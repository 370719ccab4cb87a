import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;

beforeEach(async () => {
  t = await makeTestApp();
});

afterEach(async () => {
  await t.close();
});

function expectError(r: { status: number; body: any; res: Response }, status: number, message?: string | RegExp) {
  expect(r.status).toBe(status);
  expect(r.res.headers.get('content-type') ?? '').toMatch(/^application\/json/);
  expect(typeof r.body.error).toBe('string');
  if (typeof message === 'string') expect(r.body.error).toBe(message);
  else if (message) expect(r.body.error).toMatch(message);
}

/** Creates a folder under the test's temp dir and returns its absolute path. */
async function folder(name: string): Promise<string> {
  const p = join(t.dir, name);
  await mkdir(p, { recursive: true });
  return p;
}

const get = () => t.call('GET', '/api/workspaces');
const add = (body: Record<string, unknown>) => t.call('POST', '/api/workspaces/add', body);
const home = () => ({ path: t.workspace, name: 'Home' });

describe('GET /api/workspaces', () => {
  it('reads an empty list as the default workspace named Home, and last as the default', async () => {
    const r = await get();
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ workspaces: [home()], last: t.workspace, terminal_remote_backend: false });
    expect(r.res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('POST /api/workspaces/add', () => {
  it('adds an existing folder after Home, named after its basename', async () => {
    const proj = await folder('projects/alpha');
    const r = await add({ path: proj });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, workspaces: [home(), { path: proj, name: 'alpha' }] });
    expect((await get()).body.workspaces).toEqual([home(), { path: proj, name: 'alpha' }]);
    expect(await t.deps.workspaces.list()).toEqual([home(), { path: proj, name: 'alpha' }]);
  });

  it('uses a given name, trimmed', async () => {
    const proj = await folder('beta');
    const r = await add({ path: proj, name: '  My Beta  ' });
    expect(r.status).toBe(200);
    expect(r.body.workspaces.at(-1)).toEqual({ path: proj, name: 'My Beta' });
  });

  it('stores the canonical path (trailing slash and symlinks resolved)', async () => {
    const proj = await folder('gamma');
    const r = await add({ path: `${proj}/` });
    expect(r.status).toBe(200);
    expect(r.body.workspaces.at(-1)).toEqual({ path: proj, name: 'gamma' });
    await symlink(proj, join(t.dir, 'gamma-link'));
    expectError(await add({ path: join(t.dir, 'gamma-link') }), 400, 'Workspace already in list');
  });

  it('400s for a path that does not exist, and does not create it', async () => {
    const missing = join(t.dir, 'nope');
    expectError(await add({ path: missing }), 400, /does not exist/);
    await expect(stat(missing)).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await get()).body.workspaces).toEqual([home()]);
  });

  it('creates a missing folder with create: true', async () => {
    const fresh = join(t.dir, 'fresh', 'nested');
    const r = await add({ path: fresh, create: true });
    expect(r.status).toBe(200);
    expect(r.body.workspaces.at(-1)).toEqual({ path: fresh, name: 'nested' });
    expect((await stat(fresh)).isDirectory()).toBe(true);
  });

  it('400s for a file, even with create: true', async () => {
    const file = join(t.dir, 'afile.txt');
    await writeFile(file, 'x');
    expectError(await add({ path: file }), 400, /not a directory/);
    expectError(await add({ path: file, create: true }), 400);
    expectError(await add({ path: join(file, 'sub'), create: true }), 400);
    expect(await readFile(file, 'utf8')).toBe('x');
    expect((await get()).body.workspaces).toEqual([home()]);
  });

  it('400s for a duplicate, including the implicit Home', async () => {
    const proj = await folder('dup');
    expect((await add({ path: proj })).status).toBe(200);
    expectError(await add({ path: proj, name: 'Again' }), 400, 'Workspace already in list');
    expectError(await add({ path: t.workspace }), 400, 'Workspace already in list');
    expect((await get()).body.workspaces).toEqual([home(), { path: proj, name: 'dup' }]);
  });

  it('403s for system roots and trees', async () => {
    for (const p of ['/', '/etc', '/proc', '/sys', '/usr', '/var', '/etc/ssh', '/proc/self', '/etc/../etc', '//']) {
      expectError(await add({ path: p }), 403, /system directory/);
    }
    expectError(await add({ path: '/etc/hermes-should-not-exist', create: true }), 403);
    await expect(stat('/etc/hermes-should-not-exist')).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await get()).body.workspaces).toEqual([home()]);
  });

  it('403s for a symlink that leads to a system directory', async () => {
    const link = join(t.dir, 'etc-link');
    await symlink('/etc', link);
    expectError(await add({ path: link }), 403, /system directory/);
    expect((await get()).body.workspaces).toEqual([home()]);
  });

  it('403s before creating anything when create: true would land in a system tree through a symlink', async () => {
    // /proc cannot take a new folder even for root, so this is safe to try for real.
    const link = join(t.dir, 'proc-link');
    await symlink('/proc', link);
    expectError(await add({ path: join(link, 'hermes-new'), create: true }), 403, /system directory/);
    expect((await get()).body.workspaces).toEqual([home()]);
  });

  it('400s for a relative path or a missing path', async () => {
    expectError(await add({ path: 'relative/dir' }), 400, 'Workspace path must be absolute');
    expectError(await add({ path: './x' }), 400, 'Workspace path must be absolute');
    // `~` is the server user's home, as the incumbent expands it (no such folder there).
    expectError(await add({ path: '~/no-such-hermes-test-dir' }), 400, /^Workspace does not exist: \/.*\/no-such-hermes-test-dir$/);
    expectError(await add({ path: '' }), 400);
    expectError(await add({}), 400, /path/);
    expect((await get()).body.workspaces).toEqual([home()]);
  });

  it('names it after the folder when the name is blank, as the incumbent does', async () => {
    const proj = await folder('named');
    expect((await add({ path: proj, name: '   ' })).status).toBe(200);
    expect((await get()).body.workspaces).toEqual([home(), { path: proj, name: 'named' }]);
  });
});

describe('POST /api/workspaces/remove', () => {
  it('removes one workspace and keeps the rest in order', async () => {
    const a = await folder('a');
    const b = await folder('b');
    await add({ path: a });
    await add({ path: b });
    const r = await t.call('POST', '/api/workspaces/remove', { path: a });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, workspaces: [home(), { path: b, name: 'b' }] });
    expect((await get()).body.workspaces).toEqual([home(), { path: b, name: 'b' }]);
    // The folder itself is untouched.
    expect((await stat(a)).isDirectory()).toBe(true);
  });

  it('is a no-op for a path not in the list', async () => {
    const a = await folder('a');
    await add({ path: a });
    const r = await t.call('POST', '/api/workspaces/remove', { path: join(t.dir, 'never-added') });
    expect(r.status).toBe(200);
    expect(r.body.workspaces).toEqual([home(), { path: a, name: 'a' }]);
  });

  it('reads as Home again once every workspace is removed', async () => {
    const a = await folder('a');
    await add({ path: a });
    await t.call('POST', '/api/workspaces/remove', { path: a });
    const r = await t.call('POST', '/api/workspaces/remove', { path: t.workspace });
    expect(r.status).toBe(200);
    expect(r.body.workspaces).toEqual([home()]);
    expect(await t.deps.workspaces.list()).toEqual([]);
  });

  it('400s without a path', async () => {
    expectError(await t.call('POST', '/api/workspaces/remove', {}), 400, /path/);
  });
});

describe('POST /api/workspaces/rename', () => {
  it('renames a workspace, including the implicit Home', async () => {
    const a = await folder('a');
    await add({ path: a });
    const r = await t.call('POST', '/api/workspaces/rename', { path: a, name: ' Alpha ' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, workspaces: [home(), { path: a, name: 'Alpha' }] });
    const h = await t.call('POST', '/api/workspaces/rename', { path: t.workspace, name: 'Base' });
    expect(h.status).toBe(200);
    expect((await get()).body.workspaces).toEqual([
      { path: t.workspace, name: 'Base' },
      { path: a, name: 'Alpha' },
    ]);
  });

  it('404s for an unknown workspace and changes nothing', async () => {
    const r = await t.call('POST', '/api/workspaces/rename', { path: join(t.dir, 'unknown'), name: 'X' });
    expectError(r, 404, 'Workspace not found');
    expect((await get()).body.workspaces).toEqual([home()]);
    expect(await t.deps.workspaces.list()).toEqual([]);
  });

  it('400s for an empty or missing name', async () => {
    expectError(await t.call('POST', '/api/workspaces/rename', { path: t.workspace, name: '  ' }), 400, /name/);
    expectError(await t.call('POST', '/api/workspaces/rename', { path: t.workspace }), 400, /name/);
    expect((await get()).body.workspaces).toEqual([home()]);
  });
});

describe('POST /api/workspaces/reorder', () => {
  let a: string;
  let b: string;
  let c: string;

  beforeEach(async () => {
    a = await folder('a');
    b = await folder('b');
    c = await folder('c');
    for (const p of [a, b, c]) expect((await add({ path: p })).status).toBe(200);
  });

  const paths = (list: { path: string }[]) => list.map((w) => w.path);

  it('puts workspaces in the given order', async () => {
    const r = await t.call('POST', '/api/workspaces/reorder', { paths: [c, a, t.workspace, b] });
    expect(r.status).toBe(200);
    expect(paths(r.body.workspaces)).toEqual([c, a, t.workspace, b]);
    expect(paths((await get()).body.workspaces)).toEqual([c, a, t.workspace, b]);
    // Names travel with their paths.
    expect(r.body.workspaces[0]).toEqual({ path: c, name: 'c' });
  });

  it('appends omitted workspaces in their previous order, ignoring unknown and repeated paths', async () => {
    const r = await t.call('POST', '/api/workspaces/reorder', { paths: [b, join(t.dir, 'ghost'), b] });
    expect(r.status).toBe(200);
    expect(paths(r.body.workspaces)).toEqual([b, t.workspace, a, c]);
    expect(r.body.workspaces).toHaveLength(4);
    expect(paths(await t.deps.workspaces.list())).toEqual([b, t.workspace, a, c]);
  });

  it('keeps the order for an empty list', async () => {
    const r = await t.call('POST', '/api/workspaces/reorder', { paths: [] });
    expect(r.status).toBe(200);
    expect(paths(r.body.workspaces)).toEqual([t.workspace, a, b, c]);
  });

  it('400s when paths is not a list of strings', async () => {
    expectError(await t.call('POST', '/api/workspaces/reorder', {}), 400, /paths/);
    expectError(await t.call('POST', '/api/workspaces/reorder', { paths: 'a' }), 400, /paths/);
    expectError(await t.call('POST', '/api/workspaces/reorder', { paths: [1, 2] }), 400, /paths/);
    expect(paths((await get()).body.workspaces)).toEqual([t.workspace, a, b, c]);
  });
});

describe('the last workspace', () => {
  it('is written by /api/session/update with a workspace and used by the next new session', async () => {
    const sid = await t.newSession();
    const proj = await folder('proj');
    const u = await t.call('POST', '/api/session/update', { session_id: sid, workspace: proj });
    expect(u.status).toBe(200);
    expect(u.body.session.workspace).toBe(proj);
    expect(await t.deps.workspaces.getLast()).toBe(proj);
    expect((await get()).body.last).toBe(proj);

    const next = await t.call('POST', '/api/session/new', {});
    expect(next.status).toBe(200);
    expect(next.body.session.workspace).toBe(proj);

    // And that session's files are the new workspace's files.
    await writeFile(join(proj, 'in-proj.txt'), 'p');
    const l = await t.call('GET', `/api/list?session_id=${next.body.session.session_id}`);
    expect(l.status).toBe(200);
    expect(l.body.entries.map((e: any) => e.name)).toEqual(['in-proj.txt']);
  });

  it('is the canonical path of the workspace given', async () => {
    const sid = await t.newSession();
    const proj = await folder('canon');
    await symlink(proj, join(t.dir, 'canon-link'));
    const u = await t.call('POST', '/api/session/update', { session_id: sid, workspace: join(t.dir, 'canon-link') });
    expect(u.status).toBe(200);
    expect(u.body.session.workspace).toBe(proj);
    expect((await get()).body.last).toBe(proj);
  });

  it('is not changed by an update without a workspace, nor by a refused one', async () => {
    const sid = await t.newSession();
    const r = await t.call('POST', '/api/session/update', { session_id: sid, model: 'm' });
    expect(r.status).toBe(200);
    expect(await t.deps.workspaces.getLast()).toBeNull();
    expectError(await t.call('POST', '/api/session/update', { session_id: sid, workspace: '/etc' }), 403);
    expectError(await t.call('POST', '/api/session/update', { session_id: sid, workspace: join(t.dir, 'missing') }), 400);
    expectError(await t.call('POST', '/api/session/update', { session_id: sid, workspace: 'relative' }), 400);
    expect(await t.deps.workspaces.getLast()).toBeNull();
    expect((await get()).body.last).toBe(t.workspace);
  });

  it('falls back to the default workspace when the last one has gone', async () => {
    const sid = await t.newSession();
    const proj = await folder('temporary');
    expect((await t.call('POST', '/api/session/update', { session_id: sid, workspace: proj })).status).toBe(200);
    await rm(proj, { recursive: true });
    const next = await t.call('POST', '/api/session/new', {});
    expect(next.status).toBe(200);
    expect(next.body.session.workspace).toBe(t.workspace);
  });

  it('an explicit workspace on /api/session/new wins over last', async () => {
    const sid = await t.newSession();
    const last = await folder('last');
    const explicit = await folder('explicit');
    await t.call('POST', '/api/session/update', { session_id: sid, workspace: last });
    const next = await t.call('POST', '/api/session/new', { workspace: explicit });
    expect(next.status).toBe(200);
    expect(next.body.session.workspace).toBe(explicit);
  });
});

describe('on disk (fs storage)', () => {
  let f: TestApp;

  beforeEach(async () => {
    f = await makeTestApp({ storage: 'fs' });
  });

  afterEach(async () => {
    await f.close();
  });

  it('writes workspaces.json and last_workspace.txt', async () => {
    const proj = join(f.dir, 'disk');
    await mkdir(proj);
    const r = await f.call('POST', '/api/workspaces/add', { path: proj, name: 'Disk' });
    expect(r.status).toBe(200);
    const saved = JSON.parse(await readFile(join(f.stateDir, 'workspaces.json'), 'utf8'));
    expect(saved).toEqual([
      { path: f.workspace, name: 'Home' },
      { path: proj, name: 'Disk' },
    ]);

    await f.call('POST', '/api/workspaces/reorder', { paths: [proj] });
    expect(JSON.parse(await readFile(join(f.stateDir, 'workspaces.json'), 'utf8')).map((w: any) => w.path)).toEqual([proj, f.workspace]);

    const sid = await f.newSession();
    expect((await f.call('POST', '/api/session/update', { session_id: sid, workspace: proj })).status).toBe(200);
    expect((await readFile(join(f.stateDir, 'last_workspace.txt'), 'utf8')).trim()).toBe(proj);
    const next = await f.call('POST', '/api/session/new', {});
    expect(next.body.session.workspace).toBe(proj);
  });
});
