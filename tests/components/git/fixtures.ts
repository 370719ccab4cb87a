import type { GitBranches, GitFile, GitStatus } from '../../../components/api/git.js';

/** A changed file as GET /api/git/status lists it. */
export function file(path: string, patch: Partial<GitFile> = {}): GitFile {
  return {
    path,
    old_path: null,
    status: 'M',
    staged: false,
    unstaged: true,
    untracked: false,
    conflict: false,
    additions: 1,
    deletions: 0,
    binary: false,
    ...patch,
  };
}

/** A repository's status with these files (totals counted from them). */
export function status(files: GitFile[], patch: Partial<GitStatus> = {}): GitStatus {
  return {
    is_git: true,
    branch: 'main',
    upstream: 'origin/main',
    ahead: 0,
    behind: 0,
    files,
    truncated: false,
    totals: {
      changed: files.length,
      staged: files.filter((f) => f.staged).length,
      unstaged: files.filter((f) => f.unstaged).length,
      untracked: files.filter((f) => f.untracked).length,
      conflicts: files.filter((f) => f.conflict).length,
    },
    ...patch,
  };
}

export const BRANCHES: GitBranches = {
  is_git: true,
  current: 'main',
  detached: false,
  head: 'abc1234',
  local: [
    { name: 'feature/x', sha: 'def5678', upstream: '', ahead: 0, behind: 0 },
    { name: 'main', sha: 'abc1234', upstream: 'origin/main', ahead: 0, behind: 0 },
  ],
  remote: [{ name: 'origin/main', sha: 'abc1234', upstream: '', ahead: 0, behind: 0 }],
  upstream: 'origin/main',
  ahead: 0,
  behind: 0,
};

/** Every status group at once: a conflict, a staged add, a modified file, an untracked one. */
export const EVERY_KIND = status(
  [
    file('src/app.ts', { status: 'M', additions: 4, deletions: 2 }),
    file('src/new.ts', { status: 'A', staged: true, unstaged: false, additions: 10 }),
    file('both.txt', { status: 'UU', conflict: true, additions: 0 }),
    file('notes.md', { status: '??', untracked: true, unstaged: false, additions: 3 }),
    file('old.txt', { status: 'D', staged: true, unstaged: false, additions: 0, deletions: 5 }),
  ],
  { ahead: 2, behind: 1 },
);

/** A `{error, code}` refusal as the server answers it. */
export const refusal = (status: number, error: string, code: string) =>
  new Response(JSON.stringify({ error, code }), { status, headers: { 'Content-Type': 'application/json' } });
