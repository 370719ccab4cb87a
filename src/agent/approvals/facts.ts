import type { Command } from './shell.js';

/** Facts about one parsed command that several patterns share. */

/** `//etc/` and `/etc` mean the same directory to the kernel. */
export function cleanPath(path: string): string {
  return path.replace(/\/{2,}/g, '/');
}

/** Raw disks (Linux and macOS names); `/dev/null`, `/dev/tty`, `/dev/stdout` are not among them. */
export const BLOCK_DEVICE = /^\/dev\/(?:(?:sd|hd|vd|xvd|nvme|mmcblk|md|dm-|loop|nbd)[a-z0-9]*|r?disk\d[a-z0-9]*|mapper\/.+|disk\/by-[a-z]+\/.+)$/;
/** Any spelling the shell resolves to `/` itself, optionally globbed (`/`, `/*`, `/./`, `/..`). */
export const ROOT_PATH = /^\/(?:(?:\.{1,2})?\/)*(?:\.{1,2})?\**$/;
export const HOME_PATH = /^(?:~[A-Za-z0-9_.-]*|\$HOME|\$\{HOME\}|\/home\/[^/]+|\/Users\/[^/]+)\/?\**$/;
export const SYSTEM_DIR = /^\/(?:bin|boot|dev|etc|home|lib|lib32|lib64|root|sbin|usr|var|System|Users|Library|private)\/?\**$/;
export const HOME_PREFIX = String.raw`(?:~[A-Za-z0-9_.-]*|\$HOME|\$\{HOME\}|/root|/home/[^/]+|/Users/[^/]+)`;

const isFlag = (a: string): boolean => a.startsWith('-') && a !== '-';

/** Sensitive write targets, as Hermes names them (paths after quote removal, `~`/`$HOME` literal). */
export const SYSTEM_CONFIG = /^\/(?:etc|private\/(?:etc|var|tmp|home))(?:\/|$)/;
const home = (rest: string): RegExp => new RegExp(`^${HOME_PREFIX}/${rest}`);
export const SSH_PATH = home(String.raw`\.ssh(?:/|$)`);
export const SHELL_RC = home(String.raw`\.(?:bashrc|zshrc|profile|bash_profile|zprofile)(?!\w)`);
export const CREDENTIAL_FILE = home(String.raw`\.(?:netrc|pgpass|npmrc|pypirc)(?!\w)`);
const HERMES_DIR = String.raw`(?:${HOME_PREFIX}/\.hermes|\$\{?HERMES_HOME\}?)/(?:profiles/[^/]+/)?`;
export const HERMES_ENV = new RegExp(String.raw`^${HERMES_DIR}\.env(?!\w)`);
export const HERMES_CONFIG = new RegExp(String.raw`^${HERMES_DIR}config\.yaml(?!\w)`);
/** `.env`, `.env.local`… or `config.yaml` anywhere (a project's secrets and settings). */
export const PROJECT_FILE = /(?:^|\/)(?:\.env(?:\.[^/]+)*|config\.yaml)$/;
export const USER_SENSITIVE: readonly RegExp[] = [SSH_PATH, SHELL_RC, CREDENTIAL_FILE];
export const SENSITIVE: readonly RegExp[] = [SYSTEM_CONFIG, BLOCK_DEVICE, ...USER_SENSITIVE, HERMES_ENV, HERMES_CONFIG];

export interface RmArgs {
  recursive: boolean;
  /** Where the recursive flag sat: first (`rm -rf x`), first as `--recursive`, or later (`rm x -rf`). */
  style: 'short' | 'long' | 'after' | null;
  operands: string[];
}

/** Facts asked by many patterns are worked out once per parsed command. */
export function memo<T>(compute: (c: Command) => T): (c: Command) => T {
  const cache = new WeakMap<Command, T>();
  return (c) => {
    if (cache.has(c)) return cache.get(c)!;
    const v = compute(c);
    cache.set(c, v);
    return v;
  };
}

