import { BLOCK_DEVICE, HOME_PATH, ROOT_PATH, SYSTEM_DIR, killTargets, operands, rmArgs, subcommand, writeTargets } from './facts.js';
import type { Pattern } from './patterns.js';
import type { Command } from './shell.js';

/**
 * Never run, whatever the mode (Hermes' HARDLINE_PATTERNS): no recovery path — the root, a system
 * or the home directory, whole disks, shutdown, killing every process. Keys are Hermes' own
 * descriptions, so what the model is told reads as the CLI's message does.
 */

const rm = (c: Command) => (c.name === 'rm' ? rmArgs(c) : null);
/** `rm -r *` (or `.`) after `cd /` or `cd ~` deletes the same as naming the directory. */
const wipesCwd = (c: Command, where: Command['cwd']): boolean => {
  const r = rm(c);
  return !!r && r.recursive && c.cwd === where && r.operands.some((o) => /^(\.\/?)?\*$|^\.\/?$/.test(o));
};
export const FORK_BOMB = /(?:^|[\s;&|(){}])([\w:.-]+)\s*\(\s*\)\s*\{\s*\1\s*\|\s*\1\s*&\s*;?\s*\}\s*;?\s*\1(?![\w:.-])/;
/** mkfs in every spelling and mke2fs (the same binary): unconditional, as in Hermes. */
export const MKFS = /^(mkfs(\.[a-z0-9]+)?|mke2fs)$/;
/** These write a file unless pointed at a raw disk (`mkswap /swapfile` keeps working). */
const FORMAT_DEVICE = /^(mkswap|newfs(_[a-z0-9]+)?)$/;
const DISKUTIL_ERASE = /^(erasedisk|erasevolume|zerodisk|randomdisk|secureerase|reformat|partitiondisk)$/;
const systemctlVerb = (c: Command): string => (c.name === 'systemctl' ? (subcommand(c.argv, /^-[HMtspno]$/)[0] ?? '') : '');
const onDevice = (c: Command): boolean => operands(c.argv).some((o) => BLOCK_DEVICE.test(o));

/** shred/blkdiscard, `wipefs -a` (not its `-n` dry run), `sgdisk --zap-all` on a raw disk. */
export const wipesDevice = (c: Command): boolean =>
  onDevice(c) &&
  (c.name === 'shred' ||
    c.name === 'blkdiscard' ||
    (c.name === 'wipefs' && c.argv.some((a) => /^(-[a-z]*a[a-z]*|--all)$/.test(a)) && !c.argv.some((a) => /^(-[a-z]*n[a-z]*|--no-act)$/.test(a))) ||
    (c.name === 'sgdisk' && c.argv.some((a) => /^(-Z|--zap-all|-o|--clear)$/.test(a))));

export const HARDLINE: readonly Pattern[] = [
  { key: 'recursive delete of root filesystem', names: ['rm'], command: (c) => !!rm(c)?.operands.some((o) => ROOT_PATH.test(o)) || wipesCwd(c, 'root') },
  { key: 'recursive delete of system directory', names: ['rm'], command: (c) => !!rm(c)?.operands.some((o) => SYSTEM_DIR.test(o)) },
  { key: 'recursive delete of home directory', names: ['rm'], command: (c) => !!rm(c)?.operands.some((o) => HOME_PATH.test(o)) || wipesCwd(c, 'home') },
  {
    key: 'format filesystem (mkfs)',
    command: (c) =>
      MKFS.test(c.name) ||
      (FORMAT_DEVICE.test(c.name) && onDevice(c)) ||
      (c.name === 'diskutil' && c.argv.slice(1, 3).some((a) => DISKUTIL_ERASE.test(a.toLowerCase()))),
  },
  { key: 'wipe raw block device', names: ['shred', 'blkdiscard', 'wipefs', 'sgdisk'], command: wipesDevice },
  { key: 'dd to raw block device', names: ['dd'], command: (c) => c.name === 'dd' && writeTargets(c).some((w) => w.via === 'dd' && BLOCK_DEVICE.test(w.path)) },
  // Only `>`, as in Hermes: `tee /dev/sda` and `cp x /dev/sda` ask ("overwrite system file via tee", …).
  { key: 'redirect to raw block device', command: (c) => writeTargets(c).some((w) => w.via === 'redirect' && BLOCK_DEVICE.test(w.path)) },
  { key: 'fork bomb', analysis: (a) => a.codeTexts.some((t) => FORK_BOMB.test(t)) },
  { key: 'kill all processes', names: ['kill'], command: (c) => c.name === 'kill' && killTargets(c.argv).includes('-1') },
  { key: 'system shutdown/reboot', names: ['shutdown', 'reboot', 'halt', 'poweroff'], command: (c) => /^(shutdown|reboot|halt|poweroff)$/.test(c.name) },
  { key: 'init 0/6 (shutdown/reboot)', names: ['init'], command: (c) => c.name === 'init' && /^[06]$/.test(c.argv[1] ?? '') },
  { key: 'systemctl poweroff/reboot', names: ['systemctl'], command: (c) => /^(poweroff|reboot|halt|kexec)$/.test(systemctlVerb(c)) },
  { key: 'telinit 0/6 (shutdown/reboot)', names: ['telinit'], command: (c) => c.name === 'telinit' && /^[06]$/.test(c.argv[1] ?? '') },
];

/** Hermes' description of a command too large to inspect (it is refused, not asked). */
export const PARSER_LIMIT = 'command parser limit exceeded';
