import { createReadStream } from 'node:fs';
import { lstat, mkdir, readdir, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { Readable } from 'node:stream';
import { BadRequest, Forbidden, NotFound, TooLarge } from '../../ports/errors.js';
import { writeFileAtomic } from '../storage/fs/atomic-file.js';
import type { FileEntry, RawFile, TextFile, WorkspaceFiles } from '../../ports/workspace-files.js';
import { canonicalRoot, checkNameLengths, isInside, isSystemPath, realExisting, resolveInside, resolveTarget } from './node-paths.js';

const MAX_LIST_ENTRIES = 5000;

function errno(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException)?.code;
}

/** Maps "no such file" to NotFound; everything else passes through. */
async function must<T>(work: Promise<T>, what = 'File not found'): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR') throw new NotFound(what);
    if (errno(err) === 'ENAMETOOLONG') throw new BadRequest('Path is too long');
    throw err;
  }
}

/** `~` and `~/x` under the user's home; `~user` forms are left alone (and refused as relative). */
function expandTilde(path: string, home: string): string {
  if (path === '~') return home;
  return path?.startsWith('~/') ? join(home, path.slice(2)) : path;
}

function checkName(name: string): string {
  const n = name.trim();
  if (!n || n === '.' || n === '..' || /[/\\\0]/.test(n)) throw new BadRequest('Invalid file name');
  return n;
}

/** Creation time in ns as a string; null where the file system keeps none (Node reports 0 there). */
function birthtimeNs(l: { birthtimeNs: bigint }): string | null {
  return l.birthtimeNs > 0n ? l.birthtimeNs.toString() : null;
}

/**
 * Workspace files on the local disk. Every path goes through resolveInside/resolveTarget,
 * which refuse `..`, absolute paths and symlinks that lead out of the workspace.
 */
export class NodeWorkspaceFiles implements WorkspaceFiles {
  /** `homeDir`: what a leading `~` means (the incumbent expands `~/project` in workspace paths). */
  constructor(private readonly homeDir?: string) {}

  async checkWorkspace(given: string, options: { create?: boolean } = {}): Promise<string> {
    const path = this.homeDir ? expandTilde(given, this.homeDir) : given;
    if (!path?.startsWith('/')) throw new BadRequest('Workspace path must be absolute');
    checkNameLengths(path);
    if (isSystemPath(path)) throw new Forbidden(`Refusing a system directory as a workspace: ${path}`);
    if (options.create) {
      // Where the new folder would really land: a symlink on the way may lead into a system tree
      // (and recursive mkdir under /proc never returns).
      const real = await realExisting(path);
      if (isSystemPath(real)) throw new Forbidden(`Refusing a system directory as a workspace: ${real}`);
      try {
        await mkdir(path, { recursive: true });
      } catch (err) {
        // A file where the folder (or one of its parents) should be: the caller's mistake, not a 500.
        if (errno(err) === 'EEXIST' || errno(err) === 'ENOTDIR') throw new BadRequest(`Workspace is not a directory: ${path}`);
        throw err;
      }
    }
    const root = await canonicalRoot(path);
    const st = await stat(root);
    if (!st.isDirectory()) throw new BadRequest(`Workspace is not a directory: ${path}`);
    return root;
  }

  async absolutePath(root: string, path: string): Promise<string> {
    return (await resolveTarget(root, path)).abs;
  }

