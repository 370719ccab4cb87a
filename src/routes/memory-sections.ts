import { Forbidden } from '../ports/errors.js';
import type { HermesHome } from '../ports/hermes-home.js';
import { MEMORY_FILES, parseEntries, usedChars } from '../agent/tools/memory-store.js';

export type Section = 'memory' | 'user' | 'soul';

const join = (root: string, rel: string) => `${root.replace(/\/+$/, '')}/${rel}`;

/** Why the file cannot be written here, or null: a symlink (the file or `memories/`), or no write permission. */
async function writeProblem(home: HermesHome, section: Section, path: string): Promise<string | null> {
  const name = path.split('/').pop()!;
  // A symlink planted at a memory path would let a save overwrite a file outside the home.
  const links = section === 'soul' ? [path] : [join(home.root, 'memories'), path];
  for (const at of links) {
    if ((await home.files.stat(at))?.kind === 'symlink')
      return `Cannot write to a symlinked memory file: ${at} is a symlink. Replace it with a regular ${at === path ? 'file' : 'folder'} to edit ${name} here.`;
  }
  const st = await home.files.stat(path);
  if (st && !st.writable) return `${name} is not writable: ${path}. Run chmod 644 on the file or fix ownership on the shared volume.`;
  return null;
}

/** The section's file and the check a save runs first (403 with the hint). */
export function sectionFile(home: HermesHome, section: Section) {
  const path = section === 'soul' ? join(home.root, 'SOUL.md') : join(home.root, `memories/${MEMORY_FILES[section]}`);
  return {
    path,
    async guard() {
      const problem = await writeProblem(home, section, path);
      if (problem) throw new Forbidden(problem);
    },
  };
}

/**
 * One section as `GET /api/memory` shows it: the text (masked by `mask`), its path and mtime,
 * and for the panel whether it is on, its entries, usage against the limit and whether a save
 * can work. A disabled store is not read (the incumbent answers "" for it).
 */
export async function readSection(home: HermesHome, section: Section, opts: { enabled: boolean; limit: number | null }, mask: (t: string) => string) {
  const { path } = sectionFile(home, section);
  const st = opts.enabled ? await home.files.stat(path) : null;
  const text = opts.enabled ? ((await home.files.readText(path)) ?? '') : '';
  const hint = opts.enabled ? await writeProblem(home, section, path) : null;
  const entries = section === 'soul' ? null : parseEntries(text);
  return {
    path,
    enabled: opts.enabled,
    mtime: st ? st.mtime : null,
    shown: mask(text),
    info: {
      enabled: opts.enabled,
      writable: opts.enabled && hint === null,
      hint,
      ...(entries
        ? {
            entries: entries.map(mask),
            // Usage counts the file's real characters, not the masks shown.
            used: usedChars(entries),
            limit: opts.limit,
          }
        : {}),
    },
  };
}
