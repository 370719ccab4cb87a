import { createHash } from 'node:crypto';
import { copyFile, mkdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { GitRunner } from '../../ports/git.js';
import type { WorkspaceChange, WorkspaceSnapshot } from '../../ports/workspace-snapshot.js';
import type { FileChangeAction } from '../../shared/file-changes.js';

const TIMEOUT_MS = 30_000;
const EMPTY = '0'.repeat(40);
/** What one change record reads of git's objects at most (the rest: recorded without content). */
const MAX_BATCH_BYTES = 64 * 1024 * 1024;
/**
 * Heavy folders a .gitignore often forgets (each pathspec costs a match per file, so only these:
 * the Python tools' caches carry their own `*` .gitignore, .git is never added).
 */
const EXCLUDES = ['node_modules', '.venv', 'venv', '__pycache__', '.tox', '.next'].map((d) => `:(exclude,glob)**/${d}/**`);

export class GitSnapshot implements WorkspaceSnapshot {
  readonly strategy = 'git' as const;
  constructor(
    readonly workspace: string,
    /** The tree of the whole working tree (tracked and untracked-not-ignored files). */
    readonly tree: string,
    /** The repository's own index (the scratch index starts as a copy of it). */
    readonly index: string,
  ) {}
}

/**
 * A workspace inside a git repository: the working tree written as a tree object through a
 * scratch index (GIT_INDEX_FILE), so the user's index and files are never touched. The scratch
 * index starts as a copy of the user's and is kept per workspace, so `git add -A` re-hashes
 * only files whose stat changed. New blobs are loose objects that `git gc` prunes in time.
 */
export class GitSnapshotter {
  readonly #queues = new Map<string, Promise<unknown>>();
  constructor(
    private readonly git: GitRunner,
    private readonly maxFileBytes: number,
    private readonly scratchDir = join(tmpdir(), 'hermes-webui-snapshots'),
  ) {}

  /** The repository's index path when `workspace` is inside a work tree; null otherwise. */
  async repositoryIndex(workspace: string): Promise<string | null> {
    const r = await this.git.run({ args: ['rev-parse', '--is-inside-work-tree', '--git-path', 'index'], cwd: workspace, timeoutMs: 5000 });
    const [inside, index] = r.stdout.split('\n');
    if (r.code !== 0 || inside !== 'true' || !index) return null;
    return isAbsolute(index) ? index : join(workspace, index);
  }

  /** One snapshot at a time per workspace: they share its scratch index. */
  take(workspace: string, index: string): Promise<GitSnapshot> {
    const prev = this.#queues.get(workspace) ?? Promise.resolve();
    const next = prev.catch(() => {}).then(() => this.#take(workspace, index));
    this.#queues.set(workspace, next);
    return next;
  }

  async #take(workspace: string, index: string): Promise<GitSnapshot> {
    await mkdir(this.scratchDir, { recursive: true, mode: 0o700 });
    const scratch = join(this.scratchDir, `${createHash('sha1').update(workspace).digest('hex')}.index`);
    if (!(await stat(scratch).catch(() => null))) await copyFile(index, scratch).catch(() => {});
    const env = { GIT_INDEX_FILE: scratch };
    // Only the workspace's part of the repository (`-- .`): a workspace may be one folder of a big
    // one. Heavy folders are left out even where .gitignore forgets them (as the files strategy does).
    const add = await this.git.run({ args: ['add', '-A', '--ignore-errors', '--', '.', ...EXCLUDES], cwd: workspace, timeoutMs: TIMEOUT_MS, env });
    if (add.code !== 0 && add.code !== 1) throw new Error(`git add failed: ${add.stderr.trim() || add.code}`);
    const tree = await this.git.run({ args: ['write-tree'], cwd: workspace, timeoutMs: TIMEOUT_MS, env });
    const id = tree.stdout.trim();
    if (tree.code !== 0 || !/^[0-9a-f]{40,64}$/.test(id)) throw new Error(`git write-tree failed: ${tree.stderr.trim() || tree.code}`);
    return new GitSnapshot(workspace, id, index);
  }

  async changes(before: GitSnapshot, after: GitSnapshot): Promise<WorkspaceChange[]> {
    if (before.tree === after.tree) return [];
    const cwd = after.workspace;
    // --relative: paths relative to the workspace, and nothing outside it.
    const diff = await this.git.run({ args: ['diff-tree', '-r', '-M', '--relative', '--raw', '-z', before.tree, after.tree], cwd, timeoutMs: TIMEOUT_MS });
    if (diff.code !== 0) throw new Error(`git diff-tree failed: ${diff.stderr.trim() || diff.code}`);
    const raw = parseRaw(diff.stdout);
    const oids = [...new Set(raw.flatMap((r) => [r.oldOid, r.newOid]).filter((o) => o !== EMPTY))];
    const blobs = await this.#blobs(cwd, oids);
    return raw.map((r) => {
      const change = { path: r.path, action: r.action, ...(r.from ? { from: r.from } : {}) };
      // Symlinks and submodules are not files an undo can write back.
      const plain = (m: string) => m === '000000' || m.startsWith('100');
      const b = r.oldOid === EMPTY ? null : blobs.get(r.oldOid);
      const a = r.newOid === EMPTY ? null : blobs.get(r.newOid);
      if (!plain(r.oldMode) || !plain(r.newMode) || b === undefined || a === undefined) return { ...change, before: null, after: null, omitted: true };
      return { ...change, before: b, after: a };
    });
  }

  /**
   * The contents of blobs up to maxFileBytes, in one `cat-file --batch` (one process: on a busy
   * machine a spawn costs more than the bytes). Larger blobs, and any past the output cap, are left out.
   */
  async #blobs(cwd: string, oids: string[]): Promise<Map<string, Uint8Array>> {
    const out = new Map<string, Uint8Array>();
    if (!oids.length) return out;
    const batch = await this.git.run({
      args: ['cat-file', '--batch'],
      cwd,
      timeoutMs: TIMEOUT_MS,
      input: `${oids.join('\n')}\n`,
      bytes: true,
      maxOutputBytes: MAX_BATCH_BYTES,
    });
    const bytes = batch.bytes ?? new Uint8Array();
    let at = 0;
    while (at < bytes.length) {
      const nl = bytes.indexOf(10, at);
      if (nl < 0) break;
      const [oid, type, size] = new TextDecoder().decode(bytes.subarray(at, nl)).split(' ');
      const n = Number(size);
      if (type !== 'blob' || !Number.isFinite(n) || nl + 1 + n > bytes.length) break;
      if (n <= this.maxFileBytes) out.set(oid!, bytes.slice(nl + 1, nl + 1 + n));
      at = nl + 1 + n + 1;
    }
    return out;
  }
}

