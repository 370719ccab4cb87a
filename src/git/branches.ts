import type { WorkspaceFiles } from '../ports/workspace-files.js';
import { type GitRepo, mustGit } from './repo.js';
import { gitStatus } from './status.js';

export interface GitBranch {
  name: string;
  sha: string;
  updated: number;
  updated_relative: string;
  author: string;
  subject: string;
  upstream: string;
  ahead: number;
  behind: number;
}

const FORMAT = [
  '%(refname)',
  '%(refname:short)',
  '%(upstream:short)',
  '%(objectname:short)',
  '%(committerdate:unix)',
  '%(committerdate:relative)',
  '%(authorname)',
  '%(upstream:track,nobracket)',
  '%(subject)',
].join('%00');

/** "ahead 2, behind 1" (for-each-ref's track) as numbers. */
function track(text: string): { ahead: number; behind: number } {
  return { ahead: Number(/ahead (\d+)/.exec(text)?.[1] ?? 0), behind: Number(/behind (\d+)/.exec(text)?.[1] ?? 0) };
}

async function refs(repo: GitRepo, prefix: 'refs/heads' | 'refs/remotes'): Promise<GitBranch[]> {
  const r = await mustGit(repo, ['for-each-ref', `--format=${FORMAT}`, prefix]);
  const out: GitBranch[] = [];
  for (const line of r.stdout.split('\n')) {
    if (!line) continue;
    const [full = '', name = '', upstream = '', sha = '', updated = '', relative = '', author = '', tracking = '', subject = ''] = line.split('\0');
    // `origin/HEAD` is an alias, and a bare remote name is not a branch.
    if (!name || full.endsWith('/HEAD') || (prefix === 'refs/remotes' && !name.includes('/'))) continue;
    out.push({
      name,
      sha,
      updated: /^\d+$/.test(updated) ? Number(updated) : 0,
      updated_relative: relative,
      author,
      subject,
      upstream,
      ...(upstream ? track(tracking) : { ahead: 0, behind: 0 }),
    });
  }
  return out.sort((a, b) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : 0));
}

/** Local and remote-tracking branches, the current one (or the short commit on a detached HEAD). */
export async function gitBranches(repo: GitRepo, files: WorkspaceFiles) {
  const [status, local, remote] = await Promise.all([gitStatus(repo, files), refs(repo, 'refs/heads'), refs(repo, 'refs/remotes')]);
  return {
    is_git: true as const,
    current: status.detached ? status.head || 'HEAD' : status.branch,
    detached: status.detached,
    head: status.head,
    local,
    remote,
    upstream: status.upstream,
    ahead: status.ahead,
    behind: status.behind,
  };
}
