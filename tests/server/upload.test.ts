import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readdir, readFile, stat } from 'node:fs/promises';
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

const attachmentsDir = (session = sid) => join(t.stateDir, 'attachments', session);

interface UploadOptions {
  session?: string | null;
  name?: string;
  type?: string;
  data?: BlobPart;
  /** Leaves the file field out. */
  noFile?: boolean;
  /** Sends the file field as a plain string instead of a file. */
  asString?: boolean;
}

async function upload(app: TestApp, opts: UploadOptions = {}) {
  const form = new FormData();
  const session = opts.session === undefined ? sid : opts.session;
  if (session !== null) form.append('session_id', session);
  if (opts.asString) form.append('file', 'just text');
  else if (!opts.noFile) form.append('file', new Blob([opts.data ?? 'hello'], { type: opts.type ?? '' }), opts.name ?? 'hello.txt');
  const res = await app.app.request('/api/upload', { method: 'POST', body: form });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // leave as text
  }
  return { status: res.status, body, res };
}

function expectError(r: { status: number; body: any; res: Response }, status: number, message?: string | RegExp) {
  expect(r.status).toBe(status);
  expect(r.res.headers.get('content-type') ?? '').toMatch(/^application\/json/);
  expect(typeof r.body.error).toBe('string');
  if (typeof message === 'string') expect(r.body.error).toBe(message);
  else if (message) expect(r.body.error).toMatch(message);
}

const listDir = (dir: string) => readdir(dir).catch(() => [] as string[]);

