import { createTwoFilesPatch } from 'diff';

export interface FileDiff {
  /** Unified diff text (`--- a/…`, `+++ b/…`, hunks); '' when the two sides are equal. */
  diff: string;
  additions: number;
  deletions: number;
  /** The text was cut at `maxChars` (the counts are still the whole diff's). */
  truncated: boolean;
}

/** The incumbent's cap on one diff sent to a browser (512 KB). */
export const MAX_DIFF_CHARS = 512 * 1024;

/**
 * The unified diff between two versions of one file, as git would print it: `null` for a side
 * that does not exist (created or deleted). `oldPath`/`newPath` are workspace-relative. Used for
 * a turn's changes, the approval card's preview and anywhere git is not there to ask.
 */
export function unifiedDiff(
  oldPath: string,
  newPath: string,
  before: string | null,
  after: string | null,
  options: { context?: number; maxChars?: number } = {},
): FileDiff {
  if (before === after) return { diff: '', additions: 0, deletions: 0, truncated: false };
  const from = before === null ? '/dev/null' : `a/${oldPath}`;
  const to = after === null ? '/dev/null' : `b/${newPath}`;
  const full = createTwoFilesPatch(from, to, before ?? '', after ?? '', undefined, undefined, { context: options.context ?? 3 });
  // jsdiff starts with an "Index:"-less "===" line in some versions; git's form starts at ---.
  const text = full.replace(/^={10,}\n/m, '');
  const { additions, deletions } = countLines(text);
  const max = options.maxChars ?? MAX_DIFF_CHARS;
  if (text.length <= max) return { diff: text, additions, deletions, truncated: false };
  return { diff: `${text.slice(0, max)}\n… [diff truncated]\n`, additions, deletions, truncated: true };
}

/** Added and removed lines of a unified diff (its `+`/`-` lines, not the `+++`/`---` headers). */
export function countLines(diff: string): { additions: number; deletions: number } {
  let additions = 0;
  let deletions = 0;
  let inHunk = false;
  for (const line of diff.split('\n')) {
    if (line.startsWith('@@')) inHunk = true;
    else if (!inHunk) continue;
    else if (line.startsWith('+')) additions++;
    else if (line.startsWith('-')) deletions++;
    else if (line.startsWith('diff ')) inHunk = false;
  }
  return { additions, deletions };
}
