import { z } from 'zod';

/**
 * One file a turn changed (ours; the incumbent records none): on the turn's final assistant
 * message as `file_changes`, in the `turn_changes` run event, and in GET /api/session/changes.
 * `path` is relative to the session's workspace, `/`-separated; `from` is the old path of a move.
 * `additions`/`deletions` count lines (0 and 0 for a binary file).
 */
export const FileChangeSchema = z.strictObject({
  path: z.string(),
  action: z.enum(['created', 'modified', 'deleted', 'moved']),
  from: z.string().optional(),
  additions: z.number().int().nonnegative(),
  deletions: z.number().int().nonnegative(),
});

export type FileChange = z.infer<typeof FileChangeSchema>;
export type FileChangeAction = FileChange['action'];

/** The key on the turn's final assistant message that names the turn's run (for GET /api/session/changes). */
export const TURN_STREAM_KEY = '_stream_id';
