import type { WorkspaceFiles } from '../ports/workspace-files.js';
import { GitError } from './errors.js';
import { COMMIT_TIMEOUT_MS, type GitRepo, REMOTE_TIMEOUT_MS, mustGit, repoPath, runGit } from './repo.js';
import { gitBranches } from './branches.js';
import { gitStatus } from './status.js';

/**
 * What changes a repository: each call runs under the repository's lock (the route takes it).
 * Paths are workspace-relative and checked; every pathspec comes after `--`.
 */

function pathspecs(repo: GitRepo, paths: readonly string[]): string[] {
  const unique = [...new Set(paths.map((p) => p.trim()).filter(Boolean))];
  if (!unique.length) throw new GitError('At least one path is required');
  return unique.map((p) => repoPath(repo, p));
}

async function hasHead(repo: GitRepo): Promise<boolean> {
  return (await runGit(repo, ['rev-parse', '--verify', '--quiet', 'HEAD'])).code === 0;
}

function message(r: { stdout: string; stderr: string }): string {
  return (r.stdout || r.stderr).trim();
}

export async function stage(repo: GitRepo, paths: readonly string[]): Promise<void> {
  await mustGit(repo, ['add', '--', ...pathspecs(repo, paths)]);
}

export async function unstage(repo: GitRepo, paths: readonly string[]): Promise<void> {
  const specs = pathspecs(repo, paths);
  // Before the first commit there is no HEAD to restore the index from: the entries are dropped.
  if (await hasHead(repo)) await mustGit(repo, ['restore', '--staged', '--', ...specs]);
  else await mustGit(repo, ['rm', '--cached', '-r', '--quiet', '--', ...specs]);
}

/** Back to the index's version; an untracked file is deleted only with `deleteUntracked`; conflicts are left alone. */
export async function discard(repo: GitRepo, files: WorkspaceFiles, paths: readonly string[], deleteUntracked: boolean): Promise<void> {
  const specs = pathspecs(repo, paths);
  const status = await gitStatus(repo, files);
  const byRepoPath = new Map(status.files.map((f) => [repo.prefix + f.path, f]));
  const tracked: string[] = [];
  for (const spec of specs) {
    const state = byRepoPath.get(spec);
    if (state?.conflict) throw new GitError('Conflicted files cannot be discarded from this panel', 'conflict');
    if (state?.untracked) {
      if (!deleteUntracked) throw new GitError('Untracked files require delete_untracked=true');
      await files.delete(repo.workspace, state.path, false);
    } else tracked.push(spec);
  }
  if (tracked.length) await mustGit(repo, ['restore', '--worktree', '--', ...tracked]);
}

/** Commits the index; the message goes on stdin, never through argv. Answers the short commit id. */
export async function commit(repo: GitRepo, text: string): Promise<string> {
  const msg = text.trim();
  if (!msg) throw new GitError('Commit message is required');
  await mustGit(repo, ['commit', '--file=-', '--cleanup=strip'], { input: msg, timeoutMs: COMMIT_TIMEOUT_MS });
  return (await mustGit(repo, ['rev-parse', '--short', 'HEAD'])).stdout.trim();
}

/** Remote commands name git's own pack programs, so a repository's `remote.*.uploadpack` cannot run a command. */
export async function fetchRemote(repo: GitRepo): Promise<string> {
  return message(await mustGit(repo, ['fetch', '--prune', '--no-recurse-submodules', '--upload-pack=git-upload-pack'], { timeoutMs: REMOTE_TIMEOUT_MS }));
}

export async function pull(repo: GitRepo): Promise<string> {
  return message(await mustGit(repo, ['pull', '--ff-only', '--no-recurse-submodules', '--upload-pack=git-upload-pack'], { timeoutMs: REMOTE_TIMEOUT_MS }));
}

