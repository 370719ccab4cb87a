import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { zipOf } from './archives.js';
import { postForm } from './helpers.js';

let t: TestApp;
let sid: string;
let outside: string;

beforeEach(async () => {
  t = await makeTestApp({ maxUploadBytes: 1024 * 1024 });
  sid = await t.newSession();
  outside = await mkdtemp(join(tmpdir(), 'hermes-outside-'));
});

afterEach(async () => {
  await t.close();
  await rm(outside, { recursive: true, force: true });
});

const ws = (...parts: string[]) => join(t.workspace, ...parts);
const up = (files: { name: string; data: BlobPart | Uint8Array; field?: string }[], fields: Record<string, string> = {}) =>
  postForm(t, '/api/workspace/upload', { session_id: sid, ...fields }, files);

describe('POST /api/workspace/upload (multipart: file, session_id, path)', () => {
  it('writes into a folder of the workspace and answers the incumbent fields', async () => {
    await mkdir(ws('docs'));
    const r = await up([{ name: 'notes.md', data: '# notes' }], { path: 'docs' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ filename: 'notes.md', path: ws('docs', 'notes.md'), size: 7, mime: 'text/markdown', is_image: false, extracted: false });
    expect(await readFile(ws('docs', 'notes.md'), 'utf8')).toBe('# notes');
  });

  it('creates a missing folder, sanitises the name and de-duplicates as -1, -2, never overwriting', async () => {
    await up([{ name: 'my report.txt', data: 'one' }], { path: 'new/sub' });
    const second = await up([{ name: 'my report.txt', data: 'two' }], { path: 'new/sub' });
    expect(second.body.filename).toBe('my_report-1.txt');
    expect(await readFile(ws('new', 'sub', 'my_report.txt'), 'utf8')).toBe('one');
    expect(await readFile(ws('new', 'sub', 'my_report-1.txt'), 'utf8')).toBe('two');
  });

  it('takes several files at once as {files, count}; no path means the workspace root', async () => {
    const r = await up([
      { name: 'a.txt', data: 'a' },
      { name: 'b.png', data: 'b', field: 'file2' },
    ]);
    expect(r.body.count).toBe(2);
    expect(r.body.files.map((f: any) => [f.filename, f.is_image])).toEqual([
      ['a.txt', false],
      ['b.png', true],
    ]);
    expect((await readdir(t.workspace)).sort()).toEqual(expect.arrayContaining(['a.txt', 'b.png']));
  });

  it('extracts an uploaded archive into <folder>/<stem>/ and keeps no archive', async () => {
    const r = await up([{ name: 'site.zip', data: zipOf({ 'index.html': '<h1>hi</h1>' }) }], { path: 'web' });
    expect(r.body).toMatchObject({ filename: 'site.zip', path: ws('web', 'site'), extracted: true, extracted_files: ['site/index.html'], extracted_count: 1 });
    expect(await readdir(ws('web'))).toEqual(['site']);
  });

  it('a hostile archive answers extracted:false with extract_error and leaves nothing', async () => {
    const r = await up([{ name: 'evil.zip', data: zipOf({ '../../x.txt': 'x' }) }], { path: 'web' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ extracted: false, extract_error: 'Zip-slip blocked: ../../x.txt' });
    expect(await readdir(ws('web'))).toEqual([]);
  });

  it('refuses traversal, absolute folders and a symlinked folder that leads out (403)', async () => {
    await symlink(outside, ws('out'));
    for (const path of ['../escape', '/tmp', 'out', 'out/deeper']) {
      const r = await up([{ name: 'x.txt', data: 'x' }], { path });
      expect(r.status, path).toBe(403);
      expect(typeof r.body.error).toBe('string');
    }
    expect(await readdir(outside)).toEqual([]);
  });

  it('never writes through a symlink planted under the upload name', async () => {
    await writeFile(join(outside, 'target.txt'), 'keep');
    await symlink(join(outside, 'target.txt'), ws('x.txt'));
    const r = await up([{ name: 'x.txt', data: 'new' }]);
    expect(r.body.filename).toBe('x-1.txt');
    expect(await readFile(join(outside, 'target.txt'), 'utf8')).toBe('keep');
  });

  it('answers the incumbent errors: Missing session_id, No file field, Session not found, 413', async () => {
    expect((await postForm(t, '/api/workspace/upload', {}, [{ name: 'a', data: 'a' }])).body).toEqual({ error: 'Missing session_id' });
    expect((await up([])).body).toEqual({ error: 'No file field in request' });
    expect((await postForm(t, '/api/workspace/upload', { session_id: 'nosuch' }, [{ name: 'a', data: 'a' }])).status).toBe(404);
    expect((await up([{ name: 'big.bin', data: new Uint8Array(2 * 1024 * 1024) }])).status).toBe(413);
  });
});
