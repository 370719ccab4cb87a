import type { AgentConfigSource } from '../agent/config-source.js';

/** Hermes' rule for profile names (`hermes profile create`); `default` is the home itself. */
export const PROFILE_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
export const DEFAULT_PROFILE = 'default';
/** Names `hermes profile create` refuses: they collide with the install or common commands. */
export const RESERVED_PROFILE_NAMES: ReadonlySet<string> = new Set(['hermes', 'default', 'test', 'tmp', 'root', 'sudo']);
/** The folders Hermes makes in every new profile (`home` is its tool subprocesses' HOME). */
export const PROFILE_DIRS = ['memories', 'sessions', 'skills', 'skins', 'logs', 'plans', 'workspace', 'cron', 'home'] as const;

/** What a path is, as `lstat` sees it (a symlink is reported as one, never followed). */
export interface HermesFileStat {
  kind: 'file' | 'dir' | 'symlink' | 'other';
  size: number;
  /** Modification time, epoch seconds with fractions (the incumbent's `*_mtime`). */
  mtime: number;
  /** This process may write it (for a missing file: its nearest existing folder). */
  writable: boolean;
}

/**
 * Text files of a Hermes home and the folders Hermes reads beside it (skills' external_dirs).
 * Paths are absolute. Node: the file system; Workers: only the memory files, kept in D1.
 */
export interface HermesFiles {
  stat(path: string): Promise<HermesFileStat | null>;
  /** The file's text; null when it does not exist. Throws for a folder. */
  readText(path: string): Promise<string | null>;
  /** Replaces the file atomically (a temporary file renamed over it), creating parent folders. */
  writeText(path: string, text: string): Promise<void>;
  /** The folder's entries (not recursive), sorted by name; [] when it does not exist. */
  list(dir: string): Promise<{ name: string; kind: HermesFileStat['kind'] }[]>;
  /** Removes a file, or a folder and everything in it; nothing when it does not exist. */
  remove(path: string): Promise<void>;
  /** The path with every symlink followed (a missing tail kept as given). */
  realPath(path: string): Promise<string>;
  /**
   * Files under `root` as sorted `/`-separated relative paths, following symlinks (each real
   * folder once), never entering a folder named in `skipDirs`; at most `maxFiles`. [] when missing.
   * One call for a whole skills tree instead of a list per folder.
   */
  walk(root: string, options: { skipDirs: ReadonlySet<string>; maxFiles: number }): Promise<string[]>;
  /**
   * The last `maxBytes` of a file (a log), read without reading what comes before; null when it
   * does not exist or is not a file. Where files cannot be read this way (Workers) it is null too.
   */
  readTail(path: string, maxBytes: number): Promise<FileTail | null>;
}

/** The end of a file as `readTail` read it. */
export interface FileTail {
  /** The bytes read, as UTF-8 (a character cut at the start is replaced). */
  text: string;
  /** The whole file's size in bytes, and how many of them were read. */
  size: number;
  bytesRead: number;
  /** Modification time, epoch seconds with fractions. */
  mtime: number;
}

/** One Hermes profile's home: `default` is `$HERMES_HOME`, another `$HERMES_HOME/profiles/<name>`. */
export interface HermesHome {
  readonly profile: string;
  /** Absolute path of the home (config.yaml, .env, memories/, skills/, cron/, logs/, state.db). */
  readonly root: string;
  /** Its config.yaml and .env; the same object for the same home, so writes to a file are serialised. */
  readonly config: AgentConfigSource;
  readonly files: HermesFiles;
}

/**
 * The profiles of this server. Each request resolves one (http/request-home.ts) and passes its
 * home down; nothing reads a global home.
 */
export interface HermesHomes {
  /** Whether profiles other than `default` exist here (false on Workers: one profile). */
  readonly multiProfile: boolean;
  /** `$HERMES_HOME` itself. */
  readonly defaultHome: HermesHome;
  /** The profile's home: BadRequest for a name Hermes would not create, NotFound when it does not exist. */
  get(profile: string): Promise<HermesHome>;
  /** `default` first, then the profiles under `$HERMES_HOME/profiles/` that are folders, by name. */
  list(): Promise<string[]>;
  /** Where a profile's home is or would be (no check that it exists). BadRequest for a bad name. */
  pathOf(profile: string): string;
  /**
   * Makes a new, empty profile with Hermes' folders (memories/, sessions/, skills/, skins/, logs/,
   * plans/, workspace/, cron/, home/). BadRequest for a bad or reserved name or `default`,
   * Conflict when it exists, NotAvailable where there is one profile (Workers).
   */
  create(profile: string): Promise<HermesHome>;
  /** Removes a profile's folder and everything in it. BadRequest for `default`, NotFound when missing. */
  remove(profile: string): Promise<void>;
}
