import {
  BLOCK_DEVICE,
  HOME_PATH,
  HOME_PREFIX,
  ROOT_PATH,
  SYSTEM_DIR,
  evalFlag,
  killTargets,
  operands,
  rmArgs,
  sendsSigkill,
  subcommand,
  writeTargets,
} from './facts.js';
import { SHELLS, analyze, type Analysis, type Command } from './shell.js';

export interface PatternMatch {
  /** Stable snake_case id: what `command_allowlist` and session approvals store. */
  key: string;
  description: string;
}

interface Pattern extends PatternMatch {
  /** Matches one parsed command (nested ones included). */
  command?: (c: Command) => boolean;
  /** Matches the whole analysis (SQL text, fork bombs). */
  analysis?: (a: Analysis) => boolean;
  /** Hermes Agent's own keys for the same pattern (its descriptions), honoured in allowlists. */
  hermes?: string[];
}

/**
 * How quoted text is treated: detectors look at parsed commands, so `echo "rm -rf /"` is an
 * argument and matches nothing. Quoted text that a shell executes (`sh -c '…'`, `eval`, `ssh host
 * '…'`, `$(…)` inside double quotes) is parsed as code. SQL patterns are the exception: SQL is
 * nearly always quoted (`psql -c "DROP TABLE t"`), so they scan all the text and `echo "DROP
 * TABLE t"` asks too — conservative on purpose.
 */

const rm = (c: Command): ReturnType<typeof rmArgs> | null => (c.name === 'rm' ? rmArgs(c) : null);
/** `rm -r *` (or `.`) after `cd /` or `cd ~` deletes the same as naming the directory. */
const wipesCwd = (c: Command, where: Command['cwd']): boolean => {
  const r = rm(c);
  return !!r && r.recursive && c.cwd === where && r.operands.some((o) => /^(\.\/?)?\*$|^\.\/?$/.test(o));
};
const FORK_BOMB = /(?:^|[\s;&|(){}])([\w:.-]+)\s*\(\s*\)\s*\{\s*\1\s*\|\s*\1\s*&\s*;?\s*\}\s*;?\s*\1(?![\w:.-])/;
const MKFS = /^(mkfs(\.[a-z0-9]+)?|mke2fs|mkswap|newfs(_[a-z0-9]+)?)$/;
const DOWNLOADERS = new Set(['curl', 'wget']);
const INTERPRETERS = /^(python[\d.]*|perl|ruby|node)$/;
const ETC = /^\/(?:private\/)?etc(?:\/|$)/;
const SSH_DIR = new RegExp(`^${HOME_PREFIX}/\\.ssh(?:/|$)`);
const hermesFile = (file: string): RegExp =>
  new RegExp(`(?:^${HOME_PREFIX}/\\.hermes|^\\$\\{?HERMES_HOME\\}?)/(?:profiles/[^/]+/)?${file.replace('.', '\\.')}$`);
const HERMES_ENV = hermesFile('.env');
const HERMES_CONFIG = hermesFile('config.yaml');
const SYSTEM_PATH = /^\/(?:bin|boot|etc|lib\w*|opt|sbin|usr|var(?!\/(?:tmp|folders)(?:\/|$))|System|Library|Applications|private\/(?:etc|var))(?:\/|$)/;

/** Later commands in the same pipeline (what `a | b` feeds). */
const downstream = (c: Command): Command[] => c.pipeline.slice(c.pipeline.indexOf(c) + 1);
const runsAsRoot = (c: Command): boolean => c.wrappers.some((w) => w === 'sudo' || w === 'doas' || w === 'pkexec');
const readsStdinCode = (c: Command): boolean => SHELLS.has(c.name) || (INTERPRETERS.test(c.name) && (c.argv.length === 1 || c.argv[1] === '-'));
const writesTo = (c: Command, path: RegExp, via?: string[]): boolean => writeTargets(c).some((w) => path.test(w.path) && (!via || via.includes(w.via)));
const dockerArgs = (c: Command): string[] => subcommand(c.argv, /^(-H|--host|-c|--context|--config|-l|--log-level|--url|--connection|--identity)$/);
const composeVerb = (args: string[]): string | undefined =>
  subcommand(['compose', ...args], /^(-f|--file|-p|--project-name|--profile|--env-file|--project-directory|--ansi|--parallel|--progress)$/)[0];
