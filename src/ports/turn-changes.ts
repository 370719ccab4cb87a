import type { FileChangeAction } from '../shared/file-changes.js';

/** One file of a turn's change record, with what its diff and undo need. */
export interface TurnChangeFile {
  path: string;
  action: FileChangeAction;
  from?: string;
  additions: number;
  deletions: number;
  /** Either side has a NUL byte or is not UTF-8: no line diff (0/0), still undoable. */
  binary: boolean;
  /** Known by stat only (past the size limits): no diff, and undo leaves it alone. */
  omitted?: boolean;
  /** The content before the turn, base64; null when the file did not exist (or `omitted`). */
  before: string | null;
  /** The content the turn left, base64; null when the file is gone (or `omitted`). */
  after: string | null;
}

/** Every file one turn changed in its workspace (src/runs/turn-changes.ts builds it). */
export interface TurnChangeRecord {
  session_id: string;
  stream_id: string;
  /** The workspace's canonical path at the time of the turn. */
  workspace: string;
  strategy: 'git' | 'files';
  /** Seconds since the epoch. */
  created_at: number;
  /** When POST /api/session/changes/undo restored the files; null until then. */
  undone_at: number | null;
  additions: number;
  deletions: number;
  files: TurnChangeFile[];
}

/**
 * The change records of turns, per session and stream: memory, the state dir
 * (`turn_changes/<sid>/<stream>.json`) or Postgres (`hermes_turn_changes`).
 */
export interface TurnChangeStore {
  /** Stores (or replaces) a record. */
  put(record: TurnChangeRecord): Promise<void>;
  get(sessionId: string, streamId: string): Promise<TurnChangeRecord | null>;
  /** Sets `undone_at` once: false when the record is unknown or already undone. */
  markUndone(sessionId: string, streamId: string, at: number): Promise<boolean>;
  /** Drops a session's records (the session was deleted). */
  deleteSession(sessionId: string): Promise<void>;
}

/** A stored record's shape (what an adapter reads back is checked with it). */
export function isTurnChangeRecord(value: unknown): value is TurnChangeRecord {
  const r = value as TurnChangeRecord;
  return (
    !!r &&
    typeof r === 'object' &&
    typeof r.session_id === 'string' &&
    typeof r.stream_id === 'string' &&
    typeof r.workspace === 'string' &&
    Array.isArray(r.files) &&
    (r.undone_at === null || typeof r.undone_at === 'number')
  );
}
