import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, type Dirent, type Stats } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { WorkspaceChange, WorkspaceSnapshot } from '../../ports/workspace-snapshot.js';

/** Folders a turn's record never looks into: tool caches and installs, not the user's work. */
export const SNAPSHOT_SKIP_DIRS: ReadonlySet<string> = new Set([
  '.git',
  '.hg',
  '.svn',
  'node_modules',
  '.venv',
  'venv',
  '__pycache__',
  '.mypy_cache',
  '.pytest_cache',
  '.ruff_cache',
  '.tox',
  '.cache',
  '.next',
  '.turbo',
]);

export interface FilesSnapshotLimits {
  /** More files than this: no snapshot (the turn records nothing). */
  maxFiles: number;
  /** Larger files are compared by stat only (no diff, no undo). */
  maxFileBytes: number;
  /** Contents kept per workspace; past it, files are hashed but not kept (no diff, no undo). */
  maxCacheBytes: number;
}

export const FILES_SNAPSHOT_LIMITS: FilesSnapshotLimits = { maxFiles: 20_000, maxFileBytes: 2 * 1024 * 1024, maxCacheBytes: 64 * 1024 * 1024 };

interface Entry {
  size: number;
  mtimeMs: number;
  ino: number;
  /** sha1 of the content; null past maxFileBytes (compared by stat). */
  hash: string | null;
  /** The content, while the workspace's cache has room. */
  bytes: Uint8Array | null;
}

export class FilesSnapshot implements WorkspaceSnapshot {
  readonly strategy = 'files' as const;
  constructor(
    readonly workspace: string,
    readonly entries: ReadonlyMap<string, Entry>,
  ) {}
}

/**
 * A workspace that is not a git repository: every file's stat, and its content and hash kept
 * in memory, so the next snapshot re-reads only files whose stat changed (the "before" of a
 * turn is then only stats: the last turn's "after" is the cache).
 */
export class FilesSnapshotter {
  readonly #last = new Map<string, ReadonlyMap<string, Entry>>();
  constructor(private readonly limits: FilesSnapshotLimits = FILES_SNAPSHOT_LIMITS) {}

