import { open, readFile, readdir, rename, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';

let counter = 0;

/**
 * Writes `data` so that a reader (or a crash) only ever sees the old file or the new one:
 * temp file in the same directory, fsync, rename over the target, fsync the directory.
 */
export async function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  options: { syncDir?: boolean; mode?: number } = {},
): Promise<{ mtimeMs: number; size: number }> {
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

/** `<target>.tmp.<pid>.<n>`: the names writeFileAtomic gives its temp files, and only those. */
const TEMP_NAME = /^.+\.tmp\.(\d+)\.\d+$/;

/**
 * Removes the temp files a killed writer left in `dir`. Only names writeFileAtomic makes, and
 * only those whose writer is gone: this process's own pid counts as gone, so call it before this
 * process writes into `dir` (a restarted container often gets its old pid back). Returns the
 * names removed.
 */
export async function removeStaleTemps(dir: string): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const m = TEMP_NAME.exec(name);
    if (!m || (Number(m[1]) !== process.pid && processAlive(Number(m[1])))) continue;
    await unlink(join(dir, name)).then(
      () => removed.push(name),
      () => {},
    );
  }
  return removed;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
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
