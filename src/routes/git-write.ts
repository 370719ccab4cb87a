import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { GitError } from '../git/errors.js';
import type { GitRepo } from '../git/repo.js';
import { RepoLocks } from '../git/repo-lock.js';
import { gitStatus } from '../git/status.js';
import { checkout, commit, discard, fetchRemote, gitBranches, pull, push, stage, unstage } from '../git/write.js';
import { bodyFlag, jsonBody } from '../http/validate.js';
import type { Session } from '../shared/session.js';
import { PathsBody, mustRepo, sessionRepo, turnRunsIn } from './git-common.js';
import { SessionId } from './session-common.js';

const SessionBody = z.object({ session_id: SessionId });
const DiscardBody = PathsBody.and(z.object({ delete_untracked: bodyFlag.optional() }));
const CommitBody = z.object({ session_id: SessionId, message: z.string({ error: 'message is required' }).max(64 * 1024) });
const CheckoutBody = z.object({
  session_id: SessionId,
  ref: z.string({ error: 'ref is required' }).max(256),
  mode: z.enum(['local', 'new', 'create', 'remote', 'detached', 'detach'], { error: 'mode must be local, new, remote or detached' }),
  new_branch: z.string().max(256).nullable().optional(),
  track: bodyFlag.optional(),
  dirty_mode: z.literal('block', { error: 'Only dirty_mode=block is supported for branch checkout' }).optional(),
});

const DESTRUCTIVE_OFF = 'Destructive workspace Git operations are disabled. Set HERMES_WEBUI_WORKSPACE_GIT_DESTRUCTIVE=1 to enable them.';
const TURN_RUNNING = 'A session run is active. Wait for it to finish before running this Git operation.';

/**
 * Git operations that change the repository. Stage, unstage, discard, commit, pull, push and
 * checkout need HERMES_WEBUI_WORKSPACE_GIT_DESTRUCTIVE=1 (403 otherwise) and no turn running
 * in that repository (409 `active_stream`); fetch is allowed as the incumbent allows it. One
 * operation per repository at a time (409 `operation_in_progress`).
 */
export function gitWriteRoutes(deps: AppDeps) {
  const app = new Hono();
  const locks = new RepoLocks();

  /** The checks in the incumbent's order: the session (404), the flag (403), a running turn (409), the repository, the lock. */
  async function mutate<T>(sessionId: string, destructive: boolean, work: (repo: GitRepo, session: Session) => Promise<T>): Promise<T> {
    const { session, repo } = await sessionRepo(deps, sessionId);
    if (destructive && !deps.options.gitDestructive) throw new GitError(DESTRUCTIVE_OFF, 'destructive_git_disabled', 403);
    const r = mustRepo(repo);
    if (destructive && (await turnRunsIn(deps, session, r))) throw new GitError(TURN_RUNNING, 'active_stream', 409);
    return locks.run(r.root, () => work(r, session));
  }
  const status = (repo: GitRepo) => gitStatus(repo, deps.files);

  app.post('/api/git/stage', async (c) => {
    const b = await jsonBody(c, PathsBody);
    return c.json({ ok: true, git: await mutate(b.session_id, true, async (repo) => (await stage(repo, b.list), status(repo))) });
  });

  app.post('/api/git/unstage', async (c) => {
    const b = await jsonBody(c, PathsBody);
    return c.json({ ok: true, git: await mutate(b.session_id, true, async (repo) => (await unstage(repo, b.list), status(repo))) });
  });

  app.post('/api/git/discard', async (c) => {
    const b = await jsonBody(c, DiscardBody);
    const git = await mutate(b.session_id, true, async (repo) => (await discard(repo, deps.files, b.list, !!b.delete_untracked), status(repo)));
    return c.json({ ok: true, git });
  });

  app.post('/api/git/commit', async (c) => {
    const b = await jsonBody(c, CommitBody);
    return c.json(await mutate(b.session_id, true, async (repo) => ({ ok: true, commit: await commit(repo, b.message), status: await status(repo) })));
  });

  for (const [action, run, destructive] of [
    ['fetch', (repo: GitRepo) => fetchRemote(repo), false],
    ['pull', (repo: GitRepo) => pull(repo), true],
    ['push', async (repo: GitRepo) => push(repo, (await status(repo)).upstream), true],
  ] as const) {
    app.post(`/api/git/${action}`, async (c) => {
      const b = await jsonBody(c, SessionBody);
      return c.json(await mutate(b.session_id, destructive, async (repo) => ({ ok: true, message: await run(repo), status: await status(repo) })));
    });
  }

  app.post('/api/git/checkout', async (c) => {
    const b = await jsonBody(c, CheckoutBody);
    const result = await mutate(b.session_id, true, async (repo) => {
      const message = await checkout(repo, deps.files, { ref: b.ref, mode: b.mode, newBranch: b.new_branch ?? null, track: !!b.track });
      const [git, branches] = await Promise.all([status(repo), gitBranches(repo, deps.files)]);
      return { ok: true, git, branches, current_branch: branches.current, message };
    });
    return c.json(result);
  });

  return app;
}
