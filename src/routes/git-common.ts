import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { GitError, notARepo } from '../git/errors.js';
import { type GitRepo, openRepo } from '../git/repo.js';
import type { GitRunner } from '../ports/git.js';
import type { Session } from '../shared/session.js';
import { SessionId, requireSession } from './session-common.js';

export const SessionQuery = z.object({ session_id: SessionId });

/** `paths: [...]`, or one `path`, as the incumbent's panel sends them. */
export const PathsBody = z
  .object({
    session_id: SessionId,
    paths: z.union([z.array(z.string().max(4096)).max(1000), z.string().max(4096)]).optional(),
    path: z.string().max(4096).optional(),
  })
  .transform((b) => ({ ...b, list: b.paths === undefined ? (b.path ? [b.path] : []) : typeof b.paths === 'string' ? [b.paths] : b.paths }));

/** deps.git, or 501 where this deployment has no git (Workers) or the binary is missing. */
export async function requireGit(deps: AppDeps): Promise<GitRunner> {
  if (!deps.git) throw new GitError('Workspace Git is not available on this deployment (no git binary)', 'missing_git', 501);
  if (!(await deps.git.available())) throw new GitError('Git is not installed or not available on PATH', 'missing_git', 501);
  return deps.git;
}

export function workspaceOf(deps: AppDeps, session: Session): string {
  return session.workspace || deps.options.defaultWorkspace;
}

/** The session and the repository its workspace is in (null when it is in none). */
export async function sessionRepo(deps: AppDeps, sessionId: string): Promise<{ session: Session; repo: GitRepo | null }> {
  const git = await requireGit(deps);
  const session = await requireSession(deps, sessionId);
  return { session, repo: await openRepo(git, workspaceOf(deps, session)) };
}

export function mustRepo(repo: GitRepo | null): GitRepo {
  if (!repo) throw notARepo();
  return repo;
}

/**
 * True while a turn runs in this session or in any other session whose workspace is in the
 * same repository: an agent writing files there would race the git operation. The runs are
 * this instance's (its registry); a stale `active_stream_id` after a crash blocks nothing.
 */
export async function turnRunsIn(deps: AppDeps, session: Session, repo: GitRepo): Promise<boolean> {
  if (deps.agent.registry.activeFor(session.session_id)) return true;
  for (const run of deps.agent.registry.active) {
    const other = await deps.sessions.get(run.sessionId);
    if (!other) continue;
    const theirs = await openRepo(repo.git, workspaceOf(deps, other));
    if (theirs?.root === repo.root) return true;
  }
  return false;
}
