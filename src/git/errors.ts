import { AppError } from '../ports/errors.js';

/** The incumbent's error answer: `{"error": message, "code": ...}`; 400 unless the case has its own status. */
export class GitError extends AppError {
  constructor(
    message: string,
    readonly code = 'git_failed',
    status: 400 | 403 | 409 | 501 = 400,
  ) {
    super(status, message, { code });
  }
}

/** Sorts git's complaint into the incumbent's codes, so the panel can say what to do. */
export function classifyGitError(message: string, command: string): string {
  const text = message.toLowerCase();
  if (text.includes('timed out')) return 'timeout';
  if (text.includes('not a git repository')) return 'not_a_repo';
  if (text.includes('beyond a symbolic link') || text.includes('outside repository')) return 'path_outside_workspace';
  if (/authentication failed|permission denied|could not read username/.test(text)) return 'auth_failed';
  if (/no upstream|no configured push destination|has no upstream branch|no tracking information/.test(text)) return 'no_upstream';
  if (text.includes('non-fast-forward') || text.includes('fetch first') || (text.includes('rejected') && command === 'push')) return 'non_fast_forward';
  if (text.includes('not possible to fast-forward') || text.includes('diverging branches')) return 'non_fast_forward';
  if (text.includes('conflict') || text.includes('unmerged')) return 'conflict';
  if (text.includes('local changes') || text.includes('would be overwritten')) return 'dirty_worktree';
  if (/invalid reference|not a valid|unknown revision/.test(text)) return 'invalid_ref';
  if (text.includes('hook')) return 'hook_failed';
  return 'git_failed';
}

export const notARepo = () => new GitError('Workspace is not a Git repository', 'not_a_repo');
