import {
  BLOCK_DEVICE,
  PROJECT_FILE,
  ROOT_PATH,
  SENSITIVE,
  SYSTEM_CONFIG,
  operands,
  rmArgs,
  sendsSigkill,
  subcommand,
  writeTargets,
  type WriteTarget,
} from './facts.js';
import { FORK_BOMB, MKFS, wipesDevice } from './hardline.js';
import type { Pattern } from './patterns.js';
import { SHELLS, type Command } from './shell.js';

/**
 * The first half of Hermes' DANGEROUS_PATTERNS, in its order (the first match is the approval
 * key, so order decides what `command_allowlist` stores): deletes, permissions, disks, SQL,
 * services, kills, remote code, writes to sensitive and project files. Keys are Hermes'
 * descriptions, exactly. Detection runs on parsed commands, so quoted text is an argument.
 */

const rm = (c: Command) => (c.name === 'rm' ? rmArgs(c) : null);
export const DOWNLOADERS = new Set(['curl', 'wget']);
const INTERPRETERS = /^(python[\d.]*|perl|ruby|node)$/;

/** Later commands in the same pipeline (what `a | b` feeds). */
export const downstream = (c: Command): Command[] => c.pipeline.slice(c.pipeline.indexOf(c) + 1);
const readsStdinCode = (c: Command): boolean => SHELLS.has(c.name) || (INTERPRETERS.test(c.name) && (c.argv.length === 1 || c.argv[1] === '-'));
const pipesToShell = (c: Command): boolean => downstream(c).some(readsStdinCode);
export const writesTo = (c: Command, paths: readonly RegExp[], via: readonly WriteTarget['via'][]): boolean =>
  writeTargets(c).some((w) => via.includes(w.via) && paths.some((p) => p.test(w.path)));

/** `chmod 777`/`666` (any world-writable octal), `o+w`, `a+w` among its arguments. */
const worldWritable = (a: string): boolean =>
  /^0*[0-7]?[0-7]{2}[2367]$/.test(a) || (/^[ugoa+\-=rwxXst,]+$/.test(a) && /(?:^|,)[ugoa]*[oa][ugoa]*[+=][rwxXst]*w/.test(a));
const chmodWorld = (c: Command): boolean => c.name === 'chmod' && c.argv.slice(1).some(worldWritable);
/** Hermes reports `--recursive` separately unless the mode right after the flags is 777/666/o+w/a+w. */
const chmodLong = (c: Command): boolean => chmodWorld(c) && c.argv.includes('--recursive') && !/^(777|666|[oa]\+[rwx]*w)/.test(operands(c.argv)[0] ?? '');
const chownRoot = (c: Command): boolean => c.name === 'chown' && /^(root|0)([:.]|$)/.test(operands(c.argv)[0] ?? '');
const killall = (c: Command, flag: RegExp): boolean =>
  c.name === 'killall' && c.argv.slice(1).some((a, j, all) => flag.test(a) || flag.test(`${a} ${all[j + 1] ?? ''}`));
const decodes = (c: Command): 'base' | 'xxd' | 'openssl' | null => {
  if (/^base(64|32|16)$/.test(c.name) && c.argv.some((a) => /^(-[dD]|--decode)$/.test(a))) return 'base';
  if (c.name === 'xxd' && c.argv.includes('-r')) return 'xxd';
  if (c.name === 'openssl' && c.argv.some((a) => a === 'base64' || a === 'enc') && c.argv.some((a) => /^-[dD]$/.test(a))) return 'openssl';
  return null;
};
/** Instance-metadata endpoints (AWS/Azure/GCP/OpenStack, AWS IPv6, Alibaba): live cloud credentials. */
const METADATA = /(?<![\d.])(?:169\.254\.169\.254|100\.100\.100\.200)(?![\d.])|(?<![\w.-])metadata\.google\.internal(?![\w.-])|fd00:ec2::254/i;

