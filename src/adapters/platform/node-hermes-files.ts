import { access, constants, lstat, mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { FileTail, HermesFiles, HermesFileStat } from '../../ports/hermes-home.js';
import { writeFileAtomic } from '../storage/fs/atomic-file.js';
import { readFileTail } from './node-file-tail.js';
import { realPathOf } from './node-real-path.js';
import { walkTree } from './node-tree-walk.js';

const missing = (err: unknown) => ['ENOENT', 'ENOTDIR'].includes((err as NodeJS.ErrnoException).code ?? '');

function kindOf(st: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): HermesFileStat['kind'] {
  return st.isSymbolicLink() ? 'symlink' : st.isFile() ? 'file' : st.isDirectory() ? 'dir' : 'other';
}

/** Whether this process may write `path`, or create it in its nearest existing folder. */
async function canWrite(path: string): Promise<boolean> {
  for (let at = path; ; at = dirname(at)) {
    try {
      await access(at, constants.W_OK);
      return true;
    } catch (err) {
      if (!missing(err) || dirname(at) === at) return false;
    }
  }
}

/** A Hermes home's files on the local file system. */
export class NodeHermesFiles implements HermesFiles {
  readonly walk = walkTree;

  async stat(path: string): Promise<HermesFileStat | null> {
    try {
      const st = await lstat(path);
      return { kind: kindOf(st), size: st.size, mtime: st.mtimeMs / 1000, writable: await canWrite(path) };
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  }

  async readText(path: string): Promise<string | null> {
    try {
      return await readFile(path, 'utf8');
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  }

  async writeText(path: string, text: string): Promise<void> {
    await mkdir(dirname(path), { recursive: true });
    await writeFileAtomic(path, text);
  }

  async list(dir: string) {
    try {
      const entries = await readdir(dir, { withFileTypes: true });
      return entries.map((e) => ({ name: e.name, kind: kindOf(e) })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch (err) {
      if (missing(err)) return [];
      throw err;
    }
  }

  async remove(path: string): Promise<void> {
    await rm(path, { recursive: true, force: true });
  }

  realPath(path: string): Promise<string> {
    return realPathOf(path);
  }

  readTail(path: string, maxBytes: number): Promise<FileTail | null> {
    return readFileTail(path, maxBytes);
  }
}
