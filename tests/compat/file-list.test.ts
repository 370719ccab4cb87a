import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/app.js';

/**
 * GET /api/list as the incumbent answers it (api/workspace.py list_dir): its order (symlinks,
 * folders, files, by lower-cased name), the per-entry `workspace_sort_rank`, `mtime_ns` and
 * `birthtime_ns` as strings, a link out of the workspace without its target, and `signature`.
 */
let t: TestApp;
let sid: string;
let outside: string;
let folder: string;

beforeAll(async () => {
  t = await makeTestApp();
  outside = await mkdtemp(join(tmpdir(), 'hermes-outside-'));
  // A fresh folder of its own per run, so the listing holds exactly what this test made.
  const root = join(t.workspace, 'listing');
  await mkdir(join(root, 'Beta'), { recursive: true });
  await mkdir(join(root, 'alpha'));
  await writeFile(join(root, 'b.txt'), 'bb');
  await writeFile(join(root, 'A.md'), 'a');
  await symlink(join(root, 'b.txt'), join(root, 'z-link'));
  await symlink(join(root, 'alpha'), join(root, 'y-dir-link'));
  await symlink(outside, join(root, 'x-out'));
  folder = 'listing';
  sid = await t.newSession();
});

afterAll(async () => {
  await t.close();
  await rm(outside, { recursive: true, force: true });
});

const list = () => t.call('GET', `/api/list?session_id=${sid}&path=${folder}`);

describe('GET /api/list entries', () => {
  it('orders symlinks, then folders, then files, each by lower-cased name, with its ranks', async () => {
    const r = await list();
    expect(r.status).toBe(200);
    expect(r.body.entries.map((e: { name: string; workspace_sort_rank: number }) => [e.name, e.workspace_sort_rank])).toEqual([
      ['x-out', 0],
      ['y-dir-link', 0],
      ['z-link', 0],
      ['alpha', 1],
      ['Beta', 1],
      ['A.md', 2],
      ['b.txt', 2],
    ]);
  });

  it('gives times as nanosecond strings (birthtime null where the disk keeps none)', async () => {
    const { body } = await list();
    for (const e of body.entries) {
      expect(e.mtime_ns, e.name).toMatch(/^\d{16,}$/);
      if (e.birthtime_ns !== null) expect(e.birthtime_ns, e.name).toMatch(/^\d{16,}$/);
    }
    const file = body.entries.find((e: { name: string }) => e.name === 'b.txt');
    expect(file).toMatchObject({ path: `${folder}/b.txt`, type: 'file', size: 2 });
    expect(file).toHaveProperty('birthtime_ns');
  });

  it('tells where an inside link points, and only that a link out of the workspace exists', async () => {
    const { body } = await list();
    const byName = (n: string) => body.entries.find((e: { name: string }) => e.name === n);
    expect(byName('z-link')).toMatchObject({
      type: 'symlink',
      is_dir: false,
      size: 2,
      target: join(t.workspace, folder, 'b.txt'),
      target_outside_workspace: false,
    });
    expect(byName('y-dir-link')).toMatchObject({ type: 'symlink', is_dir: true, target: join(t.workspace, folder, 'alpha'), target_outside_workspace: false });
    const out = byName('x-out');
    expect(out).toMatchObject({ type: 'symlink', is_dir: false, target_outside_workspace: true });
    expect(out).not.toHaveProperty('target');
    expect(JSON.stringify(out)).not.toContain(outside);
  });

  it('answers a signature that stays while the folder does and changes when it changes', async () => {
    const first = (await list()).body;
    expect(first.signature).toMatch(/^[0-9a-f]{64}$/);
    expect((await list()).body.signature).toBe(first.signature);
    await writeFile(join(t.workspace, folder, 'c.txt'), 'c');
    const after = (await list()).body;
    expect(after.signature).not.toBe(first.signature);
    await rm(join(t.workspace, folder, 'c.txt'));
    expect((await list()).body.signature).toBe(first.signature);
    expect(Object.keys(first).sort()).toEqual(['entries', 'path', 'signature', 'workspace', 'workspace_recovered']);
  });
});
