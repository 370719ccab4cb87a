import { basenameOf, dirnameOf, isInsideDir, joinPath, normalizePath } from './paths.js';

/**
 * Hermes' file denylists (agent/file_safety.py, tools/file_tools_write_guards.py and the device
 * guard of tools/file_tools.py), as the file tools apply them. Pure path rules: the caller passes
 * the final absolute path (and its real path when the host can follow symlinks), so however a
 * relative path gets resolved, the check runs on where the call would actually land.
 *
 * Like Hermes' this is defence in depth, not a sandbox: the terminal tool runs as the same user.
 * The messages are Hermes' own, so a model trained on them reacts the same way.
 */

export interface GuardRoots {
  /** The user's home (`~`). */
  homeDir: string;
  /** The active `$HERMES_HOME` (a profile's home when a profile is active). */
  hermesHome: string;
  /** `HERMES_WRITE_SAFE_ROOT` entries: when any are set, writes must land under one. */
  writeSafeRoots?: readonly string[];
  /** Where the active config.yaml is when `HERMES_CONFIG_PATH` moved it out of the home: guarded like the home's. */
  configPath?: string;
}

const DID_SUFFIX = ' (Defense-in-depth — not a security boundary; the terminal tool can still bypass.)';

/**
 * The active home and the Hermes root: a profile lives at `<root>/profiles/<name>`, and the
 * root's credential stores stay guarded while a profile is active.
 */
export function hermesDirs(hermesHome: string): string[] {
  const home = normalizePath(hermesHome);
  const parent = dirnameOf(home);
  const root = basenameOf(parent) === 'profiles' ? dirnameOf(parent) : home;
  return root === home ? [home] : [home, root];
}

// ---- Windows NT/device namespace (checked on the raw argument, before any resolution) ----------

