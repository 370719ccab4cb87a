import type { GitFile, GitStatus } from '../api/git.js';

/** The one letter a file's status shows: M, A, D, R, U (conflict) or ? (untracked). */
export type GitLetter = 'M' | 'A' | 'D' | 'R' | 'U' | '?';

export function gitLetter(file: GitFile): GitLetter {
  if (file.conflict) return 'U';
  if (file.untracked) return '?';
  const s = file.status;
  if (s === 'A' || s === 'D' || s === 'R') return s;
  if (s === 'C') return 'A'; // a copy is a new file
  return 'M';
}

/** What the file tree marks: a letter per changed file, a dot on every folder above one. */
export interface GitMarks {
  files: Map<string, GitLetter>;
  dirs: Set<string>;
}

export const NO_MARKS: GitMarks = { files: new Map(), dirs: new Set() };

/** Marks from one status answer (no request per row). */
export function gitMarks(status: GitStatus | null): GitMarks {
  if (!status?.is_git || !status.files?.length) return NO_MARKS;
  const files = new Map<string, GitLetter>();
  const dirs = new Set<string>();
  for (const file of status.files) {
    if (file.ignored) continue;
    // An untracked folder comes as `dir/`: mark the folder itself.
    const path = file.path.replace(/\/+$/, '');
    files.set(path, gitLetter(file));
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
    if (file.path.endsWith('/')) dirs.add(path);
  }
  return { files, dirs };
}
