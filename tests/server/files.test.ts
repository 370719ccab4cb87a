import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lstat, mkdir, mkdtemp, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let sid: string;
/** A directory outside the workspace (and outside the test app's temp dir). */
let outside: string;

beforeEach(async () => {
  t = await makeTestApp();
  sid = await t.newSession();
  outside = await mkdtemp(join(tmpdir(), 'hermes-outside-'));
  await writeFile(join(outside, 'secret.txt'), 'top secret');
  await mkdir(join(outside, 'dir'));
  await writeFile(join(outside, 'dir', 'inner.txt'), 'inner secret');
});

afterEach(async () => {
  await t.close();
  await rm(outside, { recursive: true, force: true });
});

const ws = (...parts: string[]) => join(t.workspace, ...parts);
const exists = (p: string) =>
  lstat(p).then(
    () => true,
    () => false,
  );

function qs(params: Record<string, string | undefined>): string {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) u.set(k, v);
  return u.toString();
}

const list = (path?: string, session = sid) => t.call('GET', `/api/list?${qs({ session_id: session, path })}`);
const readText = (path?: string, session = sid) => t.call('GET', `/api/file?${qs({ session_id: session, path })}`);
const raw = (path: string, extra: Record<string, string> = {}, session = sid) => t.app.request(`/api/file/raw?${qs({ session_id: session, path, ...extra })}`);
const post = (op: string, body: Record<string, unknown>) => t.call('POST', `/api/file/${op}`, { session_id: sid, ...body });

/** Every error is `{"error": string}` served as JSON. */
function expectError(r: { status: number; body: any; res: Response }, status: number, message?: string | RegExp) {
  expect(r.status).toBe(status);
  expect(r.res.headers.get('content-type') ?? '').toMatch(/^application\/json/);
  expect(r.body).toBeTypeOf('object');
  expect(typeof r.body.error).toBe('string');
  expect(r.body.error.length).toBeGreaterThan(0);
  if (typeof message === 'string') expect(r.body.error).toBe(message);
  else if (message) expect(r.body.error).toMatch(message);
}

async function rawError(res: Response, status: number, message?: string | RegExp) {
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // leave as text; the assertion below fails with it visible
  }
  expectError({ status: res.status, body, res }, status, message);
}

