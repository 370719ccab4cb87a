import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/app.js';

/**
 * The incumbent's file-browser clients, driven with its request shapes (extra fields they send
 * or older builds sent included) and checked for the fields, codes and texts they read.
 */
let t: TestApp;
let sid: string;

beforeAll(async () => {
  t = await makeTestApp();
  sid = await t.newSession();
});

afterAll(async () => {
  await t.close();
});

const ws = (...parts: string[]) => join(t.workspace, ...parts);
// The incumbent's clients send fields this server does not use (`csrf`, `ts`): never a 400.
const post = (op: string, body: Record<string, unknown>) => t.call('POST', `/api/file/${op}`, { session_id: sid, csrf: 'x', ts: 1, ...body });

describe('/api/list and /api/file', () => {
  it('answers {entries, path, workspace, workspace_recovered} with the entry fields', async () => {
    await writeFile(ws('list-me.txt'), 'abc');
    const r = await t.call('GET', `/api/list?session_id=${sid}&path=.&extra=1`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ path: '.', workspace: t.workspace, workspace_recovered: false });
    const entry = r.body.entries.find((e: { name: string }) => e.name === 'list-me.txt');
    expect(entry).toMatchObject({ name: 'list-me.txt', path: 'list-me.txt', type: 'file', is_dir: false, size: 3 });
    expect(typeof entry.mtime_ns).toBe('string');
  });

  it('reads text as {path, content, size, lines}', async () => {
    await writeFile(ws('read.txt'), 'a\nb');
    const r = await t.call('GET', `/api/file?session_id=${sid}&path=read.txt`);
    expect(r.body).toEqual({ path: 'read.txt', content: 'a\nb', size: 3, lines: 2 });
  });

  it('answers the incumbent texts for a missing session id and a missing session', async () => {
    const missing = await t.call('GET', '/api/list');
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('session_id is required');
    const gone = await t.call('GET', '/api/file?session_id=nosuchsession&path=a');
    expect(gone.status).toBe(404);
    expect(gone.body.error).toBe('Session not found');
  });
});

