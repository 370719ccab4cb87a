import { realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * `path` with its symlinks followed, for the file guards. A path that does not exist yet (a new
 * file, new directories) resolves its deepest existing ancestor and keeps the rest as given, so
 * a write through a linked directory is judged where it would land.
 */
export async function realPathOf(path: string): Promise<string> {
  const tail: string[] = [];
  let at = path;
  for (;;) {
    try {
      const real = await realpath(at);
      return tail.length ? join(real, ...tail.reverse()) : real;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const up = dirname(at);
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || up === at) return path;
      tail.push(basename(at));
      at = up;
    }
  }
}
