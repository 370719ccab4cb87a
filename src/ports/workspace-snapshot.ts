import type { FileChangeAction } from '../shared/file-changes.js';

/**
 * The state of a workspace's files at one moment, opaque to the core: a git tree id in a
 * repository, the files' stats and content hashes elsewhere. Only the adapter that took it reads it.
 */
export interface WorkspaceSnapshot {
  readonly workspace: string;
  readonly strategy: 'git' | 'files';
}

/** One file that differs between two snapshots, with both sides' contents (for diffs and undo). */
export interface WorkspaceChange {
  /** Workspace-relative, `/`-separated. */
  path: string;
  action: FileChangeAction;
  /** The old path of a move. */
  from?: string;
  /** The content before (null: the file did not exist), unless `omitted`. */
  before: Uint8Array | null;
  /** The content after (null: the file is gone), unless `omitted`. */
  after: Uint8Array | null;
  /** A side was past the size limits: the change is known (by stat) but has no diff and cannot be undone. */
  omitted?: boolean;
}

/**
 * Before/after snapshots of a workspace, so a turn's file changes are known however they were
 * made (file tools, terminal commands). Node: git's object store in a repository (a scratch
 * index, never the user's), a stat walk with a content cache elsewhere. Absent (Workers): no
 * turn records changes.
 */
export interface WorkspaceSnapshots {
  /**
   * Throws when the workspace cannot be snapshotted (gone, too many files): the turn then records
   * nothing. `like`: the turn's before snapshot, so the after one is of the same kind (and need
   * not ask again whether the workspace is a repository).
   */
  take(workspace: string, like?: WorkspaceSnapshot): Promise<WorkspaceSnapshot>;
  /** What changed from `before` to `after` (both of one workspace), in path order. */
  changes(before: WorkspaceSnapshot, after: WorkspaceSnapshot): Promise<WorkspaceChange[]>;
}
