import { unifiedDiff } from '../domain/unified-diff.js';
import type { WorkspaceFiles } from '../ports/workspace-files.js';
import { GitError } from './errors.js';
import { type GitRepo, mustGit, repoPath, runGit, workspacePath } from './repo.js';
import { DIFF_SIZE_LIMIT } from './status.js';

export type DiffKind = 'staged' | 'unstaged' | 'untracked';

export interface GitFileDiff {
  path: string;
  kind: DiffKind;
  binary: boolean;
  /** The incumbent's name for a diff cut at 512 KB (or a file too large to read); `truncated` says the same. */
  too_large: boolean;
  truncated: boolean;
  additions: number;
  deletions: number;
  diff: string;
}

function counts(diff: string): { additions: number; deletions: number } {
  let additions = 0;
  let deletions = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++') || line.startsWith('---')) continue;
    if (line.startsWith('+')) additions++;
    else if (line.startsWith('-')) deletions++;
  }
  return { additions, deletions };
}

/** An untracked file as an all-added diff, read through the workspace files port (which refuses links out). */
async function untrackedDiff(repo: GitRepo, files: WorkspaceFiles, path: string): Promise<GitFileDiff> {
  const base = { path, kind: 'untracked' as const, additions: 0, deletions: 0, diff: '' };
  let content: string;
  try {
    content = (await files.readText(repo.workspace, path, DIFF_SIZE_LIMIT)).content;
  } catch (err) {
    if ((err as { extra?: { max_bytes?: number } }).extra?.max_bytes) return { ...base, binary: false, too_large: true, truncated: true };
    throw err;
  }
  if (content.includes('\0') || content.includes('\uFFFD')) return { ...base, binary: true, too_large: false, truncated: false };
  const d = unifiedDiff(path, path, null, content, { maxChars: DIFF_SIZE_LIMIT });
  return { ...base, binary: false, too_large: d.truncated, truncated: d.truncated, additions: d.additions, deletions: d.deletions, diff: d.diff };
}

async function isUntracked(repo: GitRepo, rel: string): Promise<boolean> {
  const r = await runGit(repo, ['ls-files', '--others', '--exclude-standard', '-z', '--', rel]);
  return r.code === 0 && r.stdout.split('\0').includes(rel);
}

/**
 * One file's diff: staged (index against HEAD), unstaged (worktree against the index; an
 * untracked file as all additions, as the incumbent does), or untracked. Cut at 512 KB.
 */
export async function gitDiff(repo: GitRepo, files: WorkspaceFiles, path: string, kind: DiffKind): Promise<GitFileDiff> {
  const rel = repoPath(repo, path);
  const wsPath = workspacePath(repo, rel) ?? path;
  if (kind === 'untracked' || (kind === 'unstaged' && (await isUntracked(repo, rel)))) return untrackedDiff(repo, files, wsPath);
  const args = ['diff', '--no-ext-diff', '--no-textconv', '--unified=3', ...(kind === 'staged' ? ['--cached'] : []), '--', rel];
  const r = await mustGit(repo, args, { maxOutputBytes: DIFF_SIZE_LIMIT });
  const binary = /^Binary files .* differ$/m.test(r.stdout) || r.stdout.includes('GIT binary patch');
  return {
    path: wsPath,
    kind,
    binary,
    too_large: r.truncated,
    truncated: r.truncated,
    ...counts(r.stdout),
    diff: binary ? '' : r.stdout,
  };
}

export function checkDiffKind(kind: string): DiffKind {
  if (kind === 'staged' || kind === 'unstaged' || kind === 'untracked') return kind;
  throw new GitError('kind must be staged, unstaged or untracked');
}
