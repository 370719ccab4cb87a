import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { compressWith, type TarEntry, tarOf, zip64Of } from './archives.js';
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
const extract = (name: string, data: Uint8Array) => postForm(t, '/api/upload/extract', { session_id: sid }, [{ name, data }]);
const ls = (dir: string) => readdir(dir).catch(() => [] as string[]);

async function expectRefused(name: string, data: Uint8Array, message: RegExp) {
  const r = await extract(name, data);
  expect(r.status).toBe(400);
  expect(r.body.error).toMatch(message);
  expect(await ls(inbox())).toEqual([]);
}

const formats = [
  { tool: 'bzip2', names: ['src.tar.bz2', 'src.tbz2'] },
  { tool: 'xz', names: ['src.tar.xz', 'src.txz'] },
] as const;

const packed = async (tool: 'bzip2' | 'xz', entries: TarEntry[]) => compressWith(tool, await tarOf(entries));

describe.each(formats)('$tool tars', ({ tool, names }) => {
  it('extract like the other tars, under every name the incumbent takes', async () => {
    const data = await packed(tool, [
      { name: 'docs', type: 'directory' },
      { name: 'docs/readme.md', data: '# hello' },
      { name: 'big.txt', data: 'line\n'.repeat(50_000) },
    ]);
    for (const [i, name] of names.entries()) {
      const r = await extract(name, data);
      expect(r.status).toBe(200);
      const folder = i === 0 ? 'src' : 'src_1';
      expect(r.body).toEqual({ ok: true, dest: join(inbox(), folder), files: [`${folder}/docs/readme.md`, `${folder}/big.txt`], extracted: 2 });
      expect(await readFile(join(inbox(), folder, 'docs', 'readme.md'), 'utf8')).toBe('# hello');
      expect((await readFile(join(inbox(), folder, 'big.txt'), 'utf8')).length).toBe(250_000);
    }
  });

  it('refuse ../ and absolute names, symlinks and hard links, leaving nothing', async () => {
    await expectRefused(
      names[0],
      await packed(tool, [
        { name: 'ok.txt', data: 'ok' },
        { name: '../evil.txt', data: 'x' },
      ]),
      /^Tar-slip blocked: \.\.\/evil\.txt/,
    );
    await expectRefused(names[0], await packed(tool, [{ name: '/tmp/hermes-abs.txt', data: 'x' }]), /^Tar-slip blocked: \/tmp\/hermes-abs\.txt/);
    await expectRefused(
      names[1],
      await packed(tool, [
        { name: 'ok.txt', data: 'ok' },
        { name: 'passwd', type: 'symlink', linkname: '/etc/passwd' },
      ]),
      /symlink: passwd/,
    );
    await expectRefused(
      names[1],
      await packed(tool, [
        { name: 'ok.txt', data: 'ok' },
        { name: 'h', type: 'link', linkname: 'ok.txt' },
      ]),
      /hard link: h/,
    );
  });

  it('refuse a member larger than the limit before writing anything', async () => {
    const bomb = await packed(tool, [{ name: 'zeros.bin', data: new Uint8Array(4 * 1024 * 1024) }]);
    expect(bomb.length).toBeLessThan(64 * 1024);
    await expectRefused(names[0], bomb, /^Extraction too large \(> 1 MB limit\)\. Possible zip bomb\./);
  });

  it('refuse corrupt data', async () => {
    const good = await packed(tool, [{ name: 'a.txt', data: 'a'.repeat(10_000) }]);
    await expectRefused(names[0], good.subarray(0, Math.floor(good.length / 2)), /Not a valid tar archive/);
  });
});

describe('decompression bombs stop at the byte limit while decompressing', () => {
  // Bare zeros read as empty tar blocks forever: only the cap on the decompressed stream ends them.
  it('bzip2: 40 MB of zeros, concatenated 500 times (20 GB) in a few kB', async () => {
    const one = compressWith('bzip2', new Uint8Array(40 * 1024 * 1024));
    const bomb = new Uint8Array(one.length * 500);
    for (let i = 0; i < 500; i++) bomb.set(one, i * one.length);
    expect(bomb.length).toBeLessThan(200 * 1024);
    await expectRefused('bomb.tar.bz2', bomb, /^Extraction too large \(> 1 MB limit\)/);
  });

  it('xz: 40 MB of zeros', async () => {
    const bomb = compressWith('xz', new Uint8Array(40 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(64 * 1024);
    await expectRefused('bomb.tar.xz', bomb, /^Extraction too large \(> 1 MB limit\)/);
  });

  it('gzip: the same cap guards tar.gz', async () => {
    const { gzipSync } = await import('node:zlib');
    await expectRefused('bomb.tgz', new Uint8Array(gzipSync(new Uint8Array(100 * 1024 * 1024))), /^Extraction too large/);
  });

  it('xz extractions one after another each get the decoder (a refused one releases it)', async () => {
    await expectRefused('bomb.txz', compressWith('xz', new Uint8Array(30 * 1024 * 1024)), /Extraction too large/);
    const r = await extract('after.txz', await packed('xz', [{ name: 'a.txt', data: 'a' }]));
    expect(r.body).toMatchObject({ ok: true, files: ['after/a.txt'] });
  });
});

describe('ZIP64', () => {
  it('reads a zip whose records are ZIP64 (Info-ZIP zip -fz)', async () => {
    const data = zip64Of({ 'a.txt': 'alpha', 'sub/b.txt': 'beta'.repeat(1000) });
    const r = await extract('z64.zip', data);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: true, extracted: 2 });
    expect(r.body.files.sort()).toEqual(['z64/a.txt', 'z64/sub/b.txt']);
    expect(await readFile(join(inbox(), 'z64', 'sub', 'b.txt'), 'utf8')).toBe('beta'.repeat(1000));
  });

  it('takes the entry count from the ZIP64 record: more than 65,535 is refused as too many', async () => {
    const data = zip64Of({ 'a.txt': 'alpha' }).slice();
    const view = new DataView(data.buffer);
    let eocd = data.length - 22;
    while (view.getUint32(eocd, true) !== 0x06054b50) eocd--;
    const record = Number(view.getBigUint64(eocd - 20 + 8, true));
    // As a writer with 70,000 entries leaves it: 0xFFFF in the old record, the truth in the ZIP64 one.
    view.setUint16(eocd + 8, 0xffff, true);
    view.setUint16(eocd + 10, 0xffff, true);
    view.setBigUint64(record + 24, 70_000n, true);
    view.setBigUint64(record + 32, 70_000n, true);
    await expectRefused('many.zip', data, /^Archive has too many files \(> 10000\)/);
  });

  it('refuses a ZIP64 locator that points nowhere', async () => {
    const data = zip64Of({ 'a.txt': 'alpha' }).slice();
    const view = new DataView(data.buffer);
    let eocd = data.length - 22;
    while (view.getUint32(eocd, true) !== 0x06054b50) eocd--;
    view.setBigUint64(eocd - 20 + 8, BigInt(data.length + 100), true);
    await expectRefused('broken.zip', data, /^Not a valid zip archive/);
  });
});