/** `rm`'s flags and operands; GNU rm also takes flags after operands (`rm build -rf`). */
export const rmArgs = memo(rmArgsOf);
function rmArgsOf(c: Command): RmArgs {
  let style: RmArgs['style'] = null;
  let ended = false;
  const operands: string[] = [];
  c.argv.slice(1).forEach((a, j) => {
    let r = false;
    let long = false;
    if (!ended && a === '--') ended = true;
    else if (!ended && a.startsWith('--')) r = long = a.length >= 4 && '--recursive'.startsWith(a);
    else if (!ended && /^-[a-zA-Z]+$/.test(a)) r = /[rR]/.test(a);
    else operands.push(cleanPath(a));
    if (r && !style) style = j > 0 ? 'after' : long ? 'long' : 'short';
  });
  return { recursive: style !== null, style, operands };
}

/** Operands after skipping flags, where the flags in `withValue` take the next word. */
export function operands(argv: string[], withValue = ''): string[] {
  const out: string[] = [];
  for (let j = 1; j < argv.length; j++) {
    const a = argv[j]!;
    if (a === '--') return [...out, ...argv.slice(j + 1)];
    if (!isFlag(a)) out.push(a);
    else if (!a.startsWith('--') && a.length === 2 && withValue.includes(a[1]!)) j++;
  }
  return out;
}

export interface WriteTarget {
  /** `sed` is `sed -i`, `sed-long` is `sed --in-place`, `inplace` is `perl -i` / `ruby -i`. */
  via: 'redirect' | 'tee' | 'copy' | 'sed' | 'sed-long' | 'inplace' | 'dd';
  path: string;
}

/** The files `perl -i` / `ruby -i` edit: operands that are not the script. */
function inplaceTargets(args: string[]): string[] {
  if (!args.slice(1).some((a) => /^-[a-zA-Z]*i(?![a-zA-Z])/.test(a))) return [];
  const files: string[] = [];
  let inline = false;
  for (let j = 1; j < args.length; j++) {
    const a = args[j]!;
    if (/^-[a-zA-Z]*[eE]$/.test(a)) {
      inline = true;
      j++;
    } else if (!isFlag(a)) files.push(a);
  }
  return inline ? files : files.slice(1);
}

const WRITE_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&']);

/** Files the command writes to: redirections, tee, cp/mv/install/ln destinations, sed -i, perl -i, dd of=. */
export const writeTargets = memo(writeTargetsOf);
function writeTargetsOf(c: Command): WriteTarget[] {
  const out: WriteTarget[] = [];
  for (const r of c.redirects) {
    const t = r.target?.value;
    if (t && WRITE_REDIRECTS.has(r.op) && !(r.op === '>&' && /^(\d+|-)$/.test(t))) out.push({ via: 'redirect', path: t });
  }
  const args = c.argv;
  if (c.name === 'tee') for (const p of operands(args)) out.push({ via: 'tee', path: p });
  if (['cp', 'mv', 'install', 'ln', 'rsync'].includes(c.name)) {
    const t = args.findIndex((a) => a === '-t' || a.startsWith('--target-directory'));
    const dest = t > 0 ? (args[t]!.includes('=') ? args[t]!.split('=')[1] : args[t + 1]) : operands(args, 'mogSt').at(-1);
    if (dest) out.push({ via: 'copy', path: dest });
  }
  const short = args.some((a) => /^-[a-zA-Z]*i/.test(a));
  if (c.name === 'sed' && (short || args.some((a) => a.startsWith('--in-place')))) {
    const scripted = args.some((a) => /^-[a-zA-Z]*[ef]$/.test(a) || /^--(expression|file)/.test(a));
    for (const p of operands(args, 'efl').slice(scripted ? 0 : 1)) out.push({ via: short ? 'sed' : 'sed-long', path: p });
  }
  if (/^(perl[\d.]*|ruby[\d.]*)$/.test(c.name)) for (const p of inplaceTargets(args)) out.push({ via: 'inplace', path: p });
  if (c.name === 'dd') for (const a of args) if (a.startsWith('of=')) out.push({ via: 'dd', path: a.slice(3) });
  return out.map((w) => ({ via: w.via, path: cleanPath(w.path) }));
}

