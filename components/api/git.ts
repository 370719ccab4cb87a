import { q, request } from './client.js';

/** One changed file of GET /api/git/status (the incumbent's fields; paths are workspace-relative). */
export interface GitFile {
  path: string;
  /** A rename's source, else null. */
  old_path: string | null;
  workspace_path?: string;
  /** `M`, `A`, `D`, `R`, `C`, `T`, `??` (untracked) or a conflict pair (`UU`, `AA`, `DU`, …). */
  status: string;
  staged: boolean;
  unstaged: boolean;
  untracked: boolean;
  ignored?: boolean;
  conflict: boolean;
  additions: number;
  deletions: number;
  binary: boolean;
}

export interface GitTotals {
  changed: number;
  staged: number;
  unstaged: number;
  untracked: number;
  conflicts: number;
}

/** GET /api/git/status `git`: `{is_git: false}` outside a repository. */
export interface GitStatus {
  is_git: boolean;
  branch?: string;
  upstream?: string | null;
  ahead?: number;
  behind?: number;
  totals?: GitTotals;
  files?: GitFile[];
  /** The list stopped at the server's file limit. */
  truncated?: boolean;
}

export interface GitBranch {
  name: string;
  sha: string;
  upstream: string;
  ahead: number;
  behind: number;
  subject?: string;
  updated_relative?: string;
}

/** GET /api/git/branches `branches`. */
export interface GitBranches {
  is_git: boolean;
  current: string;
  detached: boolean;
  head: string;
  local: GitBranch[];
  remote: GitBranch[];
  upstream: string;
  ahead: number;
  behind: number;
}

/** GET /api/git/diff `diff`: no text for a binary file; `too_large` cut at the server's cap. */
export interface GitDiff {
  path: string;
  kind: GitDiffKind;
  binary: boolean;
  too_large: boolean;
  additions: number;
  deletions: number;
  diff: string;
}

export type GitDiffKind = 'staged' | 'unstaged' | 'untracked';

/**
 * Why the server refused, from the `code` of its `{error, code}` answer: `destructive_git_disabled`
 * (403: HERMES_WEBUI_WORKSPACE_GIT_DESTRUCTIVE is not 1), `active_stream` (409: a turn runs),
 * `operation_in_progress` (409: another git write holds the repository), or git's own failure.
 */
export const GIT_REFUSALS = { readOnly: 'destructive_git_disabled', turnRunning: 'active_stream', busy: 'operation_in_progress' } as const;

type WithStatus = { ok: true; git: GitStatus };
type RemoteAnswer = { ok: true; message: string; status: GitStatus };

/** The workspace Git API (the incumbent's /api/git family), for the session's workspace. */
export const gitApi = {
  info: (sid: string) =>
    request<{ git: { branch: string; dirty: number; modified: number; untracked: number; ahead: number; behind: number; is_git: true } | null }>(
      'GET',
      `/api/git-info?${q({ session_id: sid })}`,
    ).then((r) => r.git),
  status: (sid: string) => request<{ git: GitStatus }>('GET', `/api/git/status?${q({ session_id: sid })}`).then((r) => r.git),
  branches: (sid: string) => request<{ branches: GitBranches }>('GET', `/api/git/branches?${q({ session_id: sid })}`).then((r) => r.branches),
  diff: (sid: string, path: string, kind: GitDiffKind) =>
    request<{ diff: GitDiff }>('GET', `/api/git/diff?${q({ session_id: sid, path, kind })}`).then((r) => r.diff),
  stage: (sid: string, paths: string[]) => request<WithStatus>('POST', '/api/git/stage', { session_id: sid, paths }).then((r) => r.git),
  unstage: (sid: string, paths: string[]) => request<WithStatus>('POST', '/api/git/unstage', { session_id: sid, paths }).then((r) => r.git),
  /** Restores the files from the index; `deleteUntracked` also removes untracked ones. */
  discard: (sid: string, paths: string[], deleteUntracked = false) =>
    request<WithStatus>('POST', '/api/git/discard', { session_id: sid, paths, ...(deleteUntracked ? { delete_untracked: true } : {}) }).then((r) => r.git),
  /** Commits what is staged. */
  commit: (sid: string, message: string) => request<{ ok: true; commit: string; status: GitStatus }>('POST', '/api/git/commit', { session_id: sid, message }),
  /** Asks the model for a message from the staged diff. */
  commitMessage: (sid: string) => request<{ ok: true; message: string; truncated: boolean }>('POST', '/api/git/commit-message', { session_id: sid }),
  fetch: (sid: string) => request<RemoteAnswer>('POST', '/api/git/fetch', { session_id: sid }),
  pull: (sid: string) => request<RemoteAnswer>('POST', '/api/git/pull', { session_id: sid }),
  push: (sid: string) => request<RemoteAnswer>('POST', '/api/git/push', { session_id: sid }),
  /** Switches to a local branch (`mode: local`) or a remote one as a new tracking branch. */
  checkout: (sid: string, ref: string, mode: 'local' | 'remote' = 'local') =>
    request<{ ok: true; git: GitStatus; branches: GitBranches; current_branch: string; message: string }>('POST', '/api/git/checkout', {
      session_id: sid,
      ref,
      mode,
    }),
};
