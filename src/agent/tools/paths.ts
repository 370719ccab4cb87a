/**
 * POSIX path handling for the tools, written without `node:path` so the agent core stays
 * runtime-free. Paths are resolved lexically: symlinks are the host's business.
 */

/** Collapses `//`, `.` and `..` in an absolute path. */
export function normalizePath(path: string): string {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return '/' + out.join('/');
}

export function joinPath(base: string, rel: string): string {
  return normalizePath(rel.startsWith('/') ? rel : `${base}/${rel}`);
}

export function dirnameOf(path: string): string {
  const p = normalizePath(path);
  const i = p.lastIndexOf('/');
  return i <= 0 ? '/' : p.slice(0, i);
}

export function basenameOf(path: string): string {
  const p = normalizePath(path);
  return p.slice(p.lastIndexOf('/') + 1);
}

/** True when `path` is `dir` or lies below it. */
export function isInsideDir(dir: string, path: string): boolean {
  const d = normalizePath(dir);
  const p = normalizePath(path);
  return p === d || p.startsWith(d === '/' ? '/' : d + '/');
}

/**
 * The absolute path a tool argument names: `~` is the user's home, a relative path hangs off the
 * session's workspace (the same base the terminal's cwd uses, so both tools agree).
 */
export function resolveToolPath(input: string, workspace: string, homeDir: string): string {
  const p = input.trim();
  if (p === '~') return normalizePath(homeDir);
  if (p.startsWith('~/')) return joinPath(homeDir, p.slice(2));
  return joinPath(workspace, p === '' ? '.' : p);
}

/**
 * The base for relative paths: the directory the session's shell is in (a `cd` moves it, as in
 * Hermes), else the workspace.
 */
export function toolBaseDir(ctx: { workspace: string; terminalSession?: { cwd(): string } }): string {
  return ctx.terminalSession?.cwd() || ctx.workspace;
}

/** Workspace-relative when inside it (shorter for the model to read), absolute otherwise. */
export function displayPath(abs: string, workspace: string): string {
  const ws = normalizePath(workspace);
  const p = normalizePath(abs);
  if (p === ws) return '.';
  return isInsideDir(ws, p) ? p.slice(ws === '/' ? 1 : ws.length + 1) : p;
}
