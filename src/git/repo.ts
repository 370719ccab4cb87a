import type { GitResult, GitRunner } from '../ports/git.js';
import { GitError, classifyGitError } from './errors.js';

/** The incumbent's timeouts: local commands 5 s, fetch/pull/push 60 s; a commit (its hooks) 10 s. */
export const LOCAL_TIMEOUT_MS = 5_000;
export const REMOTE_TIMEOUT_MS = 60_000;
export const COMMIT_TIMEOUT_MS = 10_000;

/**
 * Config on every workspace command beyond the runner's own: no `ext::` transport, no
 * repository-chosen proxy or submodule recursion (a workspace's .git/config is not trusted).
 */
const HARDENING = ['-c', 'protocol.ext.allow=never', '-c', 'core.gitProxy=', '-c', 'submodule.recurse=false', '-c', 'fetch.recurseSubmodules=false'];

/** A session's workspace inside a repository: where git runs, and the workspace's place in it. */
export interface GitRepo {
  git: GitRunner;
  /** The session's workspace (absolute). Paths in requests and answers are relative to it. */
  workspace: string;
  /** The repository's top level, as git reports it. */
  root: string;
  /** The workspace relative to `root` with a trailing slash (`sub/dir/`), or '' at the top. */
  prefix: string;
}

export interface RunOptions {
  timeoutMs?: number;
  input?: string;
  env?: Record<string, string>;
  maxOutputBytes?: number;
}

/** Runs a git command in the repository's root; pathspecs are literal (no `:(magic)`, no globs). */
export function runGit(repo: GitRepo, args: string[], options: RunOptions = {}): Promise<GitResult> {
  return repo.git.run({
    args: [...HARDENING, '--literal-pathspecs', ...args],
    cwd: repo.root,
    timeoutMs: options.timeoutMs ?? LOCAL_TIMEOUT_MS,
    ...(options.input !== undefined ? { input: options.input } : {}),
    ...(options.env ? { env: options.env } : {}),
    ...(options.maxOutputBytes ? { maxOutputBytes: options.maxOutputBytes } : {}),
  });
}

/** As runGit, but a failure (non-zero exit, timeout) is a GitError with the incumbent's code. */
export async function mustGit(repo: GitRepo, args: string[], options: RunOptions = {}): Promise<GitResult> {
  const r = await runGit(repo, args, options);
  if (r.timedOut) throw new GitError('Git command timed out', 'timeout');
  if (r.code !== 0) {
    const message = (r.stderr || r.stdout || 'Git command failed').trim().slice(0, 2000);
    throw new GitError(message, classifyGitError(message, args[0] ?? ''));
  }
  return r;
}

/**
 * The repository holding `workspace`, or null when it is not inside one (or git is missing
 * there). `--show-prefix` places the workspace without comparing paths that symlinks could skew.
 */
export async function openRepo(git: GitRunner, workspace: string): Promise<GitRepo | null> {
  const r = await git.run({ args: ['rev-parse', '--show-toplevel', '--show-prefix'], cwd: workspace, timeoutMs: LOCAL_TIMEOUT_MS });
  if (r.code !== 0) return null;
  const [root, prefix = ''] = r.stdout.split('\n');
  if (!root) return null;
  return { git, workspace, root, prefix };
}

/**
 * A request's workspace-relative path, checked lexically: not empty, not absolute, no `..`,
 * no NUL; `.` segments and doubled slashes dropped. Returned relative to the repository's root.
 * Links out of the workspace are git's to refuse ("beyond a symbolic link"), and file contents
 * are read through the workspace files port, which refuses them too.
 */
export function repoPath(repo: GitRepo, path: string): string {
  if (typeof path !== 'string' || !path.trim()) throw new GitError('path is required');
  if (path.includes('\0')) throw new GitError('Invalid path', 'path_outside_workspace');
  if (path.startsWith('/') || path.startsWith('\\') || /^[A-Za-z]:/.test(path)) {
    throw new GitError('Path must be relative to the workspace', 'path_outside_workspace');
  }
  const parts = path.split(/[/\\]+/).filter((p) => p && p !== '.');
  if (parts.includes('..')) throw new GitError('Path is outside the workspace', 'path_outside_workspace');
  if (!parts.length) return repo.prefix ? repo.prefix.replace(/\/$/, '') : '.';
  return repo.prefix + parts.join('/');
}

/** A repository-relative path as the workspace sees it, or null when it lies outside the workspace. */
export function workspacePath(repo: GitRepo, path: string): string | null {
  if (!repo.prefix) return path;
  return path.startsWith(repo.prefix) ? path.slice(repo.prefix.length) : null;
}

/** The pathspec that limits a command to the workspace. */
export function workspaceSpec(repo: GitRepo): string {
  return repo.prefix ? repo.prefix.replace(/\/$/, '') : '.';
}
