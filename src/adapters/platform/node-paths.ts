import { lstat, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { BadRequest, Forbidden } from '../../ports/errors.js';

/** Directories that are never a workspace, and whose contents are never one either. */
const SYSTEM_TREES = [
  '/etc',
  '/proc',
  '/sys',
  '/dev',
  '/boot',
  '/run',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/usr/bin',
  '/usr/sbin',
  '/usr/lib',
  '/usr/lib32',
  '/usr/lib64',
  '/usr/libexec',
  '/usr/include',
  '/usr/share',
  '/var/lib',
  '/var/log',
  '/var/cache',
  '/var/spool',
  '/var/run',
  '/var/mail',
  '/System',
  '/private/etc',
  '/private/var/db',
];
/** Directories that are never a workspace themselves (their subfolders may be, e.g. /usr/local/src/app, /var/www/site). */
const SYSTEM_ROOTS = [
  '/',
  '/usr',
  '/usr/local',
  '/var',
  '/opt',
  '/home',
  '/root',
  '/srv',
  '/mnt',
  '/media',
  '/tmp',
  '/Library',
  '/Users',
  '/Applications',
  '/private',
  '/private/var',
  '/Volumes',
];

export function isSystemPath(path: string): boolean {
  const p = resolve(path);
  return SYSTEM_ROOTS.includes(p) || SYSTEM_TREES.some((t) => p === t || p.startsWith(t + sep));
}

export function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  // `..foo` is a name inside the root; only `..` itself or `../…` climbs out.
  return rel === '' || (rel !== '..' && !rel.startsWith('..' + sep) && !isAbsolute(rel));
}

/** The canonical workspace root; Forbidden for system roots. */
export async function canonicalRoot(root: string): Promise<string> {
  if (!root || !isAbsolute(root)) throw new BadRequest('Workspace path must be absolute');
  checkNameLengths(root);
  let real: string;
  try {
    real = await realpath(root);
  } catch {
    throw new BadRequest(`Workspace does not exist: ${root}`);
  }
  if (isSystemPath(real)) throw new Forbidden(`Refusing a system directory as a workspace: ${real}`);
  return real;
}

/** The longest file or folder name Linux and macOS accept, in bytes. */
const NAME_MAX = 255;

/** A longer name would fail with ENAMETOOLONG deep in a file call: it is the caller's input, so a 400. */
export function checkNameLengths(path: string): void {
  for (const part of path.split(/[/\\]/)) {
    if (part.length > NAME_MAX / 3 && Buffer.byteLength(part) > NAME_MAX) throw new BadRequest(`A file or folder name is longer than ${NAME_MAX} bytes`);
  }
}

export interface Resolved {
  /** Canonical workspace root. */
  root: string;
  /** Absolute path inside it (symlinks in the final component not followed). */
  abs: string;
  /** The path relative to the root, with forward slashes ("" for the root). */
  rel: string;
}

/**
 * Resolves a workspace-relative path and proves it stays inside the workspace: no `..`
 * escape, no absolute path, and no symlinked directory on the way that leads out.
 */
export async function resolveInside(rootPath: string, userPath: string): Promise<Resolved> {
  if (typeof userPath !== 'string' || userPath.includes('\0')) throw new BadRequest('Invalid path');
  checkNameLengths(userPath);
  const root = await canonicalRoot(rootPath);
  const cleaned = userPath.replace(/\\/g, '/');
  if (cleaned.startsWith('/') || /^[A-Za-z]:/.test(cleaned)) throw new Forbidden('Path must be relative to the workspace');
  const abs = resolve(root, cleaned || '.');
  if (!isInside(root, abs)) throw new Forbidden('Path is outside the workspace');
  // The parent chain must stay inside after symlinks are followed.
  // (The root itself has no parent inside the workspace to check.)
  const parentReal = abs === root ? root : await realExisting(dirname(abs));
  if (!isInside(root, parentReal)) throw new Forbidden('Path is outside the workspace');
  return { root, abs, rel: relative(root, abs).split(sep).join('/') };
}

/** Like resolveInside, and the target itself, if a symlink, must also point inside. */
export async function resolveTarget(rootPath: string, userPath: string): Promise<Resolved> {
  const r = await resolveInside(rootPath, userPath);
  try {
    const st = await lstat(r.abs);
    if (st.isSymbolicLink() && !isInside(r.root, await realpath(r.abs).catch(() => r.abs))) {
      throw new Forbidden('Symlink points outside the workspace');
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  return r;
}

/** realpath of the deepest existing ancestor, with the missing tail appended. */
export async function realExisting(path: string): Promise<string> {
  let current = path;
  const tail: string[] = [];
  for (;;) {
    try {
      return resolve(await realpath(current), ...tail.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return path;
      tail.push(current.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
      current = parent;
    }
  }
}
