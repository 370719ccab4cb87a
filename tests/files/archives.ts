import { type Zippable, zipSync } from 'fflate';
import { pack } from 'tar-stream';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Hostile and friendly archives, built in memory for the extraction tests. */

const S_IFLNK = 0o120000;
const S_IFCHR = 0o020000;

export function zipOf(files: Record<string, string | Uint8Array>): Uint8Array {
  const z: Zippable = {};
  for (const [name, data] of Object.entries(files)) z[name] = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  return zipSync(z, { level: 6 });
}

/** A zip whose one member is a Unix symlink (mode in the external attributes, as Info-ZIP writes it). */
export function zipWithSymlink(name: string, target: string): Uint8Array {
  return zipSync({ 'ok.txt': new TextEncoder().encode('fine'), [name]: [new TextEncoder().encode(target), { os: 3, attrs: (S_IFLNK | 0o777) << 16 }] });
}

export function zipWithDevice(name: string): Uint8Array {
  return zipSync({ [name]: [new Uint8Array(0), { os: 3, attrs: (S_IFCHR | 0o644) << 16 }] });
}

/** Patches every central-directory "uncompressed size" to `size`: a bomb that lies about itself. */
export function lieAboutSizes(zip: Uint8Array, size: number): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  for (let i = 0; i + 46 <= out.length; i++) if (view.getUint32(i, true) === 0x02014b50) view.setUint32(i + 24, size, true);
  return out;
}

export interface TarEntry {
  name: string;
  type?: 'file' | 'directory' | 'symlink' | 'link' | 'character-device' | 'fifo';
  data?: string | Uint8Array;
  linkname?: string;
}

export async function tarOf(entries: TarEntry[], gzip = false): Promise<Uint8Array> {
  const p = pack();
  const chunks: Buffer[] = [];
  p.on('data', (c) => {
    chunks.push(c as Buffer);
  });
  const done = new Promise<void>((resolve) => p.on('end', () => resolve()));
  for (const e of entries) {
    const data = typeof e.data === 'string' ? Buffer.from(e.data) : Buffer.from(e.data ?? new Uint8Array(0));
    await new Promise<void>((resolve, reject) => {
      const header = { name: e.name, type: e.type ?? 'file', ...(e.linkname ? { linkname: e.linkname } : {}) };
      if ((e.type ?? 'file') === 'file') p.entry({ ...header, size: data.length }, data, (err) => (err ? reject(err) : resolve()));
      else p.entry(header, (err) => (err ? reject(err) : resolve())).end(undefined);
    });
  }
  p.finalize();
  await done;
  const tar = Buffer.concat(chunks);
  return new Uint8Array(gzip ? gzipSync(tar) : tar);
}

/** `bzip2 -c` / `xz -c` over bytes: the real tools, so the decoders are tested on what users have. */
export function compressWith(tool: 'bzip2' | 'xz', data: Uint8Array): Uint8Array {
  return new Uint8Array(execFileSync(tool, ['-c'], { input: data, maxBuffer: 1024 * 1024 * 1024 }));
}

/** A zip written by Info-ZIP's `zip` with ZIP64 records forced (`-fz`), as a streamed or huge zip has them. */
export function zip64Of(files: Record<string, string>): Uint8Array {
  const dir = mkdtempSync(join(tmpdir(), 'hermes-zip64-'));
  try {
    for (const [name, data] of Object.entries(files)) {
      mkdirSync(join(dir, 'in', name, '..'), { recursive: true });
      writeFileSync(join(dir, 'in', name), data);
    }
    execFileSync('zip', ['-q', '-r', '-fz', join(dir, 'out.zip'), ...Object.keys(files)], { cwd: join(dir, 'in') });
    return new Uint8Array(readFileSync(join(dir, 'out.zip')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
