import type { Word } from './shell-lex.js';

/**
 * Commands that run another command given as their remaining arguments (`sudo rm …`,
 * `timeout 10 rm …`). Peeling them off finds the command that really runs, so a wrapper is
 * never a way around a pattern.
 */
interface Launcher {
  /** Short options that take a value (`-u root`, or glued `-uroot`). */
  short?: string;
  /** Long options that take a value when not written `--opt=value`. */
  long?: string[];
  /** Options that make the launcher report instead of run (`command -v rm`). */
  query?: RegExp;
  /** Positional operands before the command (`timeout DURATION cmd`). */
  operands?: number;
  /** Takes NAME=value assignments after its options (`env`). */
  assigns?: boolean;
  /** Option whose value is itself a command line (`env -S 'rm -rf x'`). */
  split?: RegExp;
}

const LAUNCHERS: Record<string, Launcher> = {
  sudo: {
    short: 'ugphCDrtUTcR',
    long: ['user', 'group', 'host', 'prompt', 'close-from', 'chdir', 'role', 'type', 'other-user', 'command-timeout', 'login-class', 'chroot'],
    query: /^-[a-zA-Z]*[lvKeV]|^--(list|validate|remove-timestamp|edit|version|help)$/,
  },
  doas: { short: 'uC' },
  pkexec: { long: ['user'] },
  env: { short: 'uCS', long: ['unset', 'chdir', 'split-string'], assigns: true, split: /^(-S|--split-string)(=|$)/ },
  nohup: {},
  setsid: {},
  exec: { short: 'a' },
  command: { query: /^-[a-zA-Z]*[vV]/ },
  builtin: {},
  time: { short: 'fo', long: ['format', 'output'] },
  timeout: { short: 'sk', long: ['signal', 'kill-after'], operands: 1 },
  nice: { short: 'n', long: ['adjustment'] },
  ionice: { short: 'cn', long: ['class', 'classdata'], query: /^-[a-zA-Z]*[pPu]|^--(pid|pgid|uid)$/ },
  chrt: { short: 'TPD', query: /^-[a-zA-Z]*[pm]|^--(pid|max)$/, operands: 1 },
  taskset: { query: /^-[a-zA-Z]*p|^--pid$/, operands: 1 },
  stdbuf: { short: 'ioe', long: ['input', 'output', 'error'] },
  xargs: { short: 'ILnPsdEa', long: ['max-args', 'max-procs', 'max-chars', 'delimiter', 'eof', 'arg-file', 'max-lines', 'process-slot-var'] },
  busybox: {},
  toybox: {},
  chroot: { long: ['userspec', 'groups'], operands: 1 },
  runuser: { short: 'ugG', long: ['user', 'group', 'supp-group'] },
  strace: { short: 'oepsuEabIPXOS' },
  ltrace: { short: 'oepsuEabn' },
  caffeinate: { short: 'tw' },
  'systemd-run': { short: 'pE', long: ['unit', 'property', 'description', 'slice', 'uid', 'gid', 'working-directory', 'setenv', 'nice'] },
};

/** Shell keywords that can precede a command (`if rm …; then rm …; fi`). */
const KEYWORDS = new Set(['!', '{', '}', 'if', 'then', 'else', 'elif', 'fi', 'while', 'until', 'do', 'done', 'esac', 'coproc']);

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;

export function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export interface Peeled {
  /** Launchers removed, outermost first (`['sudo', 'nohup']`). */
  wrappers: string[];
  /** `NAME=value` words before the command or given to `env`. */
  assigns: string[];
  /** The command that runs; empty when only assignments or a query remain. */
  words: Word[];
  /** Command lines carried as option values (`env -S`). */
  payloads: string[];
  /** Each launcher's own options, aligned with `wrappers` (`sudo -S -u root` → `['-S', '-u']`). */
  wrapperFlags: string[][];
}

/** Index after the launcher's options and operands; null when it would not run a command. */
function skipOptions(words: Word[], spec: Launcher, out: Peeled): number | null {
  const flags: string[] = [];
  out.wrapperFlags.push(flags);
  let j = 1;
  for (; j < words.length; j++) {
    const v = words[j]!.value;
    if (v === '--') {
      j++;
      break;
    }
    if (!v.startsWith('-') || v === '-') break;
    flags.push(v);
    if (spec.query?.test(v)) return null;
    if (spec.split?.test(v)) {
      const inline = v.includes('=') ? v.slice(v.indexOf('=') + 1) : v.length > 2 && !v.startsWith('--') ? v.slice(2) : null;
      const carried = inline ?? words[++j]?.value ?? '';
      out.payloads.push([carried, ...words.slice(j + 1).map((w) => w.raw)].join(' '));
      return words.length;
    }
    if (v.startsWith('--')) {
      if (!v.includes('=') && spec.long?.includes(v.slice(2))) j++;
      continue;
    }
    for (let k = 1; k < v.length; k++) {
      if (spec.short?.includes(v[k]!)) {
        if (k === v.length - 1) j++;
        break;
      }
    }
  }
  if (spec.assigns) while (j < words.length && ASSIGNMENT.test(words[j]!.value)) out.assigns.push(words[j++]!.value);
  return j + (spec.operands ?? 0);
}

/** Strips assignments, keywords and launchers off a simple command's words. */
export function peel(words: Word[]): Peeled {
  const out: Peeled = { wrappers: [], assigns: [], words, payloads: [], wrapperFlags: [] };
  let ws = words;
  for (let guard = 0; guard < 32 && ws.length; guard++) {
    while (ws.length && ASSIGNMENT.test(ws[0]!.value) && !ws[0]!.raw.startsWith('"') && !ws[0]!.raw.startsWith("'")) {
      out.assigns.push(ws[0]!.value);
      ws = ws.slice(1);
    }
    const first = ws[0];
    if (!first) break;
    if (KEYWORDS.has(first.value) && !first.quoted) {
      ws = ws.slice(1);
      continue;
    }
    const name = basename(first.value).toLowerCase();
    const spec = LAUNCHERS[name];
    if (!spec) break;
    out.wrappers.push(name);
    const next = skipOptions(ws, spec, out);
    ws = next === null ? [] : ws.slice(next);
  }
  out.words = ws;
  return out;
}