/** `kill [-SIG | -s SIG | -n N] [--] pid…` → the pids. */
export function killTargets(argv: string[]): string[] {
  let j = 1;
  const a = argv[1] ?? '';
  if (a === '-s' || a === '-n' || a === '--signal') j = 3;
  else if (/^-(\d+|[A-Za-z]+[A-Za-z0-9+-]*)$/.test(a) || a.startsWith('--signal=')) j = 2;
  if (argv[j] === '--') j++;
  return argv.slice(j);
}

/** `-9`, `-KILL`, `-SIGKILL`, `-s KILL`, `--signal=9`. */
export function sendsSigkill(argv: string[]): boolean {
  return argv.some((a, j) => {
    if (/^-(9|KILL|SIGKILL)$/i.test(a) || /^--signal=(9|KILL|SIGKILL)$/i.test(a)) return true;
    return (a === '-s' || a === '--signal') && /^(9|KILL|SIGKILL)$/i.test(argv[j + 1] ?? '');
  });
}

/** Skips a CLI's global options (values included) and returns the rest from the subcommand on. */
export function subcommand(argv: string[], valueFlags: RegExp): string[] {
  let j = 1;
  while (j < argv.length && isFlag(argv[j]!)) j += !argv[j]!.includes('=') && valueFlags.test(argv[j]!) ? 2 : 1;
  return argv.slice(j);
}

/** Interpreter families and the options that make them run code given inline. */
const INTERPRETERS: Array<[RegExp, RegExp, RegExp | null]> = [
  // [name, option that runs inline code, options that take the next word]
  [/^(python[\d.]*|py|pypy[\d.]*)$/, /^-[a-zA-Z]*c$/, /^-[WX]$/],
  [/^(node|nodejs)$/, /^(-[a-zA-Z]*[ep]|--eval|--print)(=|$)/, /^(-C|--conditions|--import|--loader|--require|--title|-r)$/],
  [/^perl[\d.]*$/, /^(-[aclnpsStTuUvwWx0-9]*[eE]|--eval)$/, /^-[IMmx]$/],
  [/^ruby[\d.]*$/, /^-[acdlnpsSvwWy]*e$/, /^-[CEFIKr]$/],
  [/^php$/, /^-[a-zA-Z]*r$/, /^-[cdz]$/],
  [/^bun$/, /^(-e|--eval)(=|$)/, /^--(config|cwd|env-file|preload|require)$/],
  [/^deno$/, /^(-e|--eval)(=|$)/, /^(-L|--log-level)$/],
  [/^(powershell|pwsh)$/, /^-(command|c|file|f)$/i, /^-(executionpolicy|version|workingdirectory|windowstyle|inputformat|outputformat|configurationname)$/i],
];

/**
 * An interpreter running code it was handed: `python -c`, `node -e`, `perl -e`, `php -r`,
 * `deno eval`… (`flag`), or a heredoc/here-string on stdin with no script file (`heredoc`).
 */
export const interpreterExec = memo(interpreterExecOf);
function interpreterExecOf(c: Command): 'flag' | 'heredoc' | null {
  const name = c.name.replace(/\.exe$/, '');
  const family = INTERPRETERS.find(([re]) => re.test(name));
  if (!family) return null;
  const [, runs, takesValue] = family;
  let j = 1;
  for (; j < c.argv.length; j++) {
    const a = c.argv[j]!;
    if (runs.test(a)) return 'flag';
    if (name === 'deno' && a === 'eval') return 'flag';
    if (!isFlag(a) || a === '--' || (name.startsWith('py') && a === '-m')) break;
    if (takesValue?.test(a)) j++;
  }
  const script = c.argv[j];
  const fed = c.redirects.some((r) => r.op === '<<' || r.op === '<<-' || r.op === '<<<');
  return fed && (script === undefined || script === '-') ? 'heredoc' : null;
}
