import type { WorkspaceFiles } from '../ports/workspace-files.js';
import { GitError } from './errors.js';
import { type GitRepo, mustGit, workspaceSpec } from './repo.js';
import { gitStatus } from './status.js';

/** The staged diff sent to the model is cut here (the incumbent's 64 KB). */
export const COMMIT_MESSAGE_DIFF_LIMIT = 64 * 1024;

/** Marks the request, so scripted test servers can recognise it. */
export const COMMIT_MESSAGE_INSTRUCTIONS = `Write a git commit message for the staged diff you are given.
- Describe the actual result or the bug fixed; no vague subjects ("update", "misc changes", "fix stuff").
- A short subject line (at most 72 characters); for a large change, a blank line and 2-5 short bullets.
- Never mention AI or tooling. Add no questions or remarks of your own.
Reply with the commit message only, without Markdown fences.`;

/** The prompt for a commit message from what is staged; a 400 when nothing is. */
export async function commitMessagePrompt(repo: GitRepo, files: WorkspaceFiles): Promise<{ system: string; user: string; truncated: boolean }> {
  const status = await gitStatus(repo, files);
  const staged = status.files.filter((f) => f.staged);
  if (!staged.length) throw new GitError('Stage changes before generating a commit message');
  const r = await mustGit(repo, ['diff', '--cached', '--no-ext-diff', '--no-textconv', '--unified=3', '--', workspaceSpec(repo)], {
    maxOutputBytes: COMMIT_MESSAGE_DIFF_LIMIT,
  });
  if (!r.stdout.trim()) throw new GitError('No staged diff is available');
  const listed = staged.slice(0, 80).map((f) => `- ${f.status} ${f.path} (${f.binary ? 'binary' : `+${f.additions} -${f.deletions}`})`);
  if (staged.length > 80) listed.push(`- ... ${staged.length - 80} more staged file(s)`);
  const user = [
    `Branch: ${status.branch}`,
    `Staged files (${staged.length}):`,
    ...listed,
    ...(r.truncated ? ['', 'The diff was cut for size; summarise only what is shown.'] : []),
    '',
    'Staged diff:',
    '```diff',
    r.stdout,
    '```',
  ].join('\n');
  return { system: COMMIT_MESSAGE_INSTRUCTIONS, user, truncated: r.truncated };
}

/** The model's answer without fences, quotes or a thinking block. */
export function cleanCommitMessage(text: string): string {
  let t = text.replace(/<think>[\s\S]*?<\/think>/g, '').trim();
  const fenced = /^```[^\n]*\n([\s\S]*?)\n?```$/.exec(t);
  if (fenced) t = fenced[1]!.trim();
  if (t.length > 1 && ((t.startsWith('"') && t.endsWith('"')) || (t.startsWith("'") && t.endsWith("'")))) t = t.slice(1, -1).trim();
  return t;
}