export const DANGEROUS_SYSTEM: readonly Pattern[] = [
  { key: 'delete in root path', names: ['rm'], command: (c) => !!rm(c)?.operands.some((o) => o.startsWith('/') || ROOT_PATH.test(o)) },
  { key: 'recursive delete', names: ['rm'], command: (c) => rm(c)?.style === 'short' },
  { key: 'recursive delete (long flag)', names: ['rm'], command: (c) => rm(c)?.style === 'long' },
  { key: 'recursive delete (flags after operands)', names: ['rm'], command: (c) => rm(c)?.style === 'after' },
  { key: 'world/other-writable permissions', names: ['chmod'], command: (c) => chmodWorld(c) && !chmodLong(c) },
  { key: 'recursive world/other-writable (long flag)', names: ['chmod'], command: chmodLong },
  { key: 'recursive chown to root', names: ['chown'], command: (c) => chownRoot(c) && c.argv.some((a) => /^-[a-zA-Z]*R/.test(a)) },
  { key: 'recursive chown to root (long flag)', names: ['chown'], command: (c) => chownRoot(c) && c.argv.some((a) => a.startsWith('--recur')) },
  { key: 'format filesystem', command: (c) => MKFS.test(c.name) },
  { key: 'disk copy', names: ['dd'], command: (c) => c.name === 'dd' && c.argv.some((a) => a.startsWith('if=')) },
  { key: 'raw block device wipe (shred/wipefs/blkdiscard/sgdisk)', names: ['shred', 'blkdiscard', 'wipefs', 'sgdisk'], command: wipesDevice },
  { key: 'write to block device', command: (c) => writesTo(c, [BLOCK_DEVICE], ['redirect']) },
  // SQL is nearly always quoted (`psql -c "DROP TABLE t"`), so these scan all the text.
  { key: 'SQL DROP', analysis: (a) => /\bDROP\s+(?:TABLE|DATABASE|SCHEMA)\b/i.test(a.text) },
  { key: 'SQL DELETE without WHERE', analysis: (a) => /\bDELETE\s+FROM\b(?![^;\n]*\bWHERE\b)/i.test(a.text) },
  { key: 'SQL TRUNCATE', analysis: (a) => /\bTRUNCATE\s+(?:TABLE\s+)?[\w"`]/i.test(a.text) },
  { key: 'overwrite system config', command: (c) => writesTo(c, [SYSTEM_CONFIG], ['redirect', 'dd']) },
  {
    key: 'stop/restart system service',
    names: ['systemctl', 'service'],
    command: (c) =>
      (c.name === 'systemctl' && /^(stop|restart|try-restart|reload-or-restart|disable|mask|kill)$/.test(subcommand(c.argv, /^-[HMtspno]$/)[0] ?? '')) ||
      (c.name === 'service' && /^(stop|restart)$/.test(c.argv[2] ?? '')),
  },
  { key: 'force kill processes', names: ['pkill'], command: (c) => c.name === 'pkill' && sendsSigkill(c.argv) },
  { key: 'force kill processes (killall -KILL)', names: ['killall'], command: (c) => killall(c, /^-(9|KILL|SIGKILL)$/i) },
  {
    key: 'force kill processes (killall -s KILL)',
    names: ['killall'],
    command: (c) => killall(c, /^(-s|--signal) (9|KILL|SIGKILL)$|^--signal=(9|KILL|SIGKILL)$/i),
  },
  { key: 'kill processes by regex (killall -r)', names: ['killall'], command: (c) => killall(c, /^(-[a-zA-Z]*r[a-zA-Z]*|--regexp)$/) },
  { key: 'fork bomb', analysis: (a) => a.codeTexts.some((t) => FORK_BOMB.test(t)) },
  { key: 'pipe remote content to shell', names: ['curl', 'wget'], command: (c) => DOWNLOADERS.has(c.name) && pipesToShell(c) },
  {
    key: 'execute remote script via process substitution',
    names: [...SHELLS],
    command: (c) => SHELLS.has(c.name) && c.substCommands.some((s) => DOWNLOADERS.has(s.name)),
  },
  {
    key: 'execute remote content via command substitution',
    names: ['source', '.', 'eval'],
    command: (c) => (c.name === 'source' || c.name === '.' || c.name === 'eval') && c.substCommands.some((s) => DOWNLOADERS.has(s.name)),
  },
  { key: 'cloud metadata endpoint access (instance credentials)', analysis: (a) => METADATA.test(a.text) },
  {
    key: 'pipe decoded content to shell (possible command obfuscation)',
    names: ['base64', 'base32', 'base16'],
    command: (c) => decodes(c) === 'base' && pipesToShell(c),
  },
  { key: 'pipe xxd-decoded content to shell (possible command obfuscation)', names: ['xxd'], command: (c) => decodes(c) === 'xxd' && pipesToShell(c) },
  {
    key: 'pipe tr-transformed output to shell (possible command obfuscation)',
    names: ['tr'],
    command: (c) => c.name === 'tr' && pipesToShell(c) && c.pipeline.slice(0, c.pipeline.indexOf(c)).some((p) => p.name === 'echo' || p.name === 'printf'),
  },
  {
    key: 'pipe openssl-decoded content to shell (possible command obfuscation)',
    names: ['openssl'],
    command: (c) => decodes(c) === 'openssl' && pipesToShell(c),
  },
  { key: 'overwrite system file via tee', names: ['tee'], command: (c) => writesTo(c, SENSITIVE, ['tee']) },
  { key: 'overwrite system file via redirection', command: (c) => writesTo(c, SENSITIVE, ['redirect']) },
  { key: 'overwrite project env/config via tee', names: ['tee'], command: (c) => writesTo(c, [PROJECT_FILE], ['tee']) },
  { key: 'overwrite project env/config via redirection', command: (c) => writesTo(c, [PROJECT_FILE], ['redirect']) },
];
