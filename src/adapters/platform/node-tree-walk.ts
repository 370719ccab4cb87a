import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Files under `root`, `/`-separated and relative, sorted, for HermesFiles.walk. Folders of one
 * level are read together, and a real path is asked for only at the root and at symlinks (a
 * plain folder's real path is its parent's plus its name), so a 500-skill tree costs one
 * readdir per folder. Symlinks are followed; each real folder is entered once (a loop ends).
 */
export async function walkTree(root: string, options: { skipDirs: ReadonlySet<string>; maxFiles: number }): Promise<string[]> {
  const rootReal = await realpath(root).catch(() => null);
  if (!rootReal) return [];
  const out: string[] = [];
  const visited = new Set([rootReal]);
  let level: { path: string; rel: string; real: string }[] = [{ path: root, rel: '', real: rootReal }];
  while (level.length && out.length < options.maxFiles) {
    const listed = await Promise.all(level.map((d) => readdir(d.path, { withFileTypes: true }).catch(() => [])));
    const next: typeof level = [];
    for (let i = 0; i < level.length; i++) {
      const dir = level[i]!;
      for (const e of listed[i]!) {
        const path = join(dir.path, e.name);
        const rel = dir.rel ? `${dir.rel}/${e.name}` : e.name;
        let isDir = e.isDirectory();
        let isFile = e.isFile();
        let real = `${dir.real}/${e.name}`;
        if (e.isSymbolicLink()) {
          const [s, r] = await Promise.all([stat(path).catch(() => null), realpath(path).catch(() => null)]);
          isDir = !!s?.isDirectory();
          isFile = !!s?.isFile();
          real = r ?? real;
        }
        if (isDir) {
          if (options.skipDirs.has(e.name) || visited.has(real)) continue;
          visited.add(real);
          next.push({ path, rel, real });
        } else if (isFile && out.length < options.maxFiles) out.push(rel);
      }
    }
    level = next;
  }
  return out.sort();
}
