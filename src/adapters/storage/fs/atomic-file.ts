import { open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';

let counter = 0;

/**
 * Writes `data` so that a reader (or a crash) only ever sees the old file or the new one:
 * temp file in the same directory, fsync, rename over the target, fsync the directory.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, options: { syncDir?: boolean; mode?: number } = {}): Promise<{ mtimeMs: number; size: number }> {
  const temp = `${path}.tmp.${process.pid}.${++counter}`;
  const handle = await open(temp, 'w', options.mode ?? 0o644);
  let written: { mtimeMs: number; size: number };
  try {
    // A temp file left by a crash keeps its old mode when reopened: set it again.
    if (options.mode !== undefined) await handle.chmod(options.mode);
    await handle.writeFile(data);
    await handle.sync();
    // Renaming keeps mtime and size, so these identify the new file for a reader's cache.
    const st = await handle.stat();
    written = { mtimeMs: st.mtimeMs, size: st.size };
  } catch (err) {
    await handle.close().catch(() => {});
    await unlink(temp).catch(() => {});
    throw err;
  }
  await handle.close();
  try {
    await rename(temp, path);
  } catch (err) {
    await unlink(temp).catch(() => {});
    throw err;
  }
  if (options.syncDir !== false) await syncDir(dirname(path));
  return written;
}

async function syncDir(dir: string) {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Some filesystems refuse fsync on directories; the rename is still atomic there.
  }
}

/** The file's text, or null when it does not exist. */
export async function readTextIfExists(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** The incumbent writes its JSON with Python's `json.dumps(..., indent=2, ensure_ascii=False)`. */
export function pythonJson(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