describe('GET /api/list', () => {
  it('lists the workspace root: directories first, then files, case-insensitively sorted', async () => {
    await writeFile(ws('b.txt'), 'bee');
    await writeFile(ws('A.md'), '# a');
    await mkdir(ws('zdir'));
    await mkdir(ws('Adir'));
    const r = await list();
    expect(r.status).toBe(200);
    expect(r.body.path).toBe('.');
    expect(r.body.workspace).toBe(t.workspace);
    expect(r.body.entries.map((e: any) => e.name)).toEqual(['Adir', 'zdir', 'A.md', 'b.txt']);
  });

  it('reports name, path, type, is_dir, size and mtime_ns (a nanosecond string) per entry', async () => {
    await writeFile(ws('hello.txt'), 'hello world');
    await mkdir(ws('sub'));
    const r = await list();
    expect(r.status).toBe(200);
    const file = r.body.entries.find((e: any) => e.name === 'hello.txt');
    const dir = r.body.entries.find((e: any) => e.name === 'sub');
    expect(file).toMatchObject({ name: 'hello.txt', path: 'hello.txt', type: 'file', is_dir: false, size: 11 });
    expect(dir).toMatchObject({ name: 'sub', path: 'sub', type: 'dir', is_dir: true, size: 0 });
    for (const e of [file, dir]) {
      expect(typeof e.mtime_ns).toBe('string');
      expect(e.mtime_ns).toMatch(/^\d+$/);
      expect(e).not.toHaveProperty('target');
    }
    const st = await stat(ws('hello.txt'), { bigint: true });
    expect(file.mtime_ns).toBe(st.mtimeNs.toString());
    // Nanoseconds: within a day of now, scaled by 1e6 from milliseconds.
    expect(Math.abs(Number(BigInt(file.mtime_ns) / 1_000_000n) - Date.now())).toBeLessThan(86_400_000);
  });

  it('lists a subdirectory with workspace-relative paths', async () => {
    await mkdir(ws('src', 'lib'), { recursive: true });
    await writeFile(ws('src', 'main.ts'), 'x');
    const r = await list('src');
    expect(r.status).toBe(200);
    expect(r.body.path).toBe('src');
    expect(r.body.entries).toEqual([
      expect.objectContaining({ name: 'lib', path: 'src/lib', type: 'dir', is_dir: true }),
      expect.objectContaining({ name: 'main.ts', path: 'src/main.ts', type: 'file', size: 1 }),
    ]);
    const nested = await list('src/lib');
    expect(nested.status).toBe(200);
    expect(nested.body.entries).toEqual([]);
  });

  it('treats "." and an absent path as the root', async () => {
    await writeFile(ws('x.txt'), 'x');
    for (const r of [await list('.'), await list(), await list('')]) {
      expect(r.status).toBe(200);
      expect(r.body.path).toBe('.');
      expect(r.body.entries.map((e: any) => e.name)).toEqual(['x.txt']);
    }
  });

  it('marks symlinks with their target and whether it leaves the workspace', async () => {
    await writeFile(ws('real.txt'), '12345');
    await mkdir(ws('realdir'));
    await symlink(ws('real.txt'), ws('inlink'));
    await symlink(ws('realdir'), ws('dirlink'));
    await symlink(join(outside, 'secret.txt'), ws('outlink'));
    await symlink(join(outside, 'dir'), ws('outdir'));
    const r = await list();
    expect(r.status).toBe(200);
    const by = Object.fromEntries(r.body.entries.map((e: any) => [e.name, e]));
    expect(by.inlink).toMatchObject({ type: 'symlink', is_dir: false, size: 5, target: ws('real.txt'), target_outside_workspace: false });
    expect(by.dirlink).toMatchObject({ type: 'symlink', is_dir: true, target: ws('realdir'), target_outside_workspace: false });
    // A link out of the workspace says it exists, not where it points or what is there (as the incumbent).
    expect(by.outlink).toEqual(expect.objectContaining({ type: 'symlink', is_dir: false, target_outside_workspace: true }));
    expect(by.outdir).toMatchObject({ type: 'symlink', is_dir: false, target_outside_workspace: true });
    for (const link of [by.outlink, by.outdir]) expect(JSON.stringify(link)).not.toContain(outside);
    for (const e of Object.values(by) as any[]) expect(e.mtime_ns).toMatch(/^\d+$/);
    // The incumbent's order: symlinks first, then folders, then files.
    const names = r.body.entries.map((e: any) => e.name);
    expect(names.slice(0, 4)).toEqual(['dirlink', 'inlink', 'outdir', 'outlink']);
  });

  it('lists a dangling symlink without failing', async () => {
    await symlink(ws('gone.txt'), ws('dangling'));
    const r = await list();
    expect(r.status).toBe(200);
    expect(r.body.entries).toEqual([expect.objectContaining({ name: 'dangling', type: 'symlink', is_dir: false, size: 0 })]);
  });

  it('refuses to list through a symlinked directory that leads outside', async () => {
    await symlink(join(outside, 'dir'), ws('outdir'));
    expectError(await list('outdir'), 403);
  });

  it('lists through a symlinked directory that stays inside', async () => {
    await mkdir(ws('realdir'));
    await writeFile(ws('realdir', 'a.txt'), 'a');
    await symlink(ws('realdir'), ws('dirlink'));
    const r = await list('dirlink');
    expect(r.status).toBe(200);
    expect(r.body.entries.map((e: any) => e.name)).toEqual(['a.txt']);
  });

  it('404s for a missing directory and 400s for a file', async () => {
    await writeFile(ws('f.txt'), 'x');
    expectError(await list('nope'), 404, 'Directory not found');
    expectError(await list('f.txt'), 400, 'Not a directory');
  });
});