const DAEMON_ENV = /^(DOCKER_HOST|DOCKER_CONTEXT|CONTAINER_HOST|CONTAINER_CONNECTION)=./;

/** shred/blkdiscard, `wipefs -a` (not its `-n` dry run), `sgdisk --zap-all` on a raw disk. */
const wipesDevice = (c: Command): boolean =>
  operands(c.argv).some((o) => BLOCK_DEVICE.test(o)) &&
  (c.name === 'shred' ||
    c.name === 'blkdiscard' ||
    (c.name === 'wipefs' && c.argv.some((a) => /^(-[a-z]*a[a-z]*|--all)$/.test(a)) && !c.argv.some((a) => /^(-[a-z]*n[a-z]*|--no-act)$/.test(a))) ||
    (c.name === 'sgdisk' && c.argv.some((a) => /^(-Z|--zap-all|-o|--clear)$/.test(a))));

/** Never run, whatever the mode: no recovery path (whole disks; the root, a system or the home directory). */
export const HARDLINE: readonly Pattern[] = [
  {
    key: 'rm_root',
    description: 'recursive delete of the root filesystem',
    command: (c) => !!rm(c)?.operands.some((o) => ROOT_PATH.test(o)) || wipesCwd(c, 'root'),
  },
  { key: 'rm_system_dir', description: 'delete a system directory (/etc, /usr, /home…)', command: (c) => !!rm(c)?.operands.some((o) => SYSTEM_DIR.test(o)) },
  { key: 'rm_home', description: 'delete the home directory', command: (c) => !!rm(c)?.operands.some((o) => HOME_PATH.test(o)) || wipesCwd(c, 'home') },
  { key: 'fork_bomb', description: 'fork bomb', analysis: (a) => a.codeTexts.some((t) => FORK_BOMB.test(t)) },
  { key: 'mkfs_device', description: 'format a disk device', command: (c) => MKFS.test(c.name) && operands(c.argv).some((o) => BLOCK_DEVICE.test(o)) },
  { key: 'dd_device', description: 'dd onto a raw disk device', command: (c) => c.name === 'dd' && writesTo(c, BLOCK_DEVICE) },
  { key: 'overwrite_device', description: 'overwrite a raw disk device', command: (c) => writesTo(c, BLOCK_DEVICE, ['redirect', 'tee', 'copy']) },
  { key: 'wipe_device', description: 'wipe a raw disk device', command: (c) => wipesDevice(c) },
  {
    key: 'remote_script_root_shell_at_root',
    description: 'pipe a downloaded script into a root shell at /',
    command: (c) => DOWNLOADERS.has(c.name) && downstream(c).some((d) => SHELLS.has(d.name) && runsAsRoot(d) && (d.cwd === 'root' || d.argv.includes('/'))),
  },
];

