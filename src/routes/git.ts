import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { gitBranches } from '../git/branches.js';
import { cleanCommitMessage, commitMessagePrompt } from '../git/commit-message.js';
import { checkDiffKind, gitDiff } from '../git/diff.js';
import { GitError } from '../git/errors.js';
import { gitStatus } from '../git/status.js';
import { sessionHome } from '../http/request-home.js';
import { jsonBody, queryParams } from '../http/validate.js';
import { NotAvailable } from '../ports/errors.js';
import { NO_ONE_SHOT } from '../agent/switching-runtime.js';
import { SessionQuery, mustRepo, sessionRepo } from './git-common.js';
import { SessionId } from './session-common.js';

const DiffQuery = z.object({
  session_id: SessionId,
  path: z.string({ error: 'path required' }).min(1, 'path required').max(4096),
  kind: z.string().max(20).optional(),
});
const SessionBody = z.object({ session_id: SessionId });

/** A suggestion is a subject and a few bullets; the model's call is bounded too. */
const COMMIT_MESSAGE_TOKENS = 400;
const COMMIT_MESSAGE_TIMEOUT_MS = 60_000;

/** The git panel's reads (status, branches, diffs) and the commit-message suggestion: allowed without the destructive flag. */
export function gitRoutes(deps: AppDeps) {
  const app = new Hono();

  app.get('/api/git-info', async (c) => {
    const { repo } = await sessionRepo(deps, queryParams(c, SessionQuery).session_id);
    if (!repo) return c.json({ git: null });
    const s = await gitStatus(repo, deps.files);
    return c.json({
      git: {
        branch: s.branch,
        dirty: s.totals.changed,
        modified: s.totals.staged + s.totals.unstaged,
        untracked: s.totals.untracked,
        ahead: s.ahead,
        behind: s.behind,
        is_git: true,
      },
    });
  });

  app.get('/api/git/status', async (c) => {
    const { repo } = await sessionRepo(deps, queryParams(c, SessionQuery).session_id);
    return c.json({ git: repo ? await gitStatus(repo, deps.files) : { is_git: false } });
  });

  app.get('/api/git/branches', async (c) => {
    const { repo } = await sessionRepo(deps, queryParams(c, SessionQuery).session_id);
    return c.json({ branches: await gitBranches(mustRepo(repo), deps.files) });
  });

  app.get('/api/git/diff', async (c) => {
    const q = queryParams(c, DiffQuery);
    const kind = checkDiffKind(q.kind ?? 'unstaged');
    const { repo } = await sessionRepo(deps, q.session_id);
    return c.json({ diff: await gitDiff(mustRepo(repo), deps.files, q.path, kind) });
  });

  app.post('/api/git/commit-message', async (c) => {
    const b = await jsonBody(c, SessionBody);
    const { session, repo } = await sessionRepo(deps, b.session_id);
    const runtime = deps.agent.runtime;
    if (!runtime.oneShot || !(await (runtime.canOneShot?.() ?? true))) throw new NotAvailable(NO_ONE_SHOT);
    const prompt = await commitMessagePrompt(mustRepo(repo), deps.files);
    const answer = await runtime.oneShot({
      session,
      system: prompt.system,
      user: prompt.user,
      maxTokens: COMMIT_MESSAGE_TOKENS,
      signal: AbortSignal.any([c.req.raw.signal, AbortSignal.timeout(COMMIT_MESSAGE_TIMEOUT_MS)]),
      home: await sessionHome(deps, session),
    });
    const message = cleanCommitMessage(answer);
    if (!message) throw new GitError('No commit message was generated');
    return c.json({ ok: true, message, truncated: prompt.truncated });
  });

  return app;
}