describe('GET /api/file', () => {
  it('returns content, size and line count', async () => {
    await writeFile(ws('notes.md'), 'line one\nline two\nline three');
    const r = await readText('notes.md');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ path: 'notes.md', content: 'line one\nline two\nline three', size: 28, lines: 3 });
  });

  it('reports the byte size, not the character count, for UTF-8 text', async () => {
    await mkdir(ws('docs'));
    await writeFile(ws('docs', 'ü.txt'), 'héllo ✓');
    const r = await readText('docs/ü.txt');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ path: 'docs/ü.txt', content: 'héllo ✓', size: Buffer.byteLength('héllo ✓'), lines: 1 });
  });

  it('reads a file exactly at the 400,000-byte cap', async () => {
    await writeFile(ws('cap.txt'), 'a'.repeat(400_000));
    const r = await readText('cap.txt');
    expect(r.status).toBe(200);
    expect(r.body.size).toBe(400_000);
    expect(r.body.content.length).toBe(400_000);
  });

  it('refuses a file over 400,000 bytes with 400 "File too large"', async () => {
    await writeFile(ws('big.txt'), 'a'.repeat(400_001));
    const r = await readText('big.txt');
    expectError(r, 400, 'File too large');
    expect(r.body.size).toBe(400_001);
    expect(r.body.max_bytes).toBe(400_000);
    expect(r.body).not.toHaveProperty('content');
  });

  it('404s for a missing file and 400s for a directory', async () => {
    await mkdir(ws('adir'));
    expectError(await readText('missing.txt'), 404, 'File not found');
    expectError(await readText('adir'), 400, 'Path is a directory');
    expectError(await readText('adir/missing.txt'), 404);
  });

  it('reads through a symlink that stays inside the workspace', async () => {
    await writeFile(ws('real.txt'), 'real');
    await symlink(ws('real.txt'), ws('link.txt'));
    const r = await readText('link.txt');
    expect(r.status).toBe(200);
    expect(r.body.content).toBe('real');
  });

  it('reads a file whose name starts with two dots', async () => {
    await writeFile(ws('..hidden'), 'dots');
    await mkdir(ws('..dir'));
    await writeFile(ws('..dir', 'f.txt'), 'nested');
    const r = await readText('..hidden');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ path: '..hidden', content: 'dots' });
    expect((await readText('..dir/f.txt')).body.content).toBe('nested');
    const l = await list();
    expect(l.status).toBe(200);
    expect(l.body.entries.map((e: any) => e.name)).toEqual(['..dir', '..hidden']);
  });
});