/** Need the user's approval unless allowlisted or approved for the session. */
export const DANGEROUS: readonly Pattern[] = [
  {
    key: 'recursive_delete',
    description: 'recursive delete',
    hermes: ['recursive delete', 'recursive delete (long flag)', 'recursive delete (flags after operands)'],
    command: (c) => !!rm(c)?.recursive,
  },
  {
    key: 'delete_system_path',
    description: 'delete in a system path',
    hermes: ['delete in root path'],
    command: (c) => !!rm(c)?.operands.some((o) => SYSTEM_PATH.test(o) || ROOT_PATH.test(o)),
  },
  {
    key: 'chmod_world_writable',
    description: 'world/other-writable permissions (chmod 777/666, o+w, a+w)',
    hermes: ['world/other-writable permissions', 'recursive world/other-writable (long flag)'],
    command: (c) =>
      c.name === 'chmod' &&
      c.argv.slice(1).some((a) => /^0*[0-7]?[0-7]{2}[2367]$/.test(a) || (/^[ugoa+\-=rwxXst,]+$/.test(a) && /(?:^|,)[ugoa]*[oa][ugoa]*[+=][rwxXst]*w/.test(a))),
  },
  {
    key: 'chown_root_recursive',
    description: 'recursive chown to root',
    hermes: ['recursive chown to root', 'recursive chown to root (long flag)'],
    command: (c) =>
      c.name === 'chown' && c.argv.some((a) => /^-[a-zA-Z]*R/.test(a) || a === '--recursive') && /^(root|0)([:.]|$)/.test(operands(c.argv)[0] ?? ''),
  },
  { key: 'mkfs', description: 'format a filesystem (mkfs)', hermes: ['format filesystem'], command: (c) => MKFS.test(c.name) },
  { key: 'dd', description: 'disk copy (dd)', hermes: ['disk copy'], command: (c) => c.name === 'dd' && c.argv.some((a) => a.startsWith('if=')) },
  {
    key: 'block_device_write',
    description: 'write to a raw disk device',
    hermes: ['write to block device'],
    command: (c) => writesTo(c, BLOCK_DEVICE) || wipesDevice(c),
  },
  { key: 'sql_drop', description: 'SQL DROP TABLE/DATABASE', hermes: ['SQL DROP'], analysis: (a) => /\bDROP\s+(?:TABLE|DATABASE|SCHEMA)\b/i.test(a.text) },
  {
    key: 'sql_delete_without_where',
    description: 'SQL DELETE without WHERE',
    hermes: ['SQL DELETE without WHERE'],
    analysis: (a) => /\bDELETE\s+FROM\b(?![^;]*\bWHERE\b)/i.test(a.text),
  },
  { key: 'sql_truncate', description: 'SQL TRUNCATE TABLE', hermes: ['SQL TRUNCATE'], analysis: (a) => /\bTRUNCATE\s+TABLE\b/i.test(a.text) },
  {
    key: 'write_system_config',
    description: 'overwrite a file in /etc',
    hermes: ['overwrite system config', 'overwrite system file via tee', 'overwrite system file via redirection'],
    command: (c) => writesTo(c, ETC, ['redirect', 'tee', 'dd']),
  },
  {
    key: 'copy_into_system_config',
    description: 'copy/move a file into /etc',
    hermes: ['copy/move file into system config path'],
    command: (c) => writesTo(c, ETC, ['copy']),
  },
  {
    key: 'sed_inplace_system_config',
    description: 'in-place edit (sed -i) of a file in /etc',
    hermes: ['in-place edit of system config', 'in-place edit of system config (long flag)'],
    command: (c) => writesTo(c, ETC, ['sed']),
  },
  {
    key: 'write_ssh_dir',
    description: 'write into ~/.ssh',
    hermes: ['overwrite system file via redirection', 'copy/move file into sensitive credential/SSH/shell-rc path'],
    command: (c) => writesTo(c, SSH_DIR),
  },
  {
    key: 'write_hermes_env',
    description: 'write to Hermes secrets (~/.hermes/.env)',
    hermes: ['in-place edit of Hermes config/env'],
    command: (c) => writesTo(c, HERMES_ENV),
  },
  {
    key: 'write_hermes_config',
    description: "write to Hermes' config.yaml (approval settings)",
    hermes: ['in-place edit of Hermes config/env'],
    command: (c) => writesTo(c, HERMES_CONFIG),
  },
  {
    key: 'systemctl_service_change',
    description: 'stop/restart/disable/mask a system service',
    hermes: ['stop/restart system service'],
    command: (c) =>
      (c.name === 'systemctl' && /^(stop|restart|try-restart|reload-or-restart|disable|mask|kill)$/.test(subcommand(c.argv, /^-[HMtspno]$/)[0] ?? '')) ||
      (c.name === 'service' && /^(stop|restart)$/.test(c.argv[2] ?? '')),
  },
  {
    key: 'system_shutdown',
    description: 'shut down or reboot the machine',
    hermes: ['system shutdown/reboot'],
    command: (c) =>
      /^(shutdown|reboot|halt|poweroff)$/.test(c.name) ||
      (/^(init|telinit)$/.test(c.name) && /^[06]$/.test(c.argv[1] ?? '')) ||
      (c.name === 'systemctl' && /^(poweroff|reboot|halt|kexec)$/.test(subcommand(c.argv, /^-[HMtspno]$/)[0] ?? '')),
  },
  {
    key: 'kill_all_processes',
    description: 'kill all processes (kill -9 -1)',
    hermes: ['kill all processes'],
    command: (c) => c.name === 'kill' && killTargets(c.argv).includes('-1'),
  },
  {
    key: 'force_kill',
    description: 'force-kill processes by name (pkill/killall -9)',
    hermes: ['force kill processes', 'force kill processes (killall -KILL)'],
    command: (c) => (c.name === 'pkill' || c.name === 'killall') && sendsSigkill(c.argv),
  },
  {
    key: 'kill_hermes',
    description: 'kill the Hermes agent or gateway (self-termination)',
    hermes: ['kill hermes/gateway process (self-termination)'],
    command: (c) =>
      ((c.name === 'pkill' || c.name === 'killall') && operands(c.argv, 'sUuGgPt').some((a) => /hermes|gateway/i.test(a))) ||
      (c.name === 'kill' && c.substCommands.some((s) => /^(pgrep|pidof)$/.test(s.name) && s.argv.some((a) => /hermes|gateway/i.test(a)))),
  },
  { key: 'fork_bomb', description: 'fork bomb', hermes: ['fork bomb'], analysis: (a) => a.codeTexts.some((t) => FORK_BOMB.test(t)) },
  { key: 'shell_c', description: 'run a command string through a shell (sh/bash -c)', command: (c) => c.shellMode === 'c' },
  {
    key: 'shell_stdin',
    description: 'feed a script to a shell on stdin (heredoc, here-string, pipe)',
    hermes: ['shell execution via heredoc'],
    command: (c) => c.shellMode === 'stdin',
  },
  { key: 'python_c', description: 'run inline Python (python -c)', hermes: ['script execution via -e/-c flag'], command: (c) => evalFlag(c) === 'python' },
  { key: 'perl_e', description: 'run inline Perl (perl -e)', hermes: ['script execution via -e/-c flag'], command: (c) => evalFlag(c) === 'perl' },
  { key: 'ruby_e', description: 'run inline Ruby (ruby -e)', hermes: ['script execution via -e/-c flag'], command: (c) => evalFlag(c) === 'ruby' },
  { key: 'node_e', description: 'run inline JavaScript (node -e/-c)', hermes: ['script execution via -e/-c flag'], command: (c) => evalFlag(c) === 'node' },
  {
    key: 'curl_pipe_shell',
    description: 'pipe downloaded content into a shell',
    hermes: ['pipe remote content to shell'],
    command: (c) => DOWNLOADERS.has(c.name) && downstream(c).some(readsStdinCode),
  },
  {
    key: 'remote_script_exec',
    description: 'run a downloaded script (bash <(curl …), eval "$(curl …)")',
    hermes: ['execute remote script via process substitution', 'execute remote content via command substitution'],
    command: (c) => (SHELLS.has(c.name) || c.name === 'source' || c.name === '.' || c.name === 'eval') && c.substCommands.some((s) => DOWNLOADERS.has(s.name)),
  },
  {
    key: 'decode_pipe_shell',
    description: 'pipe decoded content into a shell (obfuscated command)',
    hermes: ['pipe decoded content to shell (possible command obfuscation)'],
    command: (c) =>
      ((/^base(64|32|16)$/.test(c.name) && c.argv.some((a) => /^(-[dD]|--decode)$/.test(a))) ||
        (c.name === 'xxd' && c.argv.includes('-r')) ||
        (c.name === 'openssl' && c.argv.includes('-d'))) &&
      downstream(c).some(readsStdinCode),
  },
  { key: 'xargs_rm', description: 'xargs with rm', hermes: ['xargs with rm'], command: (c) => c.name === 'rm' && c.wrappers.includes('xargs') },
  {
    key: 'find_exec_rm',
    description: 'find -exec rm',
    hermes: ['find -exec/-execdir rm'],
    command: (c) => c.name === 'find' && c.execs.some((e) => e.name === 'rm'),
  },
  { key: 'find_delete', description: 'find -delete', hermes: ['find -delete'], command: (c) => c.name === 'find' && c.argv.includes('-delete') },
  {
    key: 'hermes_gateway_stop',
    description: 'stop/restart the Hermes gateway (kills running agents)',
    hermes: ['stop/restart hermes gateway (kills running agents)'],
    command: (c) => c.name === 'hermes' && /^gateway (stop|restart)\b/.test(subcommand(c.argv, /^(-p|--profile)$/).join(' ')),
  },
  {
    key: 'gateway_outside_service',
    description: 'start the Hermes gateway in the background, outside its service manager',
    hermes: ["start gateway outside systemd (use 'systemctl --user restart hermes-gateway')"],
    command: (c) =>
      c.name === 'hermes' &&
      /^gateway run\b/.test(subcommand(c.argv, /^(-p|--profile)$/).join(' ')) &&
      (c.background || c.wrappers.some((w) => w === 'nohup' || w === 'setsid')),
  },
  {
    key: 'docker_lifecycle',
    description: 'stop/kill/restart/remove containers (docker, compose)',
    hermes: ['docker compose restart/stop/kill/down (container lifecycle)', 'docker restart/stop/kill (container lifecycle)'],
    command: (c) => {
      if (/^(docker|podman)-compose$/.test(c.name)) return /^(stop|kill|restart|down|rm)$/.test(composeVerb(c.argv.slice(1)) ?? '');
      if (c.name !== 'docker' && c.name !== 'podman') return false;
      const [sub = '', verb = '', ...rest] = dockerArgs(c);
      if (sub === 'compose') return /^(stop|kill|restart|down|rm)$/.test(composeVerb([verb, ...rest]) ?? '');
      return /^(stop|kill|restart|rm)$/.test(sub) || (sub === 'container' && /^(stop|kill|restart|rm|prune)$/.test(verb));
    },
  },
  {
    key: 'docker_remote_daemon',
    description: 'point docker/podman at another daemon (-H, --context, DOCKER_HOST=, podman --remote)',
    hermes: [
      'docker with remote daemon redirect (-H/--host)',
      'docker with daemon redirect (--context: alternate daemon)',
      'docker context use (switches default daemon for future commands)',
      'podman remote mode (-r/--remote: remote daemon)',
      'podman with remote daemon redirect (--url/--connection/--identity)',
      'docker/podman daemon redirect via environment (DOCKER_HOST/CONTAINER_HOST)',
    ],
    command: (c) => {
      if (c.assigns.some((a) => DAEMON_ENV.test(a)) || (c.name === 'export' && c.argv.some((a) => DAEMON_ENV.test(a)))) return true;
      const globals = c.argv.slice(1, c.argv.length - dockerArgs(c).length);
      if (c.name === 'docker') return globals.some((g) => /^(-H|--host|-c|--context)(=|$)/.test(g)) || dockerArgs(c).slice(0, 2).join(' ') === 'context use';
      return c.name === 'podman' && globals.some((g) => /^(-r|--remote|--url|--connection|--identity)(=|$)/.test(g));
    },
  },
  { key: 'unparseable_command', description: 'command could not be parsed reliably (unbalanced quotes or too deeply nested)', analysis: (a) => a.malformed },
];

const ALIASES = new Map(DANGEROUS.map((p) => [p.key, [p.key, ...(p.hermes ?? [])]]));

/** Every allowlist entry that approves `key`: the key and Hermes Agent's names for the same pattern. */
export function approvalNames(key: string): string[] {
  return ALIASES.get(key) ?? [key];
}

function matches(patterns: readonly Pattern[], a: Analysis, firstOnly: boolean): PatternMatch[] {
  const found = new Map<string, PatternMatch>();
  for (const p of patterns) {
    if (found.has(p.key)) continue;
    if (p.analysis?.(a) || (p.command && a.commands.some(p.command))) {
      found.set(p.key, { key: p.key, description: p.description });
      if (firstOnly) break;
    }
  }
  return [...found.values()];
}

/** The first hardline pattern the command matches: it must never run, in any mode. */
export function detectHardline(command: string): PatternMatch | null {
  return matches(HARDLINE, analyze(command), true)[0] ?? null;
}

/** Every dangerous pattern the command matches, once per key, in table order. */
export function detectDangerous(command: string): PatternMatch[] {
  return matches(DANGEROUS, analyze(command), false);
}
