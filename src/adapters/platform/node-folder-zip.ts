import { createReadStream } from 'node:fs';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { Zip, ZipDeflate } from 'fflate';
import { AppError } from '../../ports/errors.js';
import { isInside } from './node-paths.js';

interface Planned {
  abs: string;
  name: string;
  mtime: Date;
}

export interface FolderZipLimits {
  maxBytes: number;
  maxFiles: number;
}

/**
 * The files under `dir`, walked without following links: a symlinked file is taken when it points
 * to a file inside the workspace, a symlinked folder never (that is how loops and escapes stay out).
 * Past a cap: a 413 with the incumbent's body, before any zip byte is sent.
 */
export async function planFolderZip(root: string, dir: string, limits: FolderZipLimits): Promise<Planned[]> {
  const planned: Planned[] = [];
  let total = 0;
  const walk = async (at: string): Promise<void> => {
    const dirents = await readdir(at, { withFileTypes: true }).catch(() => []);
    for (const d of dirents) {
      const abs = join(at, d.name);
      const l = await lstat(abs).catch(() => null);
      if (!l) continue;
      if (l.isDirectory()) {
        await walk(abs);
        continue;
      }
      let size = l.size;
      let mtime = l.mtime;
      if (l.isSymbolicLink()) {
        const real = await realpath(abs).catch(() => null);
        const st = real && isInside(root, real) ? await stat(real).catch(() => null) : null;
        if (!st?.isFile()) continue;
        size = st.size;
        mtime = st.mtime;
      } else if (!l.isFile()) continue;
      if (planned.length >= limits.maxFiles) {
        throw new AppError(413, 'too many files', { limit: limits.maxFiles, configure: 'HERMES_WEBUI_FOLDER_ZIP_MAX_FILES' });
      }
      if (total + size > limits.maxBytes) {
        throw new AppError(413, 'folder too large', { limit_bytes: limits.maxBytes, configure: 'HERMES_WEBUI_FOLDER_ZIP_MAX_MB' });
      }
      total += size;
      planned.push({ abs, name: relative(dir, abs).split(sep).join('/'), mtime });
    }
  };
  await walk(dir);
  return planned;
}

/** The zip bytes, produced as the reader pulls: one file open at a time, never the whole archive in memory. */
async function* zipChunks(root: string, files: Planned[]): AsyncGenerator<Uint8Array> {
  let out: Uint8Array[] = [];
  let failed: Error | null = null;
  const zip = new Zip((err, chunk) => {
    if (err) failed = err;
    else out.push(chunk);
  });
  const drain = function* () {
    if (failed) throw failed;
    const ready = out;
    out = [];
    yield* ready;
  };
  for (const f of files) {
    // Checked again at read time: a link swapped in since the plan must not lead out.
    const real = await realpath(f.abs).catch(() => null);
    if (!real || !isInside(root, real)) continue;
    const entry = new ZipDeflate(f.name, { level: 6 });
    entry.mtime = f.mtime;
    zip.add(entry);
    try {
      for await (const chunk of createReadStream(real)) {
        entry.push(chunk as Uint8Array);
        yield* drain();
      }
    } catch {
      // Vanished or unreadable since the plan: the entry ends short rather than the download failing.
    }
    entry.push(new Uint8Array(0), true);
    yield* drain();
  }
  zip.end();
  yield* drain();
}

export function folderZipStream(root: string, files: Planned[]): ReadableStream<Uint8Array> {
  const chunks = zipChunks(root, files);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}
