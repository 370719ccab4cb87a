import { basenameOf, isInsideDir, joinPath, normalizePath } from './paths.js';

/** `approvals.file_edits` in config.yaml: when write_file and patch wait for a person's yes. */
export type FileEditsMode = 'always' | 'outside_workspace' | 'never';

/** Why an edit waits for approval (the card's description says it in words). */
export type FileEditReason = 'protected' | 'outside_workspace' | 'always';

/**
 * Sensitive but writable: the hard refusals (file-guards.ts) stay refusals; these are files an
 * edit of which a person should see first because they hold secrets or run code on their own.
 * Matched on the final path and on where its symlinks lead. (Hermes' home is not listed: the
 * default workspace lives in it, and what else is there is outside the workspace anyway.)
 */
const PROTECTED_BASENAMES = new Set(['.envrc', '.npmrc', '.pypirc', '.netrc', '.git-credentials']);
/** `.env.*` stand-ins meant to be committed: editing them is ordinary work. */
const ENV_TEMPLATES = new Set(['.env.example', '.env.sample', '.env.template', '.env.dist']);
/** Shell and git start-up files in the home directory: they run on every new shell or git call. */
const HOME_STARTUP_FILES = ['.bashrc', '.bash_profile', '.bash_login', '.profile', '.zshrc', '.zprofile', '.zshenv', '.gitconfig'];

export interface EditTarget {
  /** The absolute path the call writes, and where it really lands (symlinks followed). */
  abs: string;
  real: string;
  /** The session's workspace as given and as it really is (a symlinked workspace holds its files). */
  workspace: string;
  realWorkspace: string;
  homeDir: string;
}

export function isProtectedPath(p: string, roots: { homeDir: string }): boolean {
  const path = normalizePath(p);
  const name = basenameOf(path).toLowerCase();
  if (name === '.env' || (name.startsWith('.env.') && !ENV_TEMPLATES.has(name)) || PROTECTED_BASENAMES.has(name)) return true;
  // A repository's own store (hooks run code; objects and refs are history).
  if (path.split('/').includes('.git')) return true;
  const home = normalizePath(roots.homeDir);
  return HOME_STARTUP_FILES.some((f) => joinPath(home, f) === path);
}

/**
 * Whether a write_file/patch of `t` waits for approval under `mode`, and why: a protected file
 * first (the most telling reason), then a target outside the workspace, then `always`.
 * `never` asks nothing (the hard refusals still apply before this is asked).
 */
export function fileEditReason(mode: FileEditsMode, t: EditTarget): FileEditReason | null {
  if (mode === 'never') return null;
  if (isProtectedPath(t.abs, t) || isProtectedPath(t.real, t)) return 'protected';
  const inside = isInsideDir(t.workspace, t.abs) && (isInsideDir(t.workspace, t.real) || isInsideDir(t.realWorkspace, t.real));
  if (!inside) return 'outside_workspace';
  return mode === 'always' ? 'always' : null;
}

/** The card's one line about the edit. */
export function fileEditDescription(reason: FileEditReason, shown: string): string {
  if (reason === 'protected') return `Edit of a protected file: ${shown}`;
  if (reason === 'outside_workspace') return `Edit outside the workspace: ${shown}`;
  return `File edit (approvals.file_edits: always): ${shown}`;
}
