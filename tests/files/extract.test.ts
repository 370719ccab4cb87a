import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { lieAboutSizes, tarOf, zipOf, zipWithDevice, zipWithSymlink } from './archives.js';
import { postForm } from './helpers.js';

let t: TestApp;
let sid: string;

beforeEach(async () => {
  // 1 MB of extraction: a bomb is "huge" against it without the test making gigabytes.
  t = await makeTestApp({ env: { HERMES_WEBUI_MAX_EXTRACTED_MB: '1' } });
  sid = await t.newSession();
});

afterEach(async () => {
  await t.close();
});

const inbox = () => join(t.stateDir, 'attachments', sid);
const extract = (name: string, data: Uint8Array, session = sid) => postForm(t, '/api/upload/extract', { session_id: session }, [{ name, data }]);
const ls = (dir: string) => readdir(dir).catch(() => [] as string[]);

/** A refused archive leaves nothing: no folder, no temp folder. */
async function expectRefused(name: string, data: Uint8Array, message: RegExp) {
  const r = await extract(name, data);
  expect(r.status).toBe(400);
  expect(r.body.error).toMatch(message);
  expect(await ls(inbox())).toEqual([]);
}

describe('POST /api/upload/extract: the incumbent shape, into the session upload folder', () => {
  it('extracts a zip into <attachments>/<sid>/<stem>/ and answers ok, dest, files, extracted', async () => {
    const r = await extract('project.zip', zipOf({ 'README.md': '# hi', 'src/a.ts': 'export {}', 'src/': new Uint8Array(0) }));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, dest: join(inbox(), 'project'), files: ['project/README.md', 'project/src/a.ts'], extracted: 2 });
    expect(await readFile(join(inbox(), 'project', 'src', 'a.ts'), 'utf8')).toBe('export {}');
  });

  it('extracts a tar.gz and a plain tar; a second upload of the same name gets its own folder', async () => {
    const tgz = await tarOf(
      [
        { name: 'docs', type: 'directory' },
        { name: 'docs/x.txt', data: 'x' },
      ],
      true,
    );
    expect((await extract('bundle.tar.gz', tgz)).body).toMatchObject({ ok: true, files: ['bundle/docs/x.txt'], extracted: 1 });
    const tar = await tarOf([{ name: 'y.txt', data: 'y' }]);
    expect((await extract('bundle.tar', tar)).body).toMatchObject({ files: ['bundle_1/y.txt'] });
    expect((await ls(inbox())).sort()).toEqual(['bundle', 'bundle_1']);
  });

  it('refuses what is not a supported archive, a missing file and an unknown session', async () => {
    expect((await extract('notes.txt', new TextEncoder().encode('x'))).body.error).toMatch(/^Unsupported archive format/);
    expect((await extract('data.tar.xz', new Uint8Array(10))).body.error).toMatch(/^Not a valid tar archive/);
    expect((await postForm(t, '/api/upload/extract', { session_id: sid }, [])).body.error).toBe('No file field in request');
    expect((await extract('a.zip', zipOf({ a: 'a' }), 'nosuchsession')).status).toBe(404);
    expect((await extract('broken.zip', new TextEncoder().encode('PK not really'))).status).toBe(400);
  });
});

describe('hostile archives are refused whole, with nothing half-extracted', () => {
  it('zip-slip: ../ entries', async () => {
    await expectRefused('slip.zip', zipOf({ 'ok.txt': 'fine', '../../escape.txt': 'gotcha' }), /^Zip-slip blocked: \.\.\/\.\.\/escape\.txt/);
    expect(await ls(t.stateDir)).not.toContain('escape.txt');
  });

  it('zip-slip: a ../ in the middle and a Windows-style one', async () => {
    await expectRefused('mid.zip', zipOf({ 'a/../../b.txt': 'x' }), /Zip-slip blocked/);
    await expectRefused('win.zip', zipOf({ '..\\..\\b.txt': 'x' }), /Zip-slip blocked/);
  });

  it('absolute paths in zip and tar', async () => {
    await expectRefused('abs.zip', zipOf({ '/tmp/hermes-abs.txt': 'x' }), /Zip-slip blocked: \/tmp\/hermes-abs\.txt/);
    await expectRefused('abs.tar', await tarOf([{ name: '/tmp/hermes-abs.txt', data: 'x' }]), /Tar-slip blocked/);
  });

  it('tar ../ entries', async () => {
    await expectRefused(
      'slip.tgz',
      await tarOf(
        [
          { name: 'ok.txt', data: 'ok' },
          { name: '../evil.txt', data: 'x' },
        ],
        true,
      ),
      /^Tar-slip blocked: \.\.\/evil\.txt/,
    );
  });

  it('symlinks and hard links in tar, symlinks in zip', async () => {
    await expectRefused(
      'link.tar',
      await tarOf([
        { name: 'ok.txt', data: 'ok' },
        { name: 'passwd', type: 'symlink', linkname: '/etc/passwd' },
      ]),
      /symlink: passwd/,
    );
    await expectRefused(
      'hard.tar',
      await tarOf([
        { name: 'ok.txt', data: 'ok' },
        { name: 'h', type: 'link', linkname: 'ok.txt' },
      ]),
      /hard link: h/,
    );
    await expectRefused('link.zip', zipWithSymlink('passwd', '/etc/passwd'), /symlink: passwd/);
  });

  it('device files and fifos', async () => {
    await expectRefused('dev.tar', await tarOf([{ name: 'null', type: 'character-device' }]), /special file: null/);
    await expectRefused('fifo.tar', await tarOf([{ name: 'pipe', type: 'fifo' }]), /special file: pipe/);
    await expectRefused('dev.zip', zipWithDevice('null'), /special file: null/);
  });

  it('a zip bomb that declares its size is refused before anything is written', async () => {
    const bomb = zipSync({ 'zeros.bin': new Uint8Array(8 * 1024 * 1024) }, { level: 9 });
    expect(bomb.length).toBeLessThan(64 * 1024);
    await expectRefused('bomb.zip', bomb, /^Extraction too large \(> 1 MB limit\)\. Possible zip bomb\./);
  });

  it('a zip bomb that lies about its size stops at the byte limit while streaming', async () => {
    const liar = lieAboutSizes(zipSync({ 'a.txt': new TextEncoder().encode('small'), 'zeros.bin': new Uint8Array(8 * 1024 * 1024) }, { level: 9 }), 10);
    await expectRefused('liar.zip', liar, /Extraction too large/);
  });

  it('a tar.gz bomb stops at the byte limit', async () => {
    await expectRefused('bomb.tgz', await tarOf([{ name: 'zeros.bin', data: new Uint8Array(4 * 1024 * 1024) }], true), /Extraction too large/);
  });

  it('more than 10,000 members is refused before anything is written', async () => {
    const many = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, '']));
    await expectRefused('many.zip', zipOf(many(10_001)), /^Archive has too many files \(> 10000\)\. Possible archive bomb\./);
    await expectRefused('many.tar', await tarOf(Array.from({ length: 10_001 }, (_, i) => ({ name: `f${i}`, data: '' }))), /too many files/);
  }, 60_000);
});