describe('POST /api/upload', () => {
  it('stores the file under <stateDir>/attachments/<sid>/ and describes it', async () => {
    const r = await upload(t, { name: 'notes.txt', type: 'text/plain', data: 'some notes' });
    expect(r.status).toBe(200);
    const expectedPath = join(attachmentsDir(), 'notes.txt');
    expect(r.body).toEqual({ filename: 'notes.txt', path: expectedPath, size: 10, mime: 'text/plain', is_image: false });
    expect(await readFile(expectedPath, 'utf8')).toBe('some notes');
    expect(await listDir(attachmentsDir())).toEqual(['notes.txt']);
  });

  it('keeps binary bytes intact and flags images', async () => {
    const bytes = new Uint8Array(256).map((_, i) => i);
    const r = await upload(t, { name: 'pixel.png', type: 'image/png', data: bytes });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ filename: 'pixel.png', size: 256, mime: 'image/png', is_image: true });
    expect(new Uint8Array(await readFile(r.body.path))).toEqual(bytes);
  });

  it('guesses the type from the name when the client sends none', async () => {
    const r = await upload(t, { name: 'photo.JPG', type: '', data: 'jpeg-ish' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ filename: 'photo.JPG', mime: 'image/jpeg', is_image: true });
    const generic = await upload(t, { name: 'doc.pdf', type: 'application/octet-stream', data: '%PDF' });
    expect(generic.status).toBe(200);
    expect(generic.body).toMatchObject({ filename: 'doc.pdf', mime: 'application/pdf', is_image: false });
    const unknown = await upload(t, { name: 'data.unknownext', type: '' });
    expect(unknown.body.mime).toBe('application/octet-stream');
  });

  it('accepts an empty file', async () => {
    const r = await upload(t, { name: 'empty.txt', data: '' });
    expect(r.status).toBe(200);
    expect(r.body.size).toBe(0);
    expect((await stat(r.body.path)).size).toBe(0);
  });

  it('sanitises spaces and non-ASCII characters in the name', async () => {
    const r = await upload(t, { name: 'my résumé (final).txt' });
    expect(r.status).toBe(200);
    expect(r.body.filename).toBe('my_r_sum___final_.txt');
    expect(r.body.path).toBe(join(attachmentsDir(), 'my_r_sum___final_.txt'));
    expect(await listDir(attachmentsDir())).toEqual(['my_r_sum___final_.txt']);
  });

  it('keeps only the last path segment of a name with ../ and cannot escape the folder', async () => {
    const r = await upload(t, { name: '../../../evil.txt', data: 'evil' });
    expect(r.status).toBe(200);
    expect(r.body.filename).toBe('evil.txt');
    expect(r.body.path).toBe(join(attachmentsDir(), 'evil.txt'));
    expect(await readFile(join(attachmentsDir(), 'evil.txt'), 'utf8')).toBe('evil');
    // Nothing landed next to the attachments or in the state dir.
    expect(await listDir(join(t.stateDir, 'attachments'))).toEqual([sid]);
    expect((await listDir(t.stateDir)).includes('evil.txt')).toBe(false);
    expect((await listDir(t.dir)).includes('evil.txt')).toBe(false);

    const win = await upload(t, { name: '..\\..\\win.txt' });
    expect(win.status).toBe(200);
    expect(win.body.filename).toBe('win.txt');
  });

  it('strips leading dots and falls back to "upload" for a name with nothing usable', async () => {
    const hidden = await upload(t, { name: '.bashrc' });
    expect(hidden.status).toBe(200);
    expect(hidden.body.filename).toBe('bashrc');
    const dots = await upload(t, { name: '..' });
    expect(dots.status).toBe(200);
    expect(dots.body.filename).toBe('upload');
    const symbols = await upload(t, { name: '✓✓✓' });
    expect(symbols.status).toBe(200);
    expect(symbols.body.filename).toBe('upload-1');
    expect((await listDir(attachmentsDir())).sort()).toEqual(['bashrc', 'upload', 'upload-1']);
  });

  it('caps a very long name at 200 characters and keeps the extension', async () => {
    const r = await upload(t, { name: `${'a'.repeat(300)}.txt` });
    expect(r.status).toBe(200);
    expect(r.body.filename).toHaveLength(200);
    expect(r.body.filename.endsWith('.txt')).toBe(true);
  });

  it('de-duplicates a second upload of the same name as name-1.ext, then name-2.ext', async () => {
    const first = await upload(t, { name: 'report.csv', data: 'one' });
    const second = await upload(t, { name: 'report.csv', data: 'two' });
    const third = await upload(t, { name: 'report.csv', data: 'three' });
    expect([first.status, second.status, third.status]).toEqual([200, 200, 200]);
    expect(first.body.filename).toBe('report.csv');
    expect(second.body.filename).toBe('report-1.csv');
    expect(third.body.filename).toBe('report-2.csv');
    expect(await readFile(join(attachmentsDir(), 'report.csv'), 'utf8')).toBe('one');
    expect(await readFile(join(attachmentsDir(), 'report-1.csv'), 'utf8')).toBe('two');
    expect(await readFile(join(attachmentsDir(), 'report-2.csv'), 'utf8')).toBe('three');
  });

  it('de-duplicates concurrent uploads of one name without losing any', async () => {
    const results = await Promise.all([1, 2, 3, 4].map((n) => upload(t, { name: 'same.txt', data: `n${n}` })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const names = results.map((r) => r.body.filename).sort();
    expect(names).toEqual(['same-1.txt', 'same-2.txt', 'same-3.txt', 'same.txt']);
    const contents = await Promise.all(names.map((n) => readFile(join(attachmentsDir(), n), 'utf8')));
    expect(contents.sort()).toEqual(['n1', 'n2', 'n3', 'n4']);
  });

  it('keeps uploads of different sessions apart', async () => {
    const other = await t.newSession();
    const a = await upload(t, { name: 'a.txt', data: 'mine' });
    const b = await upload(t, { session: other, name: 'a.txt', data: 'theirs' });
    expect(a.body.filename).toBe('a.txt');
    expect(b.body.filename).toBe('a.txt');
    expect(b.body.path).toBe(join(attachmentsDir(other), 'a.txt'));
    expect(await readFile(join(attachmentsDir(other), 'a.txt'), 'utf8')).toBe('theirs');
    expect(await readFile(join(attachmentsDir(), 'a.txt'), 'utf8')).toBe('mine');
  });

  it('400s without a file, or with file as a plain field', async () => {
    expectError(await upload(t, { noFile: true }), 400, 'No file field in request');
    expectError(await upload(t, { asString: true }), 400, 'No file field in request');
    expect(await listDir(attachmentsDir())).toEqual([]);
  });

  it('400s for a request that is not multipart', async () => {
    const json = await t.call('POST', '/api/upload', { session_id: sid, file: 'x' });
    expectError(json, 400, /multipart\/form-data/);
    const plain = await t.app.request('/api/upload', { method: 'POST', body: 'raw bytes', headers: { 'Content-Type': 'application/octet-stream' } });
    expect(plain.status).toBe(400);
    expect(typeof (await plain.json()).error).toBe('string');
    const none = await t.app.request('/api/upload', { method: 'POST' });
    expect(none.status).toBe(400);
    expect(typeof (await none.json()).error).toBe('string');
    expect(await listDir(attachmentsDir())).toEqual([]);
  });

  it('400s for a malformed multipart body', async () => {
    const res = await t.app.request('/api/upload', {
      method: 'POST',
      body: 'this is not multipart at all',
      headers: { 'Content-Type': 'multipart/form-data; boundary=XYZ' },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe('Malformed multipart body');
  });

  it('404s for an unknown session and writes nothing', async () => {
    expectError(await upload(t, { session: 'nosuchsession' }), 404, 'Session not found');
    expect(await listDir(join(t.stateDir, 'attachments'))).toEqual([]);
  });

  it('404s a missing session id (as the incumbent), 400s an invalid one, and writes nothing', async () => {
    expectError(await upload(t, { session: null }), 404, 'Session not found');
    expectError(await upload(t, { session: '../x' }), 400, /Invalid session id/);
    expectError(await upload(t, { session: '..' }), 400, /Invalid session id/);
    expect(await listDir(join(t.stateDir, 'attachments'))).toEqual([]);
    expect(await listDir(t.stateDir)).not.toContain('x');
  });
});

describe('POST /api/upload size limit', () => {
  let small: TestApp;
  let smallSid: string;

  beforeEach(async () => {
    small = await makeTestApp({ maxUploadBytes: 1024 });
    smallSid = await small.newSession();
  });

  afterEach(async () => {
    await small.close();
  });

  it('accepts a file exactly at the limit', async () => {
    const r = await upload(small, { session: smallSid, name: 'fits.bin', data: new Uint8Array(1024) });
    expect(r.status).toBe(200);
    expect(r.body.size).toBe(1024);
    expect((await stat(join(small.stateDir, 'attachments', smallSid, 'fits.bin'))).size).toBe(1024);
  });

  it('413s a file just over the limit with a JSON error and stores nothing', async () => {
    const r = await upload(small, { session: smallSid, name: 'big.bin', data: new Uint8Array(1025) });
    expectError(r, 413, /^File too large/);
    expect(await listDir(join(small.stateDir, 'attachments', smallSid))).toEqual([]);
  });

  it('413s a body far past the limit (stopped by the body limit) with a JSON error', async () => {
    const r = await upload(small, { session: smallSid, name: 'huge.bin', data: new Uint8Array(200 * 1024) });
    expectError(r, 413, /^File too large/);
    expect(await listDir(join(small.stateDir, 'attachments', smallSid))).toEqual([]);
  });

  it('states the limit in a readable unit, not "0 MB"', async () => {
    const r = await upload(small, { session: smallSid, name: 'big.bin', data: new Uint8Array(2048) });
    expect(r.status).toBe(413);
    expect(r.body.error).not.toMatch(/\b0 MB/);
    expect(r.body.error).toBe('File too large (max 1KB)');
  });
});