function isNtNamespace(raw: string): boolean {
  const s = raw.replace(/\//g, '\\');
  if (s.startsWith('\\??\\') || s.startsWith('\\\\.\\')) return true;
  if (!s.startsWith('\\\\?\\')) return false;
  const rest = s.slice(4).toUpperCase();
  return rest.startsWith('UNC\\') || rest.startsWith('GLOBALROOT\\');
}

function ntNamespaceError(raw: string, verb: 'Read' | 'Write'): string | null {
  if (!isNtNamespace(raw)) return null;
  return (
    `${verb} denied: '${raw}' uses a Windows NT/device namespace prefix (\\??\\, \\\\.\\, \\\\?\\UNC\\, or GLOBALROOT). ` +
    'These paths bypass normal path normalization and can trigger outbound SMB authentication (NTLM credential leak) ' +
    'merely by being resolved. Use a normal absolute path instead.'
  );
}

// ---- Reads ----------------------------------------------------------------------------------------

/** Never reach EOF, wait for input, or are nonsense to read. */
const DEVICE_PATHS = new Set([
  '/dev/zero',
  '/dev/random',
  '/dev/urandom',
  '/dev/full',
  '/dev/stdin',
  '/dev/tty',
  '/dev/console',
  '/dev/stdout',
  '/dev/stderr',
  '/dev/fd/0',
  '/dev/fd/1',
  '/dev/fd/2',
]);
/** `/proc/<pid>/…` files that alias stdio or leak the server's environment, arguments and memory layout. */
const PROC_SUFFIXES = ['/fd/0', '/fd/1', '/fd/2', '/environ', '/cmdline', '/maps', '/smaps', '/smaps_rollup', '/numa_maps', '/mem', '/auxv', '/pagemap'];

function isBlockedDevice(p: string): boolean {
  return DEVICE_PATHS.has(p) || (p.startsWith('/proc/') && PROC_SUFFIXES.some((s) => p.endsWith(s)));
}

/** Exact credential stores under the Hermes home and root. */
const CREDENTIAL_FILES = [
  'auth.json',
  'auth.lock',
  '.anthropic_oauth.json',
  '.env',
  'webhook_subscriptions.json',
  'auth/google_oauth.json',
  'cache/bws_cache.json',
];

/** Directories under the Hermes home and root whose whole content is credential material. */
const READ_DENIED_DIRS: ReadonlyArray<{ dir: string; itself: string; inside: string }> = [
  {
    dir: 'mcp-tokens',
    itself: 'is the Hermes MCP token directory and cannot be read directly.',
    inside: 'is a Hermes MCP token file and cannot be read directly.',
  },
  {
    dir: 'browser-profile',
    itself: 'is the Hermes real-profile browser snapshot directory (copied cookies/logins) and cannot be read directly.',
    inside: 'is inside the Hermes real-profile browser snapshot (copied cookies/logins) and cannot be read directly.',
  },
  {
    dir: 'vault',
    itself: 'is the Hermes credential vault directory and cannot be read directly (secrets are filled server-side by browser_vault_fill).',
    inside: 'is inside the Hermes credential vault (encrypted secrets + local key) and cannot be read directly (browser_vault_fill resolves them server-side).',
  },
];

/** Project environment files, refused anywhere on disk (`.env.example` is the readable stand-in). */
const ENV_BASENAMES = new Set(['.env', '.env.local', '.env.development', '.env.production', '.env.test', '.env.staging', '.envrc']);

function readReason(p: string, roots: GuardRoots): string | null {
  const dirs = hermesDirs(roots.hermesHome);
  if (dirs.some((d) => isInsideDir(joinPath(d, 'skills/.hub'), p))) {
    return 'is an internal Hermes cache file and cannot be read directly to prevent prompt injection. Use the skills_list or skill_view tools instead.';
  }
  if (dirs.some((d) => CREDENTIAL_FILES.some((f) => joinPath(d, f) === p))) {
    return `is a Hermes credential store and cannot be read directly. Provider tools consume these credentials through internal channels.${DID_SUFFIX}`;
  }
  for (const { dir, itself, inside } of READ_DENIED_DIRS) {
    for (const d of dirs) {
      const blocked = joinPath(d, dir);
      if (isInsideDir(blocked, p)) return (p === blocked ? itself : inside) + DID_SUFFIX;
    }
  }
  if (ENV_BASENAMES.has(basenameOf(p).toLowerCase())) {
    return (
      'is a secret-bearing environment file and cannot be read to prevent credential leakage. ' +
      `If you need to check the file structure, read .env.example instead.${DID_SUFFIX}`
    );
  }
  return null;
}

/**
 * Why reading `abs` (and `real`, where it resolves through symlinks) is refused, or null.
 * `raw` is the argument as the model gave it: Hermes names it in the device message.
 */
export function readBlockError(raw: string, abs: string, roots: GuardRoots, real: string = abs): string | null {
  const nt = ntNamespaceError(raw, 'Read');
  if (nt) return nt;
  for (const p of unique(abs, real)) {
    if (isBlockedDevice(p)) return `Cannot read '${raw}': this is a device file that would block or produce infinite output.`;
  }
  for (const p of unique(abs, real)) {
    const reason = readReason(p, roots);
    if (reason) return `Access denied: ${abs} ${reason}`;
  }
  return null;
}

// ---- Writes -----------------------------------------------------------------------------------------

/** System trees the file tools never write (the terminal with sudo is the way, with approval). */
const SYSTEM_PREFIXES = ['/etc/', '/boot/', '/usr/lib/systemd/', '/private/etc/', '/private/var/db/', '/private/var/root/'];
const SYSTEM_EXACT = new Set(['/var/run/docker.sock', '/run/docker.sock']);

/** Credential files under `~`, the Hermes home and root, and the system's account files. */
const HOME_CREDENTIAL_FILES = ['.ssh/authorized_keys', '.ssh/id_rsa', '.ssh/id_ed25519', '.netrc', '.pgpass', '.npmrc', '.pypirc', '.git-credentials'];
const HERMES_SECRET_FILES = ['.env', '.anthropic_oauth.json', 'auth/google_oauth.json', 'cache/bws_cache.json', 'cache/bws_cache.enc.json'];
const SYSTEM_CREDENTIAL_FILES = ['/etc/sudoers', '/etc/passwd', '/etc/shadow'];
/** Whole directories of credentials under `~`, and the system's privilege/service trees. */
const HOME_CREDENTIAL_DIRS = ['.ssh', '.aws', '.gnupg', '.kube', '.docker', '.azure', '.config/gh', '.config/gcloud'];
const SYSTEM_CREDENTIAL_DIRS = ['/etc/sudoers.d', '/etc/systemd'];
/** Application-owned state (transcripts) and credential material under the Hermes home and root. */
const HERMES_PROTECTED = ['state.db', 'sessions', 'mcp-tokens', 'pairing', 'vault', 'browser-profile'];

type WriteDenial = 'credential' | 'safe_root' | null;

function writeDenial(p: string, roots: GuardRoots): WriteDenial {
  const home = normalizePath(roots.homeDir);
  const dirs = hermesDirs(roots.hermesHome);
  const exact = [
    ...HOME_CREDENTIAL_FILES.map((f) => joinPath(home, f)),
    ...dirs.flatMap((d) => HERMES_SECRET_FILES.map((f) => joinPath(d, f))),
    ...SYSTEM_CREDENTIAL_FILES,
  ];
  if (exact.includes(p)) return 'credential';
  const trees = [...HOME_CREDENTIAL_DIRS.map((d) => joinPath(home, d)), ...SYSTEM_CREDENTIAL_DIRS];
  // Below the directory, as Hermes' prefix match (`<dir>/`): the directory entry itself is not a file write.
  if (trees.some((t) => p.startsWith(`${t}/`))) return 'credential';
  if (dirs.some((d) => HERMES_PROTECTED.some((sub) => isInsideDir(joinPath(d, sub), p)))) return 'credential';
  const safe = (roots.writeSafeRoots ?? []).map(normalizePath);
  if (safe.length && !safe.some((r) => isInsideDir(r, p))) return 'safe_root';
  return null;
}

/**
 * Why writing `abs` (and `real`) is refused, or null: Hermes' sensitive-path check first (system
 * trees, its own config.yaml, naming the argument as given), then the credential/state denylist
 * and `HERMES_WRITE_SAFE_ROOT` (naming the resolved path).
 */
export function writeBlockError(raw: string, abs: string, roots: GuardRoots, real: string = abs): string | null {
  const nt = ntNamespaceError(raw, 'Write');
  if (nt) return nt;
  const candidates = unique(abs, real);
  if (candidates.some((p) => SYSTEM_PREFIXES.some((pre) => p.startsWith(pre)) || SYSTEM_EXACT.has(p))) {
    return `Refusing to write to sensitive system path: ${raw}\nUse the terminal tool with sudo if you need to modify system files.`;
  }
  // approvals.* and the rest of the security settings live there: an injected agent must not turn them off.
  const configs = [joinPath(roots.hermesHome, 'config.yaml'), ...(roots.configPath ? [normalizePath(roots.configPath)] : [])];
  if (candidates.some((p) => configs.includes(p))) {
    return (
      `Refusing to write to Hermes config file: ${raw}\n` +
      "Agent cannot modify security-sensitive configuration. Edit ~/.hermes/config.yaml directly or use 'hermes config' instead."
    );
  }
  for (const p of candidates) {
    const denial = writeDenial(p, roots);
    if (denial === 'credential') return `Write denied: '${abs}' is a protected system/credential file.`;
    if (denial === 'safe_root') {
      const shown = [...new Set((roots.writeSafeRoots ?? []).map(normalizePath))].sort().join(':');
      return `Write denied: '${abs}' is outside HERMES_WRITE_SAFE_ROOT (${shown}). Unset the variable or add this path's directory prefix.`;
    }
  }
  return null;
}

/** `HERMES_WRITE_SAFE_ROOT`: absolute directories separated by `:` (`~` is the user's home). */
export function parseWriteSafeRoots(value: string | undefined, homeDir: string): string[] {
  if (!value) return [];
  return value
    .split(':')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => (s === '~' ? normalizePath(homeDir) : s.startsWith('~/') ? joinPath(homeDir, s.slice(2)) : normalizePath(s)));
}

/** The omission note search_files adds when it drops denied paths from its results. */
export function searchOmittedNote(omitted: number): string {
  return `${omitted} result(s) omitted because they target credential, token, cache, or secret-bearing environment files.`;
}

function unique(a: string, b: string): string[] {
  return a === b ? [a] : [a, b];
}