describe('POST /api/file/* answers', () => {
  it('create: {ok, path}; an existing file is 400 "File already exists", not 409', async () => {
    const r = await post('create', { path: 'new.txt', content: 'x' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: true, path: 'new.txt' });
    const again = await post('create', { path: 'new.txt', content: 'clobber' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: 'File already exists' });
    expect(await readFile(ws('new.txt'), 'utf8')).toBe('x');
  });

  it('create-dir: {ok, path}; an existing path is 400 "Path already exists"', async () => {
    expect((await post('create-dir', { path: 'folder' })).body).toEqual({ ok: true, path: 'folder' });
    const again = await post('create-dir', { path: 'folder' });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: 'Path already exists' });
  });

  it('rename: {ok, old_path, new_path}; a taken name and a bad name are the incumbent 400s', async () => {
    await mkdir(ws('r'), { recursive: true });
    await writeFile(ws('r', 'one.txt'), '1');
    await writeFile(ws('r', 'two.txt'), '2');
    const r = await post('rename', { path: 'r/one.txt', new_name: 'uno.txt' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: true, old_path: 'r/one.txt', new_path: 'r/uno.txt' });
    const taken = await post('rename', { path: 'r/uno.txt', new_name: 'two.txt' });
    expect(taken.status).toBe(400);
    expect(taken.body.error).toBe('A file named "two.txt" already exists');
    const bad = await post('rename', { path: 'r/uno.txt', new_name: 'a/b' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Invalid file name');
    const missing = await post('rename', { path: 'r/none.txt', new_name: 'x.txt' });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('File not found');
  });

  it('move: {ok, old_path, new_path}; dest_dir "." is the workspace root; a taken name is 400', async () => {
    await mkdir(ws('m', 'into'), { recursive: true });
    await writeFile(ws('m', 'f.txt'), 'f');
    const r = await post('move', { path: 'm/f.txt', dest_dir: 'm/into' });
    expect(r.body).toMatchObject({ ok: true, old_path: 'm/f.txt', new_path: 'm/into/f.txt' });
    const up = await post('move', { path: 'm/into/f.txt', dest_dir: '.' });
    expect(up.body).toMatchObject({ ok: true, old_path: 'm/into/f.txt', new_path: 'f.txt' });
    await writeFile(ws('m', 'into', 'f.txt'), 'other');
    const taken = await post('move', { path: 'f.txt', dest_dir: 'm/into' });
    expect(taken.status).toBe(400);
    expect(taken.body.error).toBe('A file named "f.txt" already exists in that folder');
    const self = await post('move', { path: 'm', dest_dir: 'm/into' });
    expect(self.status).toBe(400);
    expect(self.body.error).toBe('Cannot move a folder into itself or its subfolder');
    const nowhere = await post('move', { path: 'f.txt', dest_dir: 'nowhere' });
    expect(nowhere.status).toBe(404);
    expect(nowhere.body.error).toBe('Destination folder not found');
  });

  it('save and delete: the incumbent texts for a directory, a symlink and recursive', async () => {
    await mkdir(ws('d'), { recursive: true });
    await writeFile(ws('d', 'real.txt'), 'real');
    await symlink(ws('d', 'real.txt'), ws('d', 'link.txt'));
    expect((await post('save', { path: 'd', content: 'x' })).body.error).toBe('Cannot save: path is a directory');
    const link = await post('save', { path: 'd/link.txt', content: 'x' });
    expect(link.status).toBe(400);
    expect(link.body.error).toBe('Cannot save to a symlinked entry');
    expect((await post('save', { path: 'd/real.txt', content: 'new' })).body).toEqual({ ok: true, path: 'd/real.txt', size: 3 });
    expect((await post('delete', { path: 'd/link.txt' })).body.error).toBe('Cannot delete a symlinked entry');
    const dir = await post('delete', { path: 'd' });
    expect(dir.status).toBe(400);
    expect(dir.body.error).toBe('Set recursive=true to delete directories');
    expect((await post('delete', { path: 'd', recursive: true })).body).toEqual({ ok: true, path: 'd' });
    expect((await post('delete', { path: 'd' })).status).toBe(404);
  });

  it("answers the incumbent's require() text for missing fields", async () => {
    expect((await t.call('POST', '/api/file/create', {})).body).toEqual({ error: 'Missing required field(s): session_id, path' });
    expect((await post('rename', { path: 'x' })).body).toEqual({ error: 'Missing required field(s): new_name' });
    expect((await post('move', { path: 'x', dest_dir: '' })).body).toEqual({ error: 'Missing required field(s): dest_dir' });
  });

  it('keeps the traversal refusal (a deliberate difference)', async () => {
    const r = await post('create', { path: '../escape.txt', content: 'x' });
    expect(r.status).toBe(403);
    await expect(stat(join(t.dir, 'escape.txt'))).rejects.toThrow();
  });
});

describe('POST /api/upload and GET /api/media', () => {
  it('upload answers {filename, path, size, mime, is_image}; no file is 400 "No file field in request"', async () => {
    const form = new FormData();
    form.set('session_id', sid);
    form.set('file', new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'pic.png', { type: 'image/png' }));
    const r = await t.app.request('/api/upload', { method: 'POST', body: form });
    expect(r.status).toBe(200);
    const body = (await r.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ filename: 'pic.png', size: 4, mime: 'image/png', is_image: true });
    expect(typeof body.path).toBe('string');
    const empty = new FormData();
    empty.set('session_id', sid);
    const none = await t.app.request('/api/upload', { method: 'POST', body: empty });
    expect(none.status).toBe(400);
    expect(await none.json()).toEqual({ error: 'No file field in request' });
  });

  it('media without a path is 400 "path parameter required"; snap is accepted', async () => {
    const r = await t.call('GET', `/api/media?session_id=${sid}&snap=1`);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ error: 'path parameter required' });
  });
});
