import { lstat, readdir, readFile, realpath, rm, rmdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Bytes of a file; null when it does not exist. */
export async function readBytes(path: string): Promise<Uint8Array | null> {
  try {
    return new Uint8Array(await readFile(path));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * Files under `root`, `/`-separated and relative, sorted. Symlinks are followed (skills are often
 * linked in) but a directory is entered once per real path, so a link loop ends.
 */
export async function walkFiles(root: string, options: { skipDirs: ReadonlySet<string>; maxFiles: number }): Promise<string[]> {
  const out: string[] = [];
  const visited = new Set<string>();
  // A plain subdirectory's real path is its parent's plus its name: only links need realpath().
  const walk = async (dir: string, rel: string, knownReal?: string): Promise<void> => {
    const real = knownReal ?? (await realpath(dir).catch(() => null));
    if (!real || visited.has(real)) return;
    visited.add(real);
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    // Subdirectories are walked side by side: a skills tree has hundreds of small folders.
    const subdirs: Array<Promise<void>> = [];
    for (const e of entries) {
      if (out.length >= options.maxFiles) break;
      const path = join(dir, e.name);
      const relPath = rel ? `${rel}/${e.name}` : e.name;
      let isDir = e.isDirectory();
      let isFile = e.isFile();
      if (e.isSymbolicLink()) {
        const s = await stat(path).catch(() => null);
        isDir = !!s?.isDirectory();
        isFile = !!s?.isFile();
      }
      if (isDir && !options.skipDirs.has(e.name)) subdirs.push(walk(path, relPath, e.isSymbolicLink() ? undefined : join(real, e.name)));
      else if (isFile) out.push(relPath);
    }
    await Promise.all(subdirs);
  };
  await walk(root, '');
  return out.sort().slice(0, options.maxFiles);
}

/** ToolHost.remove: a file or link, a whole tree with `recursive`, else only an empty directory. */
export async function removePath(path: string, options: { recursive?: boolean } = {}): Promise<boolean> {
  const s = await lstat(path).catch(() => null);
  if (!s) return false;
  if (!s.isDirectory()) {
    await rm(path, { force: true });
    return true;
  }
  if (options.recursive) {
    await rm(path, { recursive: true, force: true });
    return true;
  }
  try {
    await rmdir(path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOTEMPTY' || (err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}
