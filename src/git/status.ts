import type { WorkspaceFiles } from '../ports/workspace-files.js';
import { type LineCount, isConflict, parseNumstatZ, parsePorcelainV2, statusCode } from './porcelain.js';
import { type GitRepo, mustGit, runGit, workspacePath, workspaceSpec } from './repo.js';

/** The incumbent's caps: files listed per status, bytes of an untracked file read to count its lines. */
export const STATUS_FILE_LIMIT = 500;
export const DIFF_SIZE_LIMIT = 512 * 1024;
/** Untracked files whose lines are counted (each is read); the rest show 0. */
const UNTRACKED_COUNTED = 200;

export interface GitFileState {
  path: string;
  old_path: string | null;
  workspace_path: string;
  status: string;
  staged: boolean;
  unstaged: boolean;
  untracked: boolean;
  ignored: boolean;
  conflict: boolean;
  additions: number;
  deletions: number;
  binary: boolean;
}

export interface GitStatus {
  is_git: true;
  branch: string;
  upstream: string;
  ahead: number;
  behind: number;
  /** The commit HEAD names (short), '' before the first commit; `detached` says HEAD is no branch. */
  head: string;
  detached: boolean;
  totals: { changed: number; staged: number; unstaged: number; untracked: number; conflicts: number };
  files: GitFileState[];
  truncated: boolean;
  noise_filtering: { filemode_only: number; crlf_only: number; active: boolean };
}

/** Lines in a text file, or binary when it holds NUL or is not UTF-8; nothing when too large or unreadable. */
export async function countFileLines(files: WorkspaceFiles, workspace: string, path: string): Promise<LineCount> {
  try {
    const f = await files.readText(workspace, path, DIFF_SIZE_LIMIT);
    if (f.content.includes('\0') || f.content.includes('\uFFFD')) return { additions: 0, deletions: 0, binary: true };
    const lines = f.content.split('\n').length - (f.content.endsWith('\n') ? 1 : 0);
    return { additions: f.content ? lines : 0, deletions: 0, binary: false };
  } catch {
    return { additions: 0, deletions: 0, binary: false };
  }
}

async function numstat(repo: GitRepo, cached: boolean): Promise<Map<string, LineCount>> {
  const args = ['diff', '--numstat', '-z', '--no-ext-diff', '--no-textconv', '-M', ...(cached ? ['--cached'] : []), '--', workspaceSpec(repo)];
  const r = await runGit(repo, args);
  // Before the first commit `diff --cached` has nothing to compare with: no counts, not an error.
  return r.code === 0 ? parseNumstatZ(r.stdout) : new Map();
}

/**
 * The workspace's git status in the incumbent's shape: branch, upstream, ahead/behind, and each
 * changed file (workspace-relative) with what is staged, unstaged, untracked, ignored or in
 * conflict, and its line counts (staged plus unstaged; an untracked file's lines).
 */
export async function gitStatus(repo: GitRepo, files: WorkspaceFiles): Promise<GitStatus> {
  const [st, staged, unstaged] = await Promise.all([
    mustGit(repo, ['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all', '--ignored=matching', '--', workspaceSpec(repo)]),
    numstat(repo, true),
    numstat(repo, false),
  ]);
  const { branch, entries } = parsePorcelainV2(st.stdout);
  const list: GitFileState[] = [];
  let truncated = false;
  let counted = 0;
  for (const e of entries) {
    const path = workspacePath(repo, e.path);
    if (path === null) continue;
    if (list.length >= STATUS_FILE_LIMIT) {
      truncated = true;
      break;
    }
    const oldPath = e.origPath ? workspacePath(repo, e.origPath) : null;
    const [x = '.', y = '.'] = e.xy;
    const untracked = e.kind === '?';
    const ignored = e.kind === '!';
    let lines: LineCount = { additions: 0, deletions: 0, binary: false };
    if (untracked) {
      if (counted++ < UNTRACKED_COUNTED) lines = await countFileLines(files, repo.workspace, path);
    } else if (!ignored) {
      for (const source of [staged, unstaged]) {
        const n = source.get(e.path);
        if (!n) continue;
        lines = { additions: lines.additions + n.additions, deletions: lines.deletions + n.deletions, binary: lines.binary || n.binary };
      }
    }
    list.push({
      path,
      old_path: oldPath,
      workspace_path: path,
      status: ignored ? 'Ignored' : statusCode(e),
      staged: !untracked && !ignored && x !== '.',
      unstaged: !untracked && !ignored && y !== '.',
      untracked,
      ignored,
      conflict: isConflict(e),
      ...lines,
    });
  }
  list.sort((a, b) => (a.path.toLowerCase() < b.path.toLowerCase() ? -1 : a.path.toLowerCase() > b.path.toLowerCase() ? 1 : 0));
  const totals = { changed: 0, staged: 0, unstaged: 0, untracked: 0, conflicts: 0 };
  for (const f of list) {
    if (f.ignored) continue;
    totals.changed++;
    if (f.staged) totals.staged++;
    if (f.unstaged) totals.unstaged++;
    if (f.untracked) totals.untracked++;
    if (f.conflict) totals.conflicts++;
  }
  const head = branch.oid ? branch.oid.slice(0, 7) : '';
  return {
    is_git: true,
    branch: branch.head ?? (head || 'HEAD'),
    upstream: branch.upstream ?? '',
    ahead: branch.ahead,
    behind: branch.behind,
    head,
    detached: branch.head === null,
    totals,
    files: list,
    truncated,
    noise_filtering: { filemode_only: 0, crlf_only: 0, active: false },
  };
}
