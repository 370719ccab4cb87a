import { open } from 'node:fs/promises';
import type { FileTail } from '../../ports/hermes-home.js';

/**
 * The last `maxBytes` of a regular file, read with one positioned read (a 1 GB log costs what
 * its tail costs). Null when it is missing or not a regular file.
 */
export async function readFileTail(path: string, maxBytes: number): Promise<FileTail | null> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    if (['ENOENT', 'ENOTDIR', 'EISDIR'].includes(code)) return null;
    throw err;
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) return null;
    const length = Math.max(0, Math.min(st.size, Math.floor(maxBytes)));
    const buffer = Buffer.alloc(length);
    let read = 0;
    // A file growing while we read is fine: we read what was there at stat time.
    while (read < length) {
      const { bytesRead } = await handle.read(buffer, read, length - read, st.size - length + read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return { text: buffer.subarray(0, read).toString('utf8'), size: st.size, bytesRead: read, mtime: st.mtimeMs / 1000 };
  } finally {
    await handle.close();
  }
}
