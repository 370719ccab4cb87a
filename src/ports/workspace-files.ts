/**
 * The files of a workspace. Every `path` is relative to `root` (a session's workspace);
 * an implementation refuses anything that would resolve outside it (`..`, absolute paths,
 * symlinks that escape) with Forbidden, and system roots as workspaces with Forbidden.
 */
export interface FileEntry {
  name: string;
  path: string;
  type: 'file' | 'dir' | 'symlink';
  is_dir: boolean;
  size: number;
  /** Nanoseconds since the epoch, as a string: the value is past JSON's exact integer range. */
  mtime_ns: string;
  /** Creation time, the same way; null where the file system does not record it. */
  birthtime_ns: string | null;
  /** The incumbent's listing order: 0 symlinks, 1 folders, 2 files (then by lower-cased name). */
  workspace_sort_rank: 0 | 1 | 2;
  /** Where a symlink inside the workspace points; never given for one that leaves it. */
  target?: string;
  target_outside_workspace?: boolean;
  /**
   * A symlink that can never be walked: it points at itself (ELOOP), the listed folder or one of
   * its ancestors. Shown so the user sees it, with `is_dir` false so no tree expands it.
   */
  symlink_loop?: boolean;
}

export interface TextFile {
  path: string;
  content: string;
  size: number;
  lines: number;
}

export interface RawFile {
  name: string;
  size: number;
  body: ReadableStream<Uint8Array>;
}

export interface WorkspaceFiles {
  /**
   * Checks that `path` can be a workspace: absolute, an existing directory (created first when
   * `create` is set), not a system root. Returns its canonical path.
   */
  checkWorkspace(path: string, options?: { create?: boolean }): Promise<string>;
  list(root: string, path: string): Promise<FileEntry[]>;
  /**
   * The absolute on-disk path of `path` inside the workspace (it need not exist); Forbidden when
   * it, or a symlink on the way, leads out (POST /api/file/path copies it to the clipboard).
   */
  absolutePath(root: string, path: string): Promise<string>;
  /** UTF-8 text; TooLarge (reported as 400 "File too large") past `maxBytes`. */
  readText(root: string, path: string, maxBytes: number): Promise<TextFile>;
  readRaw(root: string, path: string): Promise<RawFile>;
  /** Overwrites an existing regular file. */
  save(root: string, path: string, content: string): Promise<{ path: string; size: number }>;
  /** Creates a new file; Conflict when it exists. */
  create(root: string, path: string, content: string): Promise<{ path: string; size: number }>;
  createDir(root: string, path: string): Promise<{ path: string }>;
  rename(root: string, path: string, newName: string): Promise<{ path: string }>;
  move(root: string, path: string, destDir: string): Promise<{ path: string }>;
  /**
   * A regular file's bytes, or null when nothing is there (a turn's undo checks what is on disk).
   * TooLarge past `maxBytes`; a directory or symlink is BadRequest.
   */
  readBytes(root: string, path: string, maxBytes: number): Promise<Uint8Array | null>;
  /**
   * Writes a whole file atomically (temp file, rename), creating missing folders on the way;
   * refuses to write through a symlink. Undoing a turn's changes restores files with it.
   */
  writeBytes(root: string, path: string, bytes: Uint8Array): Promise<void>;
  /** Directories need `recursive`; symlinks are refused. */
  delete(root: string, path: string, recursive: boolean): Promise<void>;
}
