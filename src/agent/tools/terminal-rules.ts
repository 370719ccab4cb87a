/**
 * Hermes' checks and notes around a terminal command, kept apart from the tool so each reads
 * alone: the workdir character allowlist, the nudge toward background mode for commands that
 * would never return, and what a "failing" exit code of a well-known command really means.
 */

const WORKDIR_SAFE = /^[A-Za-z0-9/\\:_\-.~ +@=,]+$/;

/** Why a workdir is refused (it looks like shell syntax rather than a path), or null. */
export function workdirError(workdir: string): string | null {
  if (!workdir || WORKDIR_SAFE.test(workdir)) return null;
  for (const ch of workdir) {
    if (!WORKDIR_SAFE.test(ch)) {
      return `Blocked: workdir contains disallowed character ${pythonRepr(ch)}. Use a simple filesystem path without shell metacharacters.`;
    }
  }
  return 'Blocked: workdir contains disallowed characters.';
}

/** How Python's repr() shows one character (Hermes' message quotes it that way). */
function pythonRepr(ch: string): string {
  const escapes: Record<string, string> = { '\n': '\\n', '\t': '\\t', '\r': '\\r', '\\': '\\\\' };
  if (escapes[ch]) return `'${escapes[ch]}'`;
  const code = ch.codePointAt(0) ?? 0;
  if (code < 0x20 || code === 0x7f) return `'\\x${code.toString(16).padStart(2, '0')}'`;
  return ch === "'" ? `"'"` : `'${ch}'`;
}

const SHELL_BACKGROUND = /(?:^|[;&|]\s*|&&\s*|\|\|\s*|\$\(\s*)(?:nohup|disown|setsid)\b/im;
const INLINE_AMP = /\s&\s/;
const TRAILING_AMP = /\s&\s*(?:#.*)?$/;
const LONG_LIVED = [
  /\b(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?(?:dev|start|serve|watch)\b/i,
  /\bdocker\s+compose\s+up\b/i,
  /\bnext\s+dev\b/i,
  /\bvite(?:\s|$)/i,
  /\bnodemon\b/i,
  /\buvicorn\b/i,
  /\bgunicorn\b/i,
  /\bpython(?:3)?\s+-m\s+http\.server\b/i,
];

/** Quoted text blanked, so `git commit -m "use setsid"` is not taken for a wrapper. */
function withoutQuotes(command: string): string {
  return command
    .replace(/'[^']*'/g, "''")
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/`[^`]*`/g, '``');
}

/**
 * Hermes refuses to run in the foreground what would keep running (a server, a watcher, a
 * shell-level `&`/nohup), so the model uses `background: true` and can follow it. Returns the
 * message, or null.
 */
export function foregroundGuidance(command: string): string | null {
  const n = command.toLowerCase().split(/\s+/).join(' ');
  if (n.includes(' --help') || n.endsWith(' -h') || n.includes(' --version') || n.endsWith(' -v')) return null;
  const bare = withoutQuotes(command);
  if (SHELL_BACKGROUND.test(bare)) {
    return (
      'Foreground command uses shell-level background wrappers (nohup/disown/setsid). ' +
      'Use terminal(background=true) so Hermes can track the process, then run readiness checks and tests in separate commands.'
    );
  }
  if (INLINE_AMP.test(bare) || TRAILING_AMP.test(bare)) {
    return (
      "Foreground command uses '&' backgrounding. Use terminal(background=true) for long-lived processes, " +
      'then run health checks and tests in follow-up terminal calls.'
    );
  }
  if (LONG_LIVED.some((re) => re.test(bare))) {
    return (
      'This foreground command appears to start a long-lived server/watch process. Run it with background=true, ' +
      'verify readiness (health endpoint/log signal), then execute tests in a separate command.'
    );
  }
  return null;
}

const NO_MATCHES = 'No matches found (not an error)';
const DIFFERS = 'Files differ (expected, not an error)';
const FALSE = 'Condition evaluated to false (expected, not an error)';
const EXIT_MEANINGS: Record<string, Record<number, string>> = {
  grep: { 1: NO_MATCHES },
  egrep: { 1: NO_MATCHES },
  fgrep: { 1: NO_MATCHES },
  rg: { 1: NO_MATCHES },
  ag: { 1: NO_MATCHES },
  ack: { 1: NO_MATCHES },
  diff: { 1: DIFFERS },
  colordiff: { 1: DIFFERS },
  find: { 1: 'Some directories were inaccessible (partial results may still be valid)' },
  test: { 1: FALSE },
  '[': { 1: FALSE },
  curl: { 6: 'Could not resolve host', 7: 'Failed to connect to host', 22: 'HTTP response code indicated error (e.g. 404, 500)', 28: 'Operation timed out' },
  git: { 1: "Non-zero exit (often normal — e.g. 'git diff' returns 1 when files differ)" },
};

/** What a non-zero exit of the last command in a chain means when it is not an error, or null. */
export function exitCodeMeaning(command: string, exitCode: number): string | null {
  if (exitCode === 0) return null;
  const last = (command.split(/\s*(?:\|\||&&|[|;])\s*/).at(-1) ?? command).trim();
  const word = last.split(/\s+/).find((w) => !(w.includes('=') && !w.startsWith('-')));
  const base = word?.split('/').at(-1);
  return (base && Object.hasOwn(EXIT_MEANINGS, base) && EXIT_MEANINGS[base]?.[exitCode]) || null;
}
