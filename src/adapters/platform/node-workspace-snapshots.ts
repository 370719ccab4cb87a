import type { GitRunner } from '../../ports/git.js';
import type { WorkspaceChange, WorkspaceSnapshot, WorkspaceSnapshots } from '../../ports/workspace-snapshot.js';
import { FILES_SNAPSHOT_LIMITS, FilesSnapshot, FilesSnapshotter, type FilesSnapshotLimits } from './node-files-snapshot.js';
import { GitSnapshot, GitSnapshotter } from './node-git-snapshot.js';

/**
 * Snapshots of local workspaces: git's when the workspace is inside a repository and git is
 * there (exact, and cheap: the stat-cached scratch index), else the stat walk with its content
 * cache (src/adapters/platform/node-files-snapshot.ts).
 */
export class NodeWorkspaceSnapshots implements WorkspaceSnapshots {
  readonly #files: FilesSnapshotter;
  readonly #git: GitSnapshotter | null;

  constructor(options: { git?: GitRunner; scratchDir: string; limits?: Partial<FilesSnapshotLimits> }) {
    const limits = { ...FILES_SNAPSHOT_LIMITS, ...options.limits };
    this.#files = new FilesSnapshotter(limits);
    this.#git = options.git ? new GitSnapshotter(options.git, limits.maxFileBytes, options.scratchDir) : null;
  }

  async take(workspace: string, like?: WorkspaceSnapshot): Promise<WorkspaceSnapshot> {
    if (like instanceof FilesSnapshot) return this.#files.take(workspace);
    if (like instanceof GitSnapshot && this.#git) return this.#git.take(workspace, like.index);
    const index = this.#git ? await this.#git.repositoryIndex(workspace).catch(() => null) : null;
    if (this.#git && index) return this.#git.take(workspace, index);
    return this.#files.take(workspace);
  }

  async changes(before: WorkspaceSnapshot, after: WorkspaceSnapshot): Promise<WorkspaceChange[]> {
    if (before.workspace !== after.workspace) throw new Error('snapshots of two workspaces');
    if (before instanceof GitSnapshot && after instanceof GitSnapshot && this.#git) return this.#git.changes(before, after);
    if (before instanceof FilesSnapshot && after instanceof FilesSnapshot) return this.#files.changes(before, after);
    // The workspace became (or stopped being) a repository during the turn: nothing comparable.
    throw new Error('snapshots of two kinds');
  }
}