describe('GET /api/file/raw', () => {
  it('serves the bytes inline with type, length, CSP sandbox and nosniff', async () => {
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 255]);
    await writeFile(ws('pic.png'), bytes);
    const res = await raw('pic.png');
    expect(res.status).toBe(200);
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-length')).toBe(String(bytes.length));
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="pic.png"; filename*=UTF-8''pic.png`);
    expect(res.headers.get('content-security-policy')).toBe('sandbox');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('serves an attachment with download=1', async () => {
    await writeFile(ws('page.html'), '<script>alert(1)</script>');
    const res = await raw('page.html', { download: '1' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('<script>alert(1)</script>');
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="page\.html"/);
    expect(res.headers.get('content-security-policy')).toBe('sandbox');
  });

  it('stays inline for download=0 and uses octet-stream for unknown types', async () => {
    await writeFile(ws('blob.xyz'), 'data');
    const res = await raw('blob.xyz', { download: '0' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^inline;/);
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    await res.arrayBuffer();
  });

  it('gives non-ASCII and quoted names an ASCII fallback plus the exact UTF-8 name', async () => {
    const name = 'résumé "final".pdf';
    await writeFile(ws(name), '%PDF');
    const res = await raw(name, { download: 'true' });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const cd = res.headers.get('content-disposition')!;
    expect(cd).toBe(`attachment; filename="r_sum_ _final_.pdf"; filename*=UTF-8''${encodeURIComponent(name)}`);
    expect(res.headers.get('content-type')).toBe('application/pdf');
  });

  it('rejects a bad download flag with 400', async () => {
    await writeFile(ws('a.txt'), 'a');
    await rawError(await raw('a.txt', { download: 'maybe' }), 400, /download/);
  });

  it('404s "not found" for a missing file and a directory, as the incumbent', async () => {
    await mkdir(ws('d'));
    await rawError(await raw('missing.bin'), 404, 'not found');
    await rawError(await raw('d'), 404, 'not found');
  });

  it('refuses traversal, absolute paths and symlinks out of the workspace', async () => {
    await symlink(join(outside, 'secret.txt'), ws('outlink'));
    await symlink(join(outside, 'dir'), ws('outdir'));
    await rawError(await raw('../state/x'), 403);
    await rawError(await raw('/etc/passwd'), 403);
    await rawError(await raw('outlink'), 403);
    await rawError(await raw('outdir/inner.txt'), 403);
  });
});

describe('POST /api/file/save', () => {
  it('overwrites an existing file and reports the byte size', async () => {
    await writeFile(ws('a.txt'), 'old');
    const r = await post('save', { path: 'a.txt', content: 'new ✓' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, path: 'a.txt', size: Buffer.byteLength('new ✓') });
    expect(await readFile(ws('a.txt'), 'utf8')).toBe('new ✓');
  });

  it('404s for a missing file and does not create it', async () => {
    expectError(await post('save', { path: 'nope.txt', content: 'x' }), 404);
    expect(await exists(ws('nope.txt'))).toBe(false);
  });

  it('400s for a directory', async () => {
    await mkdir(ws('d'));
    expectError(await post('save', { path: 'd', content: 'x' }), 400, 'Cannot save: path is a directory');
  });

  it('refuses to write through a symlink (400, as the incumbent), even one pointing inside', async () => {
    await writeFile(ws('real.txt'), 'real');
    await symlink(ws('real.txt'), ws('link.txt'));
    await symlink(join(outside, 'secret.txt'), ws('outlink'));
    expectError(await post('save', { path: 'link.txt', content: 'x' }), 400, 'Cannot save to a symlinked entry');
    expectError(await post('save', { path: 'outlink', content: 'pwned' }), 400, 'Cannot save to a symlinked entry');
    expect(await readFile(ws('real.txt'), 'utf8')).toBe('real');
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('top secret');
  });

  it('400s without content', async () => {
    await writeFile(ws('a.txt'), 'old');
    expectError(await post('save', { path: 'a.txt' }), 400, /content/);
    expect(await readFile(ws('a.txt'), 'utf8')).toBe('old');
  });
});

describe('POST /api/file/create', () => {
  it('creates a file with content, making missing parent folders', async () => {
    const r = await post('create', { path: 'deep/er/new.txt', content: 'hi' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, path: 'deep/er/new.txt', size: 2 });
    expect(await readFile(ws('deep', 'er', 'new.txt'), 'utf8')).toBe('hi');
  });

  it('creates an empty file when content is omitted', async () => {
    const r = await post('create', { path: 'empty.txt' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, path: 'empty.txt', size: 0 });
    expect(await readFile(ws('empty.txt'), 'utf8')).toBe('');
  });

  it("400s (the incumbent's code) when the file exists and leaves it untouched", async () => {
    await writeFile(ws('a.txt'), 'keep me');
    expectError(await post('create', { path: 'a.txt', content: 'clobber' }), 400, 'File already exists');
    expect(await readFile(ws('a.txt'), 'utf8')).toBe('keep me');
  });

  it('does not follow a symlink at the target name', async () => {
    await symlink(join(outside, 'new-outside.txt'), ws('trap.txt'));
    expectError(await post('create', { path: 'trap.txt', content: 'x' }), 400, 'File already exists');
    expect(await exists(join(outside, 'new-outside.txt'))).toBe(false);
  });

  it('400s for the workspace root itself', async () => {
    expectError(await post('create', { path: '' }), 400);
    expectError(await post('create', { path: '.' }), 400);
  });
});

describe('POST /api/file/create-dir', () => {
  it('creates a folder', async () => {
    const r = await post('create-dir', { path: 'newdir' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, path: 'newdir' });
    expect((await stat(ws('newdir'))).isDirectory()).toBe(true);
  });

  it('400s when it exists, 404s when the parent is missing', async () => {
    await mkdir(ws('d'));
    expectError(await post('create-dir', { path: 'd' }), 400, 'Path already exists');
    expectError(await post('create-dir', { path: 'no/such/parent' }), 404, 'Parent folder not found');
    expect(await exists(ws('no'))).toBe(false);
  });

  it('refuses to create inside a symlinked directory that leads outside', async () => {
    await symlink(join(outside, 'dir'), ws('outdir'));
    expectError(await post('create-dir', { path: 'outdir/evil' }), 403);
    expect(await exists(join(outside, 'dir', 'evil'))).toBe(false);
  });
});

describe('POST /api/file/rename', () => {
  it('renames a file in place', async () => {
    await mkdir(ws('d'));
    await writeFile(ws('d', 'old.txt'), 'content');
    const r = await post('rename', { path: 'd/old.txt', new_name: 'new.txt' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, path: 'd/new.txt', old_path: 'd/old.txt', new_path: 'd/new.txt' });
    expect(await exists(ws('d', 'old.txt'))).toBe(false);
    expect(await readFile(ws('d', 'new.txt'), 'utf8')).toBe('content');
  });

  it('renames a folder with its contents', async () => {
    await mkdir(ws('a'));
    await writeFile(ws('a', 'f.txt'), 'f');
    const r = await post('rename', { path: 'a', new_name: 'b' });
    expect(r.status).toBe(200);
    expect(r.body.path).toBe('b');
    expect(await readFile(ws('b', 'f.txt'), 'utf8')).toBe('f');
    expect(await exists(ws('a'))).toBe(false);
  });

  it('400s for a name with a slash, a backslash, or a dot-dot', async () => {
    await writeFile(ws('a.txt'), 'a');
    expectError(await post('rename', { path: 'a.txt', new_name: 'sub/b.txt' }), 400, 'Invalid file name');
    expectError(await post('rename', { path: 'a.txt', new_name: '../escape.txt' }), 400);
    expectError(await post('rename', { path: 'a.txt', new_name: 'back\\slash' }), 400);
    expectError(await post('rename', { path: 'a.txt', new_name: '..' }), 400);
    expectError(await post('rename', { path: 'a.txt', new_name: '' }), 400);
    expect(await readFile(ws('a.txt'), 'utf8')).toBe('a');
    expect(await exists(join(t.dir, 'escape.txt'))).toBe(false);
  });

  it('400s when the new name is taken and leaves both files', async () => {
    await writeFile(ws('a.txt'), 'a');
    await writeFile(ws('b.txt'), 'b');
    expectError(await post('rename', { path: 'a.txt', new_name: 'b.txt' }), 400, 'A file named "b.txt" already exists');
    expect(await readFile(ws('a.txt'), 'utf8')).toBe('a');
    expect(await readFile(ws('b.txt'), 'utf8')).toBe('b');
  });

  it('404s for a missing source and 403s for the root', async () => {
    expectError(await post('rename', { path: 'nope.txt', new_name: 'x.txt' }), 404);
    expectError(await post('rename', { path: '.', new_name: 'x' }), 403);
  });
});

describe('POST /api/file/move', () => {
  it('moves a file into a folder', async () => {
    await writeFile(ws('a.txt'), 'a');
    await mkdir(ws('dest'));
    const r = await post('move', { path: 'a.txt', dest_dir: 'dest' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, path: 'dest/a.txt', old_path: 'a.txt', new_path: 'dest/a.txt' });
    expect(await exists(ws('a.txt'))).toBe(false);
    expect(await readFile(ws('dest', 'a.txt'), 'utf8')).toBe('a');
  });

  it('moves a nested file back to the root with dest_dir "."', async () => {
    await mkdir(ws('d'));
    await writeFile(ws('d', 'f.txt'), 'f');
    const r = await post('move', { path: 'd/f.txt', dest_dir: '.' });
    expect(r.status).toBe(200);
    expect(r.body.path).toBe('f.txt');
    expect(await readFile(ws('f.txt'), 'utf8')).toBe('f');
  });

  it('400s when moving a folder into itself or its own subtree', async () => {
    await mkdir(ws('a', 'b', 'c'), { recursive: true });
    expectError(await post('move', { path: 'a', dest_dir: 'a' }), 400, 'Cannot move a folder into itself or its subfolder');
    expectError(await post('move', { path: 'a', dest_dir: 'a/b' }), 400, 'Cannot move a folder into itself or its subfolder');
    expectError(await post('move', { path: 'a', dest_dir: 'a/b/c' }), 400);
    expect((await stat(ws('a', 'b', 'c'))).isDirectory()).toBe(true);
  });

  it('400s when moving a folder into its own subtree through a symlink', async () => {
    await mkdir(ws('a', 'b'), { recursive: true });
    await symlink(ws('a', 'b'), ws('alias'));
    expectError(await post('move', { path: 'a', dest_dir: 'alias' }), 400);
    expect((await stat(ws('a', 'b'))).isDirectory()).toBe(true);
  });

  it('moves a folder into a sibling whose name shares its prefix', async () => {
    await mkdir(ws('a'));
    await mkdir(ws('ab'));
    await writeFile(ws('a', 'f.txt'), 'f');
    const r = await post('move', { path: 'a', dest_dir: 'ab' });
    expect(r.status).toBe(200);
    expect(r.body.path).toBe('ab/a');
    expect(await readFile(ws('ab', 'a', 'f.txt'), 'utf8')).toBe('f');
  });

  it('400s when the destination already holds that name', async () => {
    await writeFile(ws('a.txt'), 'top');
    await mkdir(ws('d'));
    await writeFile(ws('d', 'a.txt'), 'inner');
    expectError(await post('move', { path: 'a.txt', dest_dir: 'd' }), 400, 'A file named "a.txt" already exists in that folder');
    expect(await readFile(ws('a.txt'), 'utf8')).toBe('top');
    expect(await readFile(ws('d', 'a.txt'), 'utf8')).toBe('inner');
  });

  it('404s for a missing source or destination, 400s for a file destination', async () => {
    await writeFile(ws('a.txt'), 'a');
    await writeFile(ws('b.txt'), 'b');
    expectError(await post('move', { path: 'nope', dest_dir: '.' }), 404);
    expectError(await post('move', { path: 'a.txt', dest_dir: 'nowhere' }), 404, 'Destination folder not found');
    expectError(await post('move', { path: 'a.txt', dest_dir: 'b.txt' }), 400, 'Destination is not a folder');
    expect(await readFile(ws('a.txt'), 'utf8')).toBe('a');
  });

  it('refuses to move out of the workspace or the root itself', async () => {
    await writeFile(ws('a.txt'), 'a');
    await symlink(join(outside, 'dir'), ws('outdir'));
    expectError(await post('move', { path: 'a.txt', dest_dir: '..' }), 403);
    expectError(await post('move', { path: 'a.txt', dest_dir: outside }), 403);
    expectError(await post('move', { path: 'a.txt', dest_dir: 'outdir' }), 403);
    expectError(await post('move', { path: '.', dest_dir: '.' }), 403);
    expect(await readFile(ws('a.txt'), 'utf8')).toBe('a');
    expect(await exists(join(outside, 'dir', 'a.txt'))).toBe(false);
    expect(await exists(join(outside, 'a.txt'))).toBe(false);
  });
});

describe('POST /api/file/delete', () => {
  it('deletes a file', async () => {
    await writeFile(ws('a.txt'), 'a');
    const r = await post('delete', { path: 'a.txt' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, path: 'a.txt' });
    expect(await exists(ws('a.txt'))).toBe(false);
  });

  it('needs recursive for a folder', async () => {
    await mkdir(ws('d'));
    await writeFile(ws('d', 'f.txt'), 'f');
    expectError(await post('delete', { path: 'd' }), 400, 'Set recursive=true to delete directories');
    expectError(await post('delete', { path: 'd', recursive: false }), 400);
    expect(await exists(ws('d', 'f.txt'))).toBe(true);
    const r = await post('delete', { path: 'd', recursive: true });
    expect(r.status).toBe(200);
    expect(await exists(ws('d'))).toBe(false);
  });

  it('accepts recursive: 1 from older clients', async () => {
    await mkdir(ws('d'));
    const r = await post('delete', { path: 'd', recursive: 1 });
    expect(r.status).toBe(200);
    expect(await exists(ws('d'))).toBe(false);
  });

  it('refuses to delete a symlink and leaves both link and target', async () => {
    await mkdir(ws('realdir'));
    await writeFile(ws('realdir', 'f.txt'), 'f');
    await symlink(ws('realdir'), ws('dirlink'));
    await symlink(join(outside, 'dir'), ws('outdir'));
    expectError(await post('delete', { path: 'dirlink', recursive: true }), 400, 'Cannot delete a symlinked entry');
    expectError(await post('delete', { path: 'outdir', recursive: true }), 400);
    expect(await readlink(ws('dirlink'))).toBe(ws('realdir'));
    expect(await exists(ws('realdir', 'f.txt'))).toBe(true);
    expect(await exists(join(outside, 'dir', 'inner.txt'))).toBe(true);
  });

  it('refuses to delete through a symlinked directory leading outside', async () => {
    await symlink(join(outside, 'dir'), ws('outdir'));
    expectError(await post('delete', { path: 'outdir/inner.txt' }), 403);
    expect(await readFile(join(outside, 'dir', 'inner.txt'), 'utf8')).toBe('inner secret');
  });

  it('404s for a missing file, 400s for an empty path, 403s for the root', async () => {
    expectError(await post('delete', { path: 'nope' }), 404);
    expectError(await post('delete', { path: '', recursive: true }), 400, 'Missing required field(s): path');
    expectError(await post('delete', { path: '.', recursive: true }), 403);
    expect((await stat(t.workspace)).isDirectory()).toBe(true);
  });
});

describe('path security', () => {
  it('refuses ".." traversal on every endpoint', async () => {
    await writeFile(join(t.dir, 'sibling.txt'), 'sibling');
    const paths = ['../sibling.txt', 'a/../../sibling.txt', '..', '..\\sibling.txt'];
    for (const p of paths) {
      expectError(await readText(p), 403);
      expectError(await list(p), 403);
      await rawError(await raw(p), 403);
      expectError(await post('save', { path: p, content: 'x' }), 403);
      expectError(await post('create', { path: p, content: 'x' }), 403);
      expectError(await post('create-dir', { path: p }), 403);
      expectError(await post('rename', { path: p, new_name: 'y' }), 403);
      expectError(await post('move', { path: p, dest_dir: '.' }), 403);
      expectError(await post('delete', { path: p, recursive: true }), 403);
    }
    expect(await readFile(join(t.dir, 'sibling.txt'), 'utf8')).toBe('sibling');
  });

  it('refuses absolute paths', async () => {
    const r = await readText('/etc/passwd');
    expectError(r, 403, 'Path must be relative to the workspace');
    expectError(await list('/etc'), 403);
    expectError(await readText(join(t.workspace, 'x.txt')), 403);
    expectError(await readText('C:\\Windows\\win.ini'), 403);
    expectError(await post('create', { path: join(outside, 'new.txt'), content: 'x' }), 403);
    expect(await exists(join(outside, 'new.txt'))).toBe(false);
  });

  it('refuses a NUL byte in a path', async () => {
    expectError(await readText('a\0b'), 400);
  });

  it('refuses to read through a symlink that points outside', async () => {
    await symlink(join(outside, 'secret.txt'), ws('outlink'));
    const r = await readText('outlink');
    expectError(r, 403, 'Symlink points outside the workspace');
    expect(JSON.stringify(r.body)).not.toContain('top secret');
  });

  it('refuses a file under a symlinked directory that leads outside', async () => {
    await symlink(join(outside, 'dir'), ws('outdir'));
    const r = await readText('outdir/inner.txt');
    expectError(r, 403, 'Path is outside the workspace');
    expect(JSON.stringify(r.body)).not.toContain('inner secret');
    expectError(await post('save', { path: 'outdir/inner.txt', content: 'pwned' }), 403);
    expectError(await post('create', { path: 'outdir/new.txt', content: 'pwned' }), 403);
    expectError(await post('create', { path: 'outdir/deeper/new.txt', content: 'pwned' }), 403);
    expect(await readFile(join(outside, 'dir', 'inner.txt'), 'utf8')).toBe('inner secret');
    expect(await exists(join(outside, 'dir', 'new.txt'))).toBe(false);
    expect(await exists(join(outside, 'dir', 'deeper'))).toBe(false);
  });

  it('refuses to rename or move a file into a symlinked directory that leads outside', async () => {
    await writeFile(ws('a.txt'), 'a');
    await symlink(join(outside, 'dir'), ws('outdir'));
    expectError(await post('move', { path: 'a.txt', dest_dir: 'outdir' }), 403);
    expect(await exists(join(outside, 'dir', 'a.txt'))).toBe(false);
    expect(await exists(ws('a.txt'))).toBe(true);
  });

  it('404s for an unknown session', async () => {
    await writeFile(ws('a.txt'), 'a');
    expectError(await list(undefined, 'nosuchsession'), 404, 'Session not found');
    expectError(await readText('a.txt', 'nosuchsession'), 404, 'Session not found');
    await rawError(await raw('a.txt', {}, 'nosuchsession'), 404, 'Session not found');
    expectError(await t.call('POST', '/api/file/save', { session_id: 'nosuchsession', path: 'a.txt', content: 'x' }), 404, 'Session not found');
    expectError(await t.call('POST', '/api/file/delete', { session_id: 'nosuchsession', path: 'a.txt' }), 404, 'Session not found');
    expect(await readFile(ws('a.txt'), 'utf8')).toBe('a');
  });

  it('400s for an invalid session id', async () => {
    for (const bad of ['../x', '..', 'a/b', 'x y']) {
      expectError(await list(undefined, bad), 400, /Invalid session id/);
      expectError(await readText('a.txt', bad), 400, /Invalid session id/);
      expectError(await t.call('POST', '/api/file/create', { session_id: bad, path: 'a.txt' }), 400, /Invalid session id/);
    }
    expect(await exists(ws('a.txt'))).toBe(false);
  });

  it('400s for a missing session id or path (404 for raw, as the incumbent)', async () => {
    expectError(await t.call('GET', '/api/list'), 400, /session_id/);
    expectError(await t.call('GET', `/api/file?session_id=${sid}`), 400, /path/);
    await rawError(await t.app.request(`/api/file/raw?session_id=${sid}`), 404, 'not found');
    expectError(await t.call('POST', '/api/file/save', { session_id: sid, content: 'x' }), 400, /path/);
    expectError(await t.call('POST', '/api/file/create', { session_id: sid }), 400, /path/);
    expectError(await t.call('POST', '/api/file/create-dir', { session_id: sid }), 400, /path/);
    expectError(await t.call('POST', '/api/file/rename', { session_id: sid, new_name: 'x' }), 400, /path/);
    expectError(await t.call('POST', '/api/file/move', { session_id: sid, path: 'a' }), 400, 'Missing required field(s): dest_dir');
    expectError(await t.call('POST', '/api/file/delete', { session_id: sid }), 400, /path/);
    expectError(await t.call('POST', '/api/file/create', { path: 'a.txt' }), 400, /session_id/);
  });

  it('400s for a malformed JSON body or a non-object body', async () => {
    expectError(await t.call('POST', '/api/file/create', '{not json'), 400, 'Request body is not valid JSON');
    expectError(await t.call('POST', '/api/file/create', '[1,2]'), 400, 'Request body must be a JSON object');
  });
});

describe('a session working in another workspace', () => {
  it('reads and writes inside that workspace, not the default one', async () => {
    const other = join(t.dir, 'other');
    await mkdir(other);
    await writeFile(join(other, 'o.txt'), 'other');
    const osid = await t.newSession({ workspace: other });
    const l = await list(undefined, osid);
    expect(l.status).toBe(200);
    expect(l.body.workspace).toBe(other);
    expect(l.body.entries.map((e: any) => e.name)).toEqual(['o.txt']);
    const c = await t.call('POST', '/api/file/create', { session_id: osid, path: 'made.txt', content: 'm' });
    expect(c.status).toBe(200);
    expect(await readFile(join(other, 'made.txt'), 'utf8')).toBe('m');
    expect(await exists(ws('made.txt'))).toBe(false);
    // The default workspace's session cannot reach the other one by traversal.
    expectError(await readText('../other/o.txt'), 403);
  });
});
