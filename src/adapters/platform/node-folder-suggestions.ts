import { readdir, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { FolderSuggestions } from '../../ports/folder-suggestions.js';
import { isInside, isSystemPath } from './node-paths.js';

const realOrNull = (path: string) => realpath(path).catch(() => null);
const isDir = async (path: string) => (await stat(path).catch(() => null))?.isDirectory() ?? false;

/**
 * Folder completion on the local disk, as the incumbent restricts it: suggestions come only
 * from inside a trusted root (home, default and saved workspaces), so typing `/etc/` or
 * `<root>/../` lists nothing outside them. A symlink is followed only when it stays inside the
 * root it was found in.
 */
export class NodeFolderSuggestions implements FolderSuggestions {
  constructor(private readonly home: string) {}

  /** Canonical, existing, non-system roots, shortest first. The home counts even where it is /root. */
  async #trusted(roots: string[]): Promise<string[]> {
    const out: string[] = [];
    const home = await realOrNull(this.home);
    for (const root of [this.home, ...roots]) {
      if (!root || !isAbsolute(root)) continue;
      const real = await realOrNull(root);
      if (!real || real === '/' || out.includes(real) || !(await isDir(real))) continue;
      if (isSystemPath(real) && real !== home) continue;
      out.push(real);
    }
    return out.sort((a, b) => a.length - b.length);
  }

  async suggest(prefix: string, options: { roots: string[]; limit: number }): Promise<string[]> {
    const { limit } = options;
    const trusted = await this.#trusted(options.roots);
    const raw = prefix.trim();
    if (!raw) return trusted.slice(0, limit);
    // `~user/…` is not expanded (the server knows one home); such a prefix matches nothing.
    const tilde = raw === '~' || raw.startsWith('~/');
    if (raw.startsWith('~') && !tilde) return [];
    const target = tilde ? join(this.home, raw.slice(1)) : isAbsolute(raw) ? raw : join(this.home, raw);
    const home = (await realOrNull(this.home)) ?? this.home;
    const out: string[] = [];
    const add = (path: string) => {
      const shown = tilde && isInside(home, path) ? (path === home ? '~' : `~/${relative(home, path).split(sep).join('/')}`) : path;
      if (!out.includes(shown)) out.push(shown);
    };

    // A partly typed root ("/home/ad") completes to the roots it starts, without listing its parent.
    const typed = ((await realOrNull(target)) ?? resolve(target)).toLowerCase();
    for (const root of trusted) if (root.toLowerCase().startsWith(typed)) add(root);

    const endsWithSep = raw.endsWith('/');
    const dir = await realOrNull(endsWithSep ? target : dirname(target));
    const leaf = (endsWithSep ? '' : basename(target)).toLowerCase();
    const anchor = dir ? trusted.filter((r) => isInside(r, dir)).pop() : undefined;
    if (!dir || !anchor) return out.slice(0, limit);
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()));
    for (const entry of entries) {
      if (out.length >= limit) break;
      const name = entry.name.toLowerCase();
      if (name.startsWith('.') && !leaf.startsWith('.')) continue;
      if (leaf && !name.startsWith(leaf)) continue;
      let path = join(dir, entry.name);
      if (entry.isSymbolicLink()) {
        const real = await realOrNull(path);
        if (!real || !isInside(anchor, real) || !(await isDir(real))) continue;
        path = real;
      } else if (!entry.isDirectory()) continue;
      if (isSystemPath(path) && path !== home) continue;
      add(path);
    }
    return out.slice(0, limit);
  }
}
