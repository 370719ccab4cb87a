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

/** `rm`'s flags and operands; GNU rm also takes flags after operands (`rm build -rf`). */
export function rmArgs(c: Command): { recursive: boolean; operands: string[] } {
  let recursive = false;
  let ended = false;
  const operands: string[] = [];
  for (const a of c.argv.slice(1)) {
    if (!ended && a === '--') ended = true;
    else if (!ended && a.startsWith('--')) recursive ||= a.length >= 4 && '--recursive'.startsWith(a);
    else if (!ended && /^-[a-zA-Z]+$/.test(a)) recursive ||= /[rR]/.test(a);
    else operands.push(cleanPath(a));
  }
  return { recursive, operands };
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
  via: 'redirect' | 'tee' | 'copy' | 'sed' | 'dd';
  path: string;
}

const WRITE_REDIRECTS = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&']);

/** Files the command writes to: redirections, tee, cp/mv/install/ln destinations, sed -i, dd of=. */
export function writeTargets(c: Command): WriteTarget[] {
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
  if (c.name === 'sed' && args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'))) {
    const scripted = args.some((a) => /^-[a-zA-Z]*[ef]$/.test(a) || /^--(expression|file)/.test(a));
    for (const p of operands(args, 'efl').slice(scripted ? 0 : 1)) out.push({ via: 'sed', path: p });
  }
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

/** Interpreters reading code from an option: `python -c`, `perl -e`, `ruby -e`, `node -e`. */
export function evalFlag(c: Command): 'python' | 'perl' | 'ruby' | 'node' | null {
  const lang = /^(python[\d.]*|pypy[\d.]*)$/.test(c.name)
    ? 'python'
    : /^(node|nodejs|bun|deno)$/.test(c.name)
      ? 'node'
      : c.name === 'perl' || c.name === 'ruby'
        ? c.name
        : null;
  if (!lang) return null;
  if (c.name === 'deno') return c.argv[1] === 'eval' ? 'node' : null;
  const flag: Record<typeof lang, RegExp> = {
    python: /^-[a-zA-Z]*c$/,
    perl: /^-[aclnpsStTuUvwWx0-9]*[eE]$/,
    ruby: /^-[acdlnpsSvwWy]*e$/,
    node: /^(-e|-p|-pe|-c|--eval|--print|--check)(=|$)/,
  };
  let j = 1;
  for (; j < c.argv.length; j++) {
    const a = c.argv[j]!;
    if (flag[lang].test(a)) return lang;
    if (!isFlag(a) || a === '--' || (lang === 'python' && a === '-m')) break;
    if (lang === 'python' && /^-[WX]$/.test(a)) j++;
  }
  // No script file (or `-`) and a heredoc/here-string on stdin: `python3 - <<EOF` is `python -c` too.
  const script = c.argv[j];
  const fed = c.redirects.some((r) => r.op === '<<' || r.op === '<<-' || r.op === '<<<');
  return fed && (script === undefined || script === '-') ? lang : null;
}