  async take(workspace: string): Promise<FilesSnapshot> {
    const paths = await this.#walk(workspace);
    const cached = this.#last.get(workspace);
    const entries = new Map<string, Entry>();
    let kept = 0;
    const stats = await statAll(workspace, paths);
    const reads: Promise<void>[] = [];
    for (let i = 0; i < paths.length; i++) {
      const st = stats[i];
      const path = paths[i]!;
      if (!st?.isFile()) continue;
      const old = cached?.get(path);
      if (old && old.size === st.size && old.mtimeMs === st.mtimeMs && old.ino === st.ino && (old.bytes || old.hash === null)) {
        if (old.bytes) kept += old.size;
        entries.set(path, old);
        continue;
      }
      const entry: Entry = { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino, hash: null, bytes: null };
      entries.set(path, entry);
      if (st.size > this.limits.maxFileBytes) continue;
      const keep = kept + st.size <= this.limits.maxCacheBytes;
      if (keep) kept += st.size;
      reads.push(
        readFile(join(workspace, path)).then(
          (buf) => {
            entry.hash = createHash('sha1').update(buf).digest('hex');
            if (keep) entry.bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
          },
          () => {
            // Gone (or unreadable) since the walk: as if it were not there.
            entries.delete(path);
          },
        ),
      );
    }
    await Promise.all(reads);
    // The most recently used workspaces keep their cache (each up to maxCacheBytes).
    this.#last.delete(workspace);
    this.#last.set(workspace, entries);
    if (this.#last.size > CACHED_WORKSPACES) this.#last.delete(this.#last.keys().next().value!);
    return new FilesSnapshot(workspace, entries);
  }

  changes(before: FilesSnapshot, after: FilesSnapshot): WorkspaceChange[] {
    const created: string[] = [];
    const deleted: string[] = [];
    const out: WorkspaceChange[] = [];
    for (const [path, a] of after.entries) {
      const b = before.entries.get(path);
      if (!b) created.push(path);
      else if (differs(b, a)) out.push(side(path, 'modified', b, a));
    }
    for (const path of before.entries.keys()) if (!after.entries.has(path)) deleted.push(path);
    // A move is a file gone and a file come with the same content.
    const goneByHash = new Map<string, string[]>();
    for (const path of deleted) {
      const h = before.entries.get(path)!.hash;
      if (h) goneByHash.set(h, [...(goneByHash.get(h) ?? []), path]);
    }
    const movedFrom = new Set<string>();
    for (const path of created) {
      const a = after.entries.get(path)!;
      const from = a.hash ? goneByHash.get(a.hash)?.shift() : undefined;
      if (from) {
        movedFrom.add(from);
        out.push({ ...side(path, 'moved', before.entries.get(from)!, a), from });
      } else out.push(side(path, 'created', null, a));
    }
    for (const path of deleted) if (!movedFrom.has(path)) out.push(side(path, 'deleted', before.entries.get(path)!, null));
    return out.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
  }

  /** Workspace-relative paths of the regular files, skipping SNAPSHOT_SKIP_DIRS (in slices, as statAll). */
  async #walk(root: string): Promise<string[]> {
    const out: string[] = [];
    const dirs = [''];
    let slice = performance.now();
    while (dirs.length) {
      const dir = dirs.pop()!;
      let listed: Dirent[] = [];
      try {
        listed = readdirSync(dir ? join(root, dir) : root, { withFileTypes: true });
      } catch {
        // Gone or unreadable meanwhile: as if empty.
      }
      for (const e of listed) {
        const rel = dir ? `${dir}/${e.name}` : e.name;
        // Symlinks are left out: an undo never writes through one.
        if (e.isDirectory()) {
          if (!SNAPSHOT_SKIP_DIRS.has(e.name)) dirs.push(rel);
        } else if (e.isFile()) {
          out.push(rel);
          if (out.length > this.limits.maxFiles) throw new Error(`more than ${this.limits.maxFiles} files in the workspace`);
        }
      }
      if (performance.now() - slice > SLICE_MS) {
        await yieldToLoop();
        slice = performance.now();
      }
    }
    return out;
  }
}

/** Workspaces whose last snapshot stays in memory (the others start cold: their next before reads every file). */
const CACHED_WORKSPACES = 8;
/** How long one synchronous slice of stats may hold the event loop before it lets others run. */
const SLICE_MS = 8;
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * lstat of each path (null: gone). Synchronous calls in time slices: on a busy machine they
 * are about three times faster than 5,000 promises through the thread pool, and a slice
 * never holds tokens back for long.
 */
async function statAll(root: string, paths: string[]): Promise<(Stats | null)[]> {
  const out: (Stats | null)[] = new Array(paths.length);
  let slice = performance.now();
  for (let i = 0; i < paths.length; i++) {
    try {
      out[i] = lstatSync(join(root, paths[i]!));
    } catch {
      out[i] = null;
    }
    if ((i & 63) === 63 && performance.now() - slice > SLICE_MS) {
      await yieldToLoop();
      slice = performance.now();
    }
  }
  return out;
}

function differs(b: Entry, a: Entry): boolean {
  if (b === a) return false;
  if (b.hash && a.hash) return b.hash !== a.hash;
  return b.size !== a.size || b.mtimeMs !== a.mtimeMs || b.ino !== a.ino;
}

function side(path: string, action: WorkspaceChange['action'], b: Entry | null, a: Entry | null): WorkspaceChange {
  const omitted = (b !== null && !b.bytes) || (a !== null && !a.bytes);
  return omitted ? { path, action, before: null, after: null, omitted: true } : { path, action, before: b?.bytes ?? null, after: a?.bytes ?? null };
}