  async list(root: string, path: string): Promise<FileEntry[]> {
    const dir = await resolveTarget(root, path);
    const st = await must(stat(dir.abs), 'Directory not found');
    if (!st.isDirectory()) throw new BadRequest('Not a directory');
    const dirents = await readdir(dir.abs, { withFileTypes: true });
    const here = await realpath(dir.abs);
    const entries: FileEntry[] = [];
    for (const d of dirents.slice(0, MAX_LIST_ENTRIES)) {
      const abs = join(dir.abs, d.name);
      const rel = relative(dir.root, abs).split(sep).join('/');
      try {
        const l = await lstat(abs, { bigint: true });
        if (l.isSymbolicLink()) {
          let looped = false;
          const target = await realpath(abs).catch((err) => {
            looped = errno(err) === 'ELOOP';
            return null;
          });
          const t = target ? await stat(target).catch(() => null) : null;
          // Following a link to this folder or above it would walk the same tree forever.
          const loop = looped || (!!t?.isDirectory() && isInside(target as string, here));
          const outside = !target || !isInside(dir.root, target);
          const times = { mtime_ns: (l.mtimeNs ?? 0n).toString(), birthtime_ns: birthtimeNs(l), workspace_sort_rank: 0 as const };
          // As the incumbent: a link that leaves the workspace shows that it exists, not where it points.
          entries.push(
            outside
              ? {
                  name: d.name,
                  path: rel,
                  type: 'symlink',
                  is_dir: false,
                  size: 0,
                  ...times,
                  target_outside_workspace: true,
                  ...(loop ? { symlink_loop: true } : {}),
                }
              : {
                  name: d.name,
                  path: rel,
                  type: 'symlink',
                  is_dir: !!t?.isDirectory() && !loop,
                  size: t?.size ?? 0,
                  ...times,
                  target: target as string,
                  target_outside_workspace: false,
                  ...(loop ? { symlink_loop: true } : {}),
                },
          );
        } else {
          const isDir = l.isDirectory();
          entries.push({
            name: d.name,
            path: rel,
            type: isDir ? 'dir' : 'file',
            is_dir: isDir,
            size: isDir ? 0 : Number(l.size),
            mtime_ns: l.mtimeNs.toString(),
            birthtime_ns: birthtimeNs(l),
            // The incumbent ranks anything that is not a regular file (a folder, a socket) with the folders.
            workspace_sort_rank: l.isFile() ? 2 : 1,
          });
        }
      } catch {
        // Vanished between readdir and lstat: leave it out.
      }
    }
    // The incumbent's order: symlinks, folders, files, each by lower-cased name (code points).
    const key = (e: FileEntry) => e.name.toLowerCase();
    entries.sort((a, b) => a.workspace_sort_rank - b.workspace_sort_rank || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    return entries;
  }

  async readText(root: string, path: string, maxBytes: number): Promise<TextFile> {
    const r = await resolveTarget(root, path);
    const st = await must(stat(r.abs));
    if (st.isDirectory()) throw new BadRequest('Path is a directory');
    if (st.size > maxBytes) throw new BadRequest('File too large', { size: st.size, max_bytes: maxBytes });
    const content = new TextDecoder('utf-8').decode(await readFile(r.abs));
    return { path: r.rel, content, size: st.size, lines: content.split('\n').length };
  }

  async readRaw(root: string, path: string): Promise<RawFile> {
    const r = await resolveTarget(root, path);
    const st = await must(stat(r.abs));
    if (!st.isFile()) throw new BadRequest('Not a file');
    const body = Readable.toWeb(createReadStream(r.abs)) as unknown as ReadableStream<Uint8Array>;
    return { name: basename(r.abs), size: st.size, body };
  }

  async save(root: string, path: string, content: string) {
    const r = await resolveInside(root, path);
    const l = await must(lstat(r.abs));
    if (l.isSymbolicLink()) throw new BadRequest('Cannot save to a symlinked entry');
    if (l.isDirectory()) throw new BadRequest('Cannot save: path is a directory');
    if (!l.isFile()) throw new BadRequest('Not a file');
    await writeFile(r.abs, content);
    return { path: r.rel, size: Buffer.byteLength(content) };
  }

  async create(root: string, path: string, content: string) {
    const r = await resolveInside(root, path);
    if (!r.rel) throw new BadRequest('A file name is required');
    await mkdir(dirname(r.abs), { recursive: true });
    try {
      await writeFile(r.abs, content, { flag: 'wx' });
    } catch (err) {
      // The incumbent's clients check for 400 and this text.
      if (errno(err) === 'EEXIST') throw new BadRequest('File already exists');
      throw err;
    }
    return { path: r.rel, size: Buffer.byteLength(content) };
  }

  async createDir(root: string, path: string) {
    const r = await resolveInside(root, path);
    if (!r.rel) throw new BadRequest('A folder name is required');
    try {
      await mkdir(r.abs);
    } catch (err) {
      if (errno(err) === 'EEXIST') throw new BadRequest('Path already exists');
      if (errno(err) === 'ENOENT') throw new NotFound('Parent folder not found');
      throw err;
    }
    return { path: r.rel };
  }

  async rename(root: string, path: string, newName: string) {
    const r = await resolveInside(root, path);
    if (!r.rel) throw new Forbidden('Cannot rename the workspace root');
    // As the incumbent: symlinks are left as they are (they may be how a workspace reaches elsewhere).
    if ((await must(lstat(r.abs))).isSymbolicLink()) throw new BadRequest('Cannot rename a symlinked entry');
    const name = checkName(newName);
    const dest = await resolveInside(root, join(dirname(r.rel), name));
    return this.#moveTo(r.abs, dest.abs, dest.rel, `A file named "${name}" already exists`);
  }

  async move(root: string, path: string, destDir: string) {
    const r = await resolveInside(root, path);
    if (!r.rel) throw new Forbidden('Cannot move the workspace root');
    if ((await must(lstat(r.abs))).isSymbolicLink()) throw new BadRequest('Cannot move a symlinked entry');
    const dir = await resolveTarget(root, destDir);
    const st = await must(stat(dir.abs), 'Destination folder not found');
    if (!st.isDirectory()) throw new BadRequest('Destination is not a folder');
    // Compare real locations too: a symlinked destination may lead into the source's own subtree.
    const srcReal = join(await realpath(dirname(r.abs)), basename(r.abs));
    if (isInside(r.abs, dir.abs) || isInside(srcReal, await realpath(dir.abs))) throw new BadRequest('Cannot move a folder into itself or its subfolder');
    const dest = await resolveInside(root, join(dir.rel, basename(r.abs)));
    return this.#moveTo(r.abs, dest.abs, dest.rel, `A file named "${basename(r.abs)}" already exists in that folder`);
  }

  async #moveTo(from: string, to: string, rel: string, taken: string) {
    if (from === to) return { path: rel };
    const exists = await lstat(to).then(
      () => true,
      () => false,
    );
    if (exists) throw new BadRequest(taken);
    await rename(from, to);
    return { path: rel };
  }

