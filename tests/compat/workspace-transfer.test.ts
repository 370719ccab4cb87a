import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { zipOf } from '../files/archives.js';
import { postForm } from '../files/helpers.js';

/** The incumbent's request shapes for its file-transfer endpoints (api/upload.py, api/routes.py), and the answer keys its clients read. */
let t: TestApp;
let sid: string;

beforeEach(async () => {
  t = await makeTestApp();
  sid = await t.newSession();
});

afterEach(async () => {
  await t.close();
});

describe('compat: uploads, extraction, folder download', () => {
  it('POST /api/workspace/upload takes file, session_id, path (and ignores fields it does not use)', async () => {
    const r = await postForm(t, '/api/workspace/upload', { session_id: sid, path: 'in', client_hint: 'ignored' }, [{ name: 'a.txt', data: 'a' }]);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['extracted', 'filename', 'is_image', 'mime', 'path', 'size']);
    const archive = await postForm(t, '/api/workspace/upload', { session_id: sid }, [{ name: 'z.zip', data: zipOf({ 'x.txt': 'x' }) }]);
    expect(Object.keys(archive.body).sort()).toEqual(['extracted', 'extracted_count', 'extracted_files', 'filename', 'is_image', 'path', 'size']);
  });

  it('POST /api/upload/extract answers {ok, dest, files, extracted}', async () => {
    const r = await postForm(t, '/api/upload/extract', { session_id: sid, extra: '1' }, [{ name: 'z.zip', data: zipOf({ 'x.txt': 'x' }) }]);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['dest', 'extracted', 'files', 'ok']);
  });

  it('GET /api/folder/download?session_id&path streams application/zip', async () => {
    await mkdir(join(t.workspace, 'd'));
    await writeFile(join(t.workspace, 'd', 'f.txt'), 'f');
    const res = await t.app.request(`/api/folder/download?session_id=${sid}&path=d&unused=1`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(new Uint8Array(await res.arrayBuffer()).subarray(0, 2)).toEqual(new Uint8Array([0x50, 0x4b]));
  });
});
