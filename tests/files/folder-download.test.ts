import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let sid: string;
let outside: string;

beforeEach(async () => {
  t = await makeTestApp({ env: { HERMES_WEBUI_FOLDER_ZIP_MAX_MB: '1', HERMES_WEBUI_FOLDER_ZIP_MAX_FILES: '20' } });
  sid = await t.newSession();
  outside = await mkdtemp(join(tmpdir(), 'hermes-outside-'));
  await writeFile(join(outside, 'secret.txt'), 'top secret');
});

afterEach(async () => {
  await t.close();
  await rm(outside, { recursive: true, force: true });
});

const ws = (...parts: string[]) => join(t.workspace, ...parts);
const download = (path?: string) => t.app.request(`/api/folder/download?${new URLSearchParams({ session_id: sid, ...(path === undefined ? {} : { path }) })}`);

async function unzipped(res: Response) {
  // Read as a stream, chunk by chunk, as a browser would.
  const reader = res.body!.getReader();
  const parts: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
  }
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  const files = unzipSync(all);
  return Object.fromEntries(Object.entries(files).map(([k, v]) => [k, new TextDecoder().decode(v)]));
}

describe('GET /api/folder/download (zip, streamed)', () => {
  it('zips a folder with its subfolders, as an attachment named after it', async () => {
    await mkdir(ws('proj', 'src'), { recursive: true });
    await writeFile(ws('proj', 'README.md'), '# proj');
    await writeFile(ws('proj', 'src', 'main.ts'), 'console.log(1)');
    const res = await download('proj');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="proj\.zip"/);
    expect(await unzipped(res)).toEqual({ 'README.md': '# proj', 'src/main.ts': 'console.log(1)' });
  });

  it('follows no symlink out of the workspace, and no symlinked folder at all (no loops)', async () => {
    await mkdir(ws('proj'));
    await writeFile(ws('proj', 'a.txt'), 'a');
    await symlink(join(outside, 'secret.txt'), ws('proj', 'leak.txt'));
    await symlink(outside, ws('proj', 'leakdir'));
    await symlink('..', ws('proj', 'up'));
    await symlink('a.txt', ws('proj', 'alias.txt'));
    expect(await unzipped(await download('proj'))).toEqual({ 'a.txt': 'a', 'alias.txt': 'a' });
  });

  it('the workspace root zips too (no path)', async () => {
    await writeFile(ws('root.txt'), 'r');
    const res = await download();
    expect(res.status).toBe(200);
    expect(Object.keys(await unzipped(res))).toContain('root.txt');
  });

  it('answers 413 with the incumbent body before any zip byte, past the size or file cap', async () => {
    await mkdir(ws('big'));
    await writeFile(ws('big', 'blob.bin'), new Uint8Array(1024 * 1024 + 1));
    const big = await download('big');
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ error: 'folder too large', limit_bytes: 1024 * 1024, configure: 'HERMES_WEBUI_FOLDER_ZIP_MAX_MB' });
    await mkdir(ws('many'));
    for (let i = 0; i < 21; i++) await writeFile(ws('many', `f${i}.txt`), '');
    const many = await download('many');
    expect(many.status).toBe(413);
    expect(await many.json()).toEqual({ error: 'too many files', limit: 20, configure: 'HERMES_WEBUI_FOLDER_ZIP_MAX_FILES' });
  });

  it('refuses a file, a missing folder, traversal and a symlinked folder leading out', async () => {
    await writeFile(ws('f.txt'), 'x');
    await symlink(outside, ws('out'));
    expect((await download('f.txt')).status).toBe(400);
    expect((await download('nope')).status).toBe(404);
    expect((await download('../')).status).toBe(403);
    expect((await download('out')).status).toBe(403);
    const noSession = await t.app.request('/api/folder/download?path=x');
    expect(noSession.status).toBe(400);
    expect(await noSession.json()).toEqual({ error: 'session_id is required' });
  });
});
