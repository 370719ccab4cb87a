import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let sid: string;

beforeEach(async () => {
  t = await makeTestApp();
  sid = await t.newSession();
});

afterEach(async () => {
  await t.close();
});

const ws = (...parts: string[]) => join(t.workspace, ...parts);
const list = (path: string) => t.call('GET', `/api/list?${new URLSearchParams({ session_id: sid, path })}`);
const byName = (entries: any[]) => Object.fromEntries(entries.map((e) => [e.name, e]));

describe('GET /api/list: symlink loops are shown, flagged, and not followed', () => {
  it('flags links to the folder itself, to an ancestor, and self/mutual loops; leaves a normal link alone', async () => {
    await mkdir(ws('a', 'b'), { recursive: true });
    await writeFile(ws('a', 'b', 'f.txt'), 'f');
    await mkdir(ws('c'));
    await symlink('.', ws('a', 'b', 'here'));
    await symlink('..', ws('a', 'b', 'parent'));
    await symlink(t.workspace, ws('a', 'b', 'root'));
    await symlink('self', ws('a', 'b', 'self'));
    await symlink('m2', ws('a', 'b', 'm1'));
    await symlink('m1', ws('a', 'b', 'm2'));
    await symlink(ws('c'), ws('a', 'b', 'sibling'));
    const r = await list('a/b');
    expect(r.status).toBe(200);
    const e = byName(r.body.entries);
    for (const name of ['here', 'parent', 'root', 'self', 'm1', 'm2']) {
      expect(e[name], name).toMatchObject({ type: 'symlink', is_dir: false, symlink_loop: true });
    }
    expect(e.sibling).toMatchObject({ type: 'symlink', is_dir: true, target_outside_workspace: false });
    expect(e.sibling.symlink_loop).toBeUndefined();
    expect(e['f.txt'].symlink_loop).toBeUndefined();
  });
});
