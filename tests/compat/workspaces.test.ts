import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/app.js';

/** The incumbent's Spaces clients: its request fields and the answer fields they read. */
let t: TestApp;
let home: string;
const realHome = process.env.HOME;

beforeAll(async () => {
  // `~` expands to the server user's home: give this app one inside its own temp dir.
  const base = await import('node:fs/promises').then((fs) => fs.mkdtemp(join(process.env.TMPDIR ?? '/tmp', 'hermes-home-')));
  home = join(base, 'user');
  await mkdir(join(home, 'proj'), { recursive: true });
  process.env.HOME = home;
  try {
    t = await makeTestApp();
  } finally {
    process.env.HOME = realHome;
  }
});

afterAll(async () => {
  await t.close();
});

const call = (op: string, body: Record<string, unknown>) => t.call('POST', `/api/workspaces/${op}`, { csrf: 'ignored', ...body });

describe('/api/workspaces', () => {
  it('GET answers {workspaces:[{path,name}], last, terminal_remote_backend}', async () => {
    const r = await t.call('GET', '/api/workspaces');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ workspaces: [{ path: t.workspace, name: 'Home' }], last: t.workspace, terminal_remote_backend: false });
  });

  it('add takes a quoted, ~-relative path and a blank name, and answers {ok, workspaces}', async () => {
    const r = await call('add', { path: "  '~/proj'  ", name: '' });
    expect(r.status).toBe(200);
    expect(r.body.ok).toBe(true);
    expect(r.body.workspaces).toContainEqual({ path: join(home, 'proj'), name: 'proj' });
    const again = await call('add', { path: join(home, 'proj') });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: 'Workspace already in list' });
  });

  it('add with create makes the folder', async () => {
    const r = await call('add', { path: '~/made/here', create: true, name: 'Made' });
    expect(r.status).toBe(200);
    expect(r.body.workspaces).toContainEqual({ path: join(home, 'made', 'here'), name: 'Made' });
  });

  it('answers the incumbent texts for missing fields and an unknown workspace', async () => {
    expect((await call('add', {})).body).toEqual({ error: 'path is required' });
    expect((await call('remove', { path: ' ' })).body).toEqual({ error: 'path is required' });
    expect((await call('rename', { path: t.workspace })).body).toEqual({ error: 'path and name are required' });
    const unknown = await call('rename', { path: '/no/such/space', name: 'x' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: 'Workspace not found' });
  });

  it('rename, reorder and remove answer {ok, workspaces} in the new order', async () => {
    const proj = join(home, 'proj');
    expect((await call('rename', { path: ` ${proj} `, name: ' Project ' })).body.workspaces).toContainEqual({ path: proj, name: 'Project' });
    const order = await call('reorder', { paths: [` ${proj}`] });
    expect(order.body.ok).toBe(true);
    expect(order.body.workspaces[0]).toEqual({ path: proj, name: 'Project' });
    const removed = await call('remove', { path: proj });
    expect(removed.body.ok).toBe(true);
    expect(removed.body.workspaces.map((w: { path: string }) => w.path)).not.toContain(proj);
  });

  it('keeps refusing a system directory (a deliberate difference: 403)', async () => {
    const r = await call('add', { path: '/etc' });
    expect(r.status).toBe(403);
  });

  it('suggest answers {suggestions, prefix}', async () => {
    const r = await t.call('GET', `/api/workspaces/suggest?prefix=${encodeURIComponent(`${home}/pr`)}`);
    expect(r.status).toBe(200);
    expect(r.body.prefix).toBe(`${home}/pr`);
    expect(Array.isArray(r.body.suggestions)).toBe(true);
  });
});
