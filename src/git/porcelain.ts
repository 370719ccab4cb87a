/** One record of `git status --porcelain=v2 -z`: ordinary (1), renamed/copied (2), unmerged (u), untracked (?), ignored (!). */
export interface StatusEntry {
  kind: '1' | '2' | 'u' | '?' | '!';
  /** Two letters, index then worktree (`.` unchanged); `??` untracked, `!!` ignored. */
  xy: string;
  /** Repository-relative. */
  path: string;
  /** Where a renamed or copied file came from. */
  origPath?: string;
}

export interface BranchHeader {
  /** The commit, or null in a repository with no commits yet (`(initial)`). */
  oid: string | null;
  /** The branch, or null on a detached HEAD. */
  head: string | null;
  upstream: string | null;
  ahead: number;
  behind: number;
}

export interface PorcelainStatus {
  branch: BranchHeader;
  entries: StatusEntry[];
}

/** Splits off the first `n` space-separated fields; the rest (a path, which may hold spaces) is the last item. */
function fields(record: string, n: number): string[] | null {
  const out: string[] = [];
  let at = 0;
  for (let i = 0; i < n; i++) {
    const sp = record.indexOf(' ', at);
    if (sp < 0) return null;
    out.push(record.slice(at, sp));
    at = sp + 1;
  }
  out.push(record.slice(at));
  return out;
}

/** Parses `git status --porcelain=v2 --branch -z` output (NUL-separated; a rename's origin is the next token). */
export function parsePorcelainV2(output: string): PorcelainStatus {
  const branch: BranchHeader = { oid: null, head: null, upstream: null, ahead: 0, behind: 0 };
  const entries: StatusEntry[] = [];
  const tokens = output.split('\0');
  for (let i = 0; i < tokens.length; i++) {
    const rec = tokens[i]!;
    if (!rec) continue;
    if (rec.startsWith('# ')) {
      const [, key, value = ''] = fields(rec, 2) ?? [];
      if (key === 'branch.oid') branch.oid = value === '(initial)' ? null : value;
      else if (key === 'branch.head') branch.head = value === '(detached)' ? null : value;
      else if (key === 'branch.upstream') branch.upstream = value;
      else if (key === 'branch.ab') {
        const m = /^\+(\d+) -(\d+)$/.exec(value);
        if (m) [branch.ahead, branch.behind] = [Number(m[1]), Number(m[2])];
      }
      continue;
    }
    const kind = rec[0];
    if ((kind === '?' || kind === '!') && rec[1] === ' ') {
      entries.push({ kind, xy: kind + kind, path: rec.slice(2) });
    } else if (kind === '1') {
      // 1 XY sub mH mI mW hH hI path
      const f = fields(rec, 8);
      if (f) entries.push({ kind, xy: f[1]!, path: f[8]! });
    } else if (kind === '2') {
      // 2 XY sub mH mI mW hH hI Xscore path NUL origPath
      const f = fields(rec, 9);
      const origPath = tokens[++i];
      if (f) entries.push({ kind, xy: f[1]!, path: f[9]!, ...(origPath ? { origPath } : {}) });
    } else if (kind === 'u') {
      // u XY sub m1 m2 m3 mW h1 h2 h3 path
      const f = fields(rec, 10);
      if (f) entries.push({ kind, xy: f[1]!, path: f[10]! });
    }
  }
  return { branch, entries };
}

export interface LineCount {
  additions: number;
  deletions: number;
  binary: boolean;
}

/**
 * Parses `git diff --numstat -z`: `add\tdel\tpath\0`, or for a rename `add\tdel\t\0from\0to\0`;
 * `-\t-` marks a binary file. Keyed by the (new) repository-relative path.
 */
export function parseNumstatZ(output: string): Map<string, LineCount> {
  const out = new Map<string, LineCount>();
  const tokens = output.split('\0');
  for (let i = 0; i < tokens.length; i++) {
    const rec = tokens[i]!;
    const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(rec);
    if (!m) continue;
    let path = m[3]!;
    if (path === '') {
      i += 2;
      path = tokens[i] ?? '';
    }
    if (!path) continue;
    const binary = m[1] === '-' || m[2] === '-';
    out.set(path, { additions: binary ? 0 : Number(m[1]), deletions: binary ? 0 : Number(m[2]), binary });
  }
  return out;
}

const CONFLICT_XY = new Set(['DD', 'AU', 'UD', 'UA', 'DU', 'AA', 'UU']);

/** The one-letter badge the incumbent shows: `??`, a conflict's pair, `R`, else the first real change letter. */
export function statusCode(entry: StatusEntry): string {
  if (entry.kind === '?') return '??';
  if (entry.kind === 'u' || CONFLICT_XY.has(entry.xy)) return entry.xy;
  if (entry.kind === '2') return entry.xy.includes('C') ? 'C' : 'R';
  for (const ch of entry.xy) if ('MADRCUT'.includes(ch)) return ch;
  return 'M';
}

export function isConflict(entry: StatusEntry): boolean {
  return entry.kind === 'u' || CONFLICT_XY.has(entry.xy);
}