interface RawEntry {
  oldMode: string;
  newMode: string;
  oldOid: string;
  newOid: string;
  action: FileChangeAction;
  path: string;
  from?: string;
}

/** `git diff-tree --raw -z`: `:old new oldoid newoid status\0path\0` (`\0src\0dst\0` for a rename or copy). */
function parseRaw(text: string): RawEntry[] {
  const parts = text.split('\0');
  const out: RawEntry[] = [];
  for (let i = 0; i < parts.length; ) {
    const head = parts[i++]!;
    if (!head.startsWith(':')) continue;
    const [oldMode, newMode, oldOid, newOid, status] = head.slice(1).split(' ') as [string, string, string, string, string];
    const letter = status[0];
    if (letter === 'R' || letter === 'C') {
      const from = parts[i++]!;
      const path = parts[i++]!;
      if (letter === 'R') out.push({ oldMode, newMode, oldOid, newOid, action: 'moved', path, from });
      else out.push({ oldMode: '000000', newMode, oldOid: EMPTY, newOid, action: 'created', path });
    } else {
      const path = parts[i++]!;
      const action: FileChangeAction = letter === 'A' ? 'created' : letter === 'D' ? 'deleted' : 'modified';
      out.push({ oldMode, newMode, oldOid, newOid, action, path });
    }
  }
  return out;
}