  async readBytes(root: string, path: string, maxBytes: number): Promise<Uint8Array | null> {
    const r = await resolveInside(root, path);
    const l = await lstat(r.abs).catch((err) => {
      if (errno(err) === 'ENOENT' || errno(err) === 'ENOTDIR') return null;
      throw err;
    });
    if (!l) return null;
    if (!l.isFile()) throw new BadRequest('Not a regular file');
    if (l.size > maxBytes) throw new TooLarge('File too large');
    return new Uint8Array(await readFile(r.abs));
  }

  async writeBytes(root: string, path: string, bytes: Uint8Array): Promise<void> {
    const r = await resolveInside(root, path);
    if (!r.rel) throw new BadRequest('A file name is required');
    const l = await lstat(r.abs).catch(() => null);
    if (l?.isSymbolicLink()) throw new Forbidden('Refusing to write through a symlink');
    if (l && !l.isFile()) throw new BadRequest('Not a file');
    // resolveInside proved the deepest existing parent is inside: the folders made here are too.
    await mkdir(dirname(r.abs), { recursive: true });
    await writeFileAtomic(r.abs, bytes, { syncDir: false, ...(l ? { mode: l.mode & 0o7777 } : {}) });
  }

  async delete(root: string, path: string, recursive: boolean) {
    const r = await resolveInside(root, path);
    if (!r.rel) throw new Forbidden('Cannot delete the workspace root');
    const l = await must(lstat(r.abs));
    if (l.isSymbolicLink()) throw new BadRequest('Cannot delete a symlinked entry');
    if (l.isDirectory() && !recursive) throw new BadRequest('Set recursive=true to delete directories');
    await rm(r.abs, { recursive: l.isDirectory() });
  }
}
