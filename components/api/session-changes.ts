import type { FileChange, FileChangeAction } from '../../src/shared/file-changes.js';
import { q, request } from './client.js';

/** One file of a turn's change record with its diff (GET /api/session/changes). */
export interface SessionChangeFile {
  path: string;
  action: FileChangeAction;
  from?: string;
  additions: number;
  deletions: number;
  /** Unified diff text; empty for a binary file. */
  diff: string;
  truncated: boolean;
  binary: boolean;
}

/** GET /api/session/changes: what one turn changed, per file, and whether it was undone. */
export interface SessionChanges {
  session_id: string;
  stream_id: string;
  file_changes: FileChange[];
  additions: number;
  deletions: number;
  undone: boolean;
  files: SessionChangeFile[];
}

/** POST /api/session/changes/undo's answer; a 409 carries `conflicts` (ApiError.body) when files changed since. */
export interface UndoChangesResult {
  ok: true;
  session_id: string;
  stream_id: string;
  restored: string[];
}

/** The turn change record and its undo (the "Changed N files" row under an answer). */
export const sessionChanges = {
  get: (sid: string, streamId: string) => request<SessionChanges>('GET', `/api/session/changes?${q({ session_id: sid, stream_id: streamId })}`),
  undo: (sid: string, streamId: string) => request<UndoChangesResult>('POST', '/api/session/changes/undo', { session_id: sid, stream_id: streamId }),
};