export async function push(repo: GitRepo, upstream: string): Promise<string> {
  const args = ['push', '--receive-pack=git-receive-pack'];
  if (!upstream) {
    const branch = (await mustGit(repo, ['branch', '--show-current'])).stdout.trim();
    if (!branch) throw new GitError('Cannot push from a detached HEAD');
    const remotes = (await mustGit(repo, ['remote'])).stdout.split('\n');
    if (!remotes.includes('origin')) throw new GitError('No upstream branch or origin remote is configured', 'no_upstream');
    args.push('-u', 'origin', '--', branch);
  }
  return message(await mustGit(repo, args, { timeoutMs: REMOTE_TIMEOUT_MS }));
}

/** A branch name git accepts (`check-ref-format --branch`), never one that reads as an option. */
async function branchName(repo: GitRepo, name: string, what = 'Branch name'): Promise<string> {
  const n = name.trim();
  if (!n) throw new GitError(`${what} is required`, 'invalid_ref');
  if (n.startsWith('-') || (await runGit(repo, ['check-ref-format', '--branch', n])).code !== 0) throw new GitError('Invalid branch name', 'invalid_ref');
  return n;
}

async function refExists(repo: GitRepo, ref: string): Promise<boolean> {
  return (await runGit(repo, ['show-ref', '--verify', '--quiet', ref])).code === 0;
}

async function commitish(repo: GitRepo, ref: string): Promise<string> {
  const r = ref.trim() || 'HEAD';
  if (r.startsWith('-') || (await runGit(repo, ['rev-parse', '--verify', '--quiet', `${r}^{commit}`])).code !== 0) {
    throw new GitError('Invalid checkout reference', 'invalid_ref');
  }
  return r;
}

export type CheckoutMode = 'local' | 'new' | 'create' | 'remote' | 'detached' | 'detach';

/**
 * Switches branch (`local`), creates one (`new`/`create`, from `ref` when `new_branch` names it),
 * follows a remote branch (`remote`), or detaches at a commit. A dirty worktree blocks it.
 */
export async function checkout(
  repo: GitRepo,
  files: WorkspaceFiles,
  input: { ref: string; mode: CheckoutMode; newBranch?: string | null; track?: boolean },
): Promise<string> {
  const { ref, mode } = input;
  let args: string[];
  if (mode === 'local') {
    const name = await branchName(repo, ref);
    if (!(await refExists(repo, `refs/heads/${name}`))) throw new GitError(`No local branch named ${name}`, 'invalid_ref');
    args = ['switch', '--no-recurse-submodules', name];
  } else if (mode === 'new' || mode === 'create') {
    const name = await branchName(repo, input.newBranch || ref, 'New branch name');
    if (await refExists(repo, `refs/heads/${name}`)) throw new GitError('A local branch with that name already exists', 'invalid_ref');
    const start = await commitish(repo, input.newBranch && ref && ref !== input.newBranch ? ref : 'HEAD');
    args = ['switch', '--no-recurse-submodules', '-c', name, start];
  } else if (mode === 'remote') {
    const remote = ref.trim();
    if (!remote || remote.startsWith('-') || !(await refExists(repo, `refs/remotes/${remote}`))) throw new GitError('Unknown remote branch', 'invalid_ref');
    const name = await branchName(repo, input.newBranch || remote.split('/').slice(1).join('/'));
    args = (await refExists(repo, `refs/heads/${name}`))
      ? ['switch', '--no-recurse-submodules', name]
      : ['switch', '--no-recurse-submodules', '-c', name, ...(input.track ? ['--track'] : ['--no-track']), remote];
  } else {
    args = ['switch', '--no-recurse-submodules', '--detach', await commitish(repo, ref)];
  }
  const dirty = (await gitStatus(repo, files)).files.some((f) => !f.ignored);
  if (dirty) throw new GitError('Checkout blocked because the Git worktree has uncommitted changes', 'dirty_worktree');
  return message(await mustGit(repo, args));
}

export { gitBranches };
