import { HERMES_CONFIG, HERMES_ENV, PROJECT_FILE, SENSITIVE, SYSTEM_CONFIG, USER_SENSITIVE, interpreterExec, memo, operands, subcommand } from './facts.js';
import { writesTo } from './dangerous-system.js';
import type { Pattern } from './patterns.js';
import type { Command } from './shell.js';

/**
 * The second half of Hermes' DANGEROUS_PATTERNS, in its order: find/xargs deletes, Hermes' own
 * lifecycle, containers, copies and in-place edits of sensitive files, heredocs, git, sudo,
 * package removal — then what Hermes finds by parsing rather than by pattern (inline code,
 * `sh -c`, program-running options), which it checks last.
 */

const HERMES_FILES = [HERMES_CONFIG, HERMES_ENV];
/** What writeTargets reads as a copy destination. */
const COPIERS = ['cp', 'mv', 'install', 'ln', 'rsync'];
const hermesSub = (c: Command): string => (c.name === 'hermes' ? subcommand(c.argv, /^(-p|--profile)$/).join(' ') : '');
const dockerArgs = (c: Command): string[] => subcommand(c.argv, /^(-H|--host|-c|--context|--config|-l|--log-level|--url|--connection|--identity)$/);
const composeVerb = (args: string[]): string | undefined =>
  subcommand(['compose', ...args], /^(-f|--file|-p|--project-name|--profile|--env-file|--project-directory|--ansi|--parallel|--progress)$/)[0];
const dockerGlobals = (c: Command): string[] => c.argv.slice(1, c.argv.length - dockerArgs(c).length);
const DAEMON_ENV = /^(DOCKER_HOST|DOCKER_CONTEXT|CONTAINER_HOST|CONTAINER_CONNECTION)=./i;
const LIFECYCLE = /^(stop|kill|restart|down|rm)$/;
const dockerCompose = (c: Command): boolean => {
  if (/^(docker|podman)-compose$/.test(c.name)) return LIFECYCLE.test(composeVerb(c.argv.slice(1)) ?? '');
  const [sub, verb = '', ...rest] = c.name === 'docker' || c.name === 'podman' ? dockerArgs(c) : [];
  return sub === 'compose' && LIFECYCLE.test(composeVerb([verb, ...rest]) ?? '');
};
const SELF = /hermes|gateway|cli\.py/i;
const git = (c: Command): string[] => (c.name === 'git' ? subcommand(c.argv, /^(-C|-c|--git-dir|--work-tree|--namespace|--exec-path|--config-env)$/) : []);
const gitHas = (c: Command, sub: string, flag: RegExp): boolean => {
  const [s, ...args] = git(c);
  return s === sub && args.some((a) => flag.test(a));
};
const branchOrder = (c: Command): 'delete-first' | 'force-first' | null => {
  const [s, ...args] = git(c);
  if (s !== 'branch') return null;
  const del = args.findIndex((a) => a === '-d' || a === '--delete');
  const force = args.findIndex((a) => a === '-f' || a === '--force');
  return del < 0 || force < 0 ? null : del < force ? 'delete-first' : 'force-first';
};
/** sudo's own options (not the command's): the ones that read a password or open a shell. */
const sudoFlags = memo((c: Command): string[] => c.wrappers.flatMap((w, j) => (w === 'sudo' ? (c.wrapperFlags[j] ?? []) : [])));
const SUDO_VALUE = 'ugphCDrtUTcR';
const sudoGroup = (f: string): boolean => {
  if (!/^-[a-zA-Z]{2,}$/.test(f)) return false;
  for (const ch of f.slice(1)) {
    if (/[sSaA]/.test(ch)) return true;
    if (SUDO_VALUE.includes(ch)) return false;
  }
  return false;
};
/** npm/pnpm/yarn/pip/brew removing a package: the verb after global options (each may take one value). */
const PACKAGE_VERBS: Record<string, RegExp> = {
  npm: /^(uninstall|unlink|remove|rm|r|un)$/,
  pnpm: /^(uninstall|remove|rm|un)$/,
  yarn: /^(uninstall|remove)$/,
  pip: /^uninstall$/,
  pip3: /^uninstall$/,
  brew: /^(uninstall|remove|rm)$/,
};
const uninstalls = (c: Command): boolean => {
  const verbs = PACKAGE_VERBS[c.name];
  if (!verbs) return false;
  for (let j = 1; j < c.argv.length; j++) {
    const a = c.argv[j]!;
    if (a.startsWith('-')) {
      const next = c.argv[j + 1];
      if (next && !next.startsWith('-') && !verbs.test(next) && !a.includes('=') && !(c.name === 'yarn' && next === 'global')) j++;
      continue;
    }
    if (c.name === 'yarn' && a === 'global') continue;
    return verbs.test(a);
  }
  return false;
};
/** `rg --pre`, `sort --compress-program`, `man -P`…: read-only tools told to run a program. */
const PROGRAM_OPTIONS: Array<[string, string]> = [
  ['rg', '--pre'],
  ['rg', '--hostname-bin'],
  ['sort', '--compress-program'],
  ['ag', '--pager'],
  ['man', '--pager'],
  ['man', '--html'],
  ['man', '-P'],
  ['man', '-H'],
];
const runsProgram = (c: Command, tool: string, opt: string): boolean =>
  c.name === tool && c.argv.slice(1).some((a) => a === opt || a.startsWith(`${opt}=`) || (opt.length === 2 && a.startsWith(opt) && a.length > 2));

export const DANGEROUS_TOOLS: readonly Pattern[] = [
  { key: 'xargs with rm', names: ['rm'], command: (c) => c.name === 'rm' && c.wrappers.includes('xargs') },
  { key: 'find -exec/-execdir rm', names: ['find'], command: (c) => c.name === 'find' && c.execs.some((e) => e.name === 'rm') },
  {
    // `find . -{delete,print}` or `-del*`: the shell can expand an unquoted word into the flag.
    key: 'find dynamic shell word may expand to destructive flag',
    command: (c) => c.name === 'find' && c.words.some((w) => !w.quoted && /^-(\{[^}\s]*(delete|exec)|(del(ete?)?|exec(dir)?)[*?[])/.test(w.value)),
  },
  { key: 'find -delete', names: ['find'], command: (c) => c.name === 'find' && c.argv.includes('-delete') },
  { key: 'stop/restart hermes gateway (kills running agents)', names: ['hermes'], command: (c) => /^gateway (stop|restart)\b/.test(hermesSub(c)) },
  { key: 'hermes update (restarts gateway, kills running agents)', names: ['hermes'], command: (c) => /^update\b/.test(hermesSub(c)) },
  {
    key: 'docker with remote daemon redirect (-H/--host)',
    names: ['docker'],
    command: (c) => c.name === 'docker' && dockerGlobals(c).some((g) => /^(-H|--host)(=|$)/.test(g)),
  },
  {
    key: 'docker with daemon redirect (--context: alternate daemon)',
    names: ['docker'],
    command: (c) => c.name === 'docker' && dockerGlobals(c).some((g) => /^(-c|--context)(=|$)/.test(g)),
  },
  {
    key: 'docker context use (switches default daemon for future commands)',
    names: ['docker'],
    command: (c) => c.name === 'docker' && dockerArgs(c).slice(0, 2).join(' ') === 'context use',
  },
  {
    key: 'podman with remote daemon redirect (--url/--connection/--identity)',
    names: ['podman'],
    command: (c) => c.name === 'podman' && dockerGlobals(c).some((g) => /^(--url|--connection|--identity)(=|$)/.test(g)),
  },
  {
    key: 'podman remote mode (-r/--remote: remote daemon)',
    names: ['podman'],
    command: (c) => c.name === 'podman' && dockerGlobals(c).some((g) => /^(-r|--remote)(=|$)/.test(g)),
  },
  {
    key: 'docker/podman daemon redirect via environment (DOCKER_HOST/CONTAINER_HOST)',
    command: (c) => c.assigns.some((a) => DAEMON_ENV.test(a)) || (c.name === 'export' && c.argv.some((a) => DAEMON_ENV.test(a))),
  },
  {
    key: 'docker compose restart/stop/kill/down (container lifecycle)',
    names: ['docker', 'podman', 'docker-compose', 'podman-compose'],
    command: dockerCompose,
  },
  {
    key: 'docker restart/stop/kill (container lifecycle)',
    names: ['docker', 'podman'],
    command: (c) => {
      if (c.name !== 'docker' && c.name !== 'podman') return false;
      const [sub = '', verb = ''] = dockerArgs(c);
      return /^(stop|kill|restart|rm)$/.test(sub) || (sub === 'container' && /^(stop|kill|restart|rm|prune)$/.test(verb));
    },
  },
  {
    key: "start gateway outside systemd (use 'systemctl --user restart hermes-gateway')",
    names: ['hermes'],
    command: (c) => /^gateway run\b/.test(hermesSub(c)) && (c.background || c.wrappers.some((w) => w === 'nohup' || w === 'setsid')),
  },
  {
    key: 'kill hermes/gateway process (self-termination)',
    names: ['pkill', 'killall'],
    command: (c) => (c.name === 'pkill' || c.name === 'killall') && operands(c.argv, 'sUuGgPt').some((a) => SELF.test(a)),
  },
  {
    key: 'kill process via pgrep/pidof expansion (self-termination)',
    names: ['kill'],
    command: (c) => c.name === 'kill' && c.words.some((w) => /\$\(\s*(pgrep|pidof)\b/.test(w.raw)),
  },
  {
    key: 'kill process via backtick pgrep/pidof expansion (self-termination)',
    names: ['kill'],
    command: (c) => c.name === 'kill' && c.words.some((w) => /`\s*(pgrep|pidof)\b/.test(w.raw)),
  },
  {
    // Hermes' label is built in loops and variables, so any mention of hermes in the line counts.
    key: 'stop/restart hermes launchd service (kills running agents)',
    analysis: (a) =>
      /\bhermes\b/i.test(a.text) &&
      a.commands.some((c) => c.name === 'launchctl' && /^(stop|kickstart|bootout|unload|kill|disable|remove)$/.test(c.argv[1] ?? '')),
  },
  { key: 'copy/move file into system config path', names: COPIERS, command: (c) => writesTo(c, [SYSTEM_CONFIG], ['copy']) },
  { key: 'overwrite project env/config file', names: COPIERS, command: (c) => writesTo(c, [PROJECT_FILE], ['copy']) },
  { key: 'copy/move file into sensitive credential/SSH/shell-rc path', names: COPIERS, command: (c) => writesTo(c, SENSITIVE, ['copy']) },
  { key: 'in-place edit of sensitive credential/SSH/shell-rc path', names: ['sed'], command: (c) => writesTo(c, USER_SENSITIVE, ['sed']) },
  { key: 'in-place edit of sensitive credential/SSH/shell-rc path (long flag)', names: ['sed'], command: (c) => writesTo(c, USER_SENSITIVE, ['sed-long']) },
  { key: 'in-place edit of sensitive credential/SSH/shell-rc path (perl/ruby)', command: (c) => writesTo(c, USER_SENSITIVE, ['inplace']) },
  { key: 'in-place edit of system config', command: (c) => writesTo(c, [SYSTEM_CONFIG], ['sed', 'inplace']) },
  { key: 'in-place edit of system config (long flag)', names: ['sed'], command: (c) => writesTo(c, [SYSTEM_CONFIG], ['sed-long']) },
  { key: 'in-place edit of Hermes config/env', names: ['sed'], command: (c) => writesTo(c, HERMES_FILES, ['sed']) },
  { key: 'in-place edit of Hermes config/env (long flag)', names: ['sed'], command: (c) => writesTo(c, HERMES_FILES, ['sed-long']) },
  { key: 'in-place edit of Hermes config/env (perl/ruby)', command: (c) => writesTo(c, HERMES_FILES, ['inplace']) },
  { key: 'shell execution via heredoc', command: (c) => c.shellMode === 'stdin' && c.redirects.some((r) => r.op.startsWith('<<')) },
  { key: 'git reset --hard (destroys uncommitted changes)', names: ['git'], command: (c) => gitHas(c, 'reset', /^--h(a(rd?)?)?$/) },
  { key: 'git force push (rewrites remote history)', names: ['git'], command: (c) => gitHas(c, 'push', /^--forc[a-z-]*$/) },
  { key: 'git force push short flag (rewrites remote history)', names: ['git'], command: (c) => gitHas(c, 'push', /^-[a-zA-Z]*f[a-zA-Z]*$/) },
  { key: 'git clean with force (deletes untracked files)', names: ['git'], command: (c) => gitHas(c, 'clean', /^(-[a-zA-Z]*f[a-zA-Z]*|--force)$/) },
  { key: 'git branch force delete', names: ['git'], command: (c) => gitHas(c, 'branch', /^-[a-zA-Z]*D[a-zA-Z]*$/) },
  { key: 'git branch force delete (long flags)', names: ['git'], command: (c) => branchOrder(c) === 'delete-first' },
  { key: 'git branch force delete (long flags, force-first)', names: ['git'], command: (c) => branchOrder(c) === 'force-first' },
  {
    key: 'chmod +x followed by immediate execution',
    analysis: (a) => {
      const at = a.commands.findIndex((c) => c.name === 'chmod' && c.argv[1] === '+x');
      return at >= 0 && a.commands.slice(at + 1).some((c) => (c.argv[0] ?? '').startsWith('./'));
    },
  },
  {
    key: 'sudo with privilege flag (stdin/askpass/shell/list)',
    command: (c) => sudoFlags(c).some((f) => /^(-[sSaA]|--st[a-z]*|--a[a-z]*|--shell)$/.test(f)),
  },
  { key: 'sudo with combined-flag privilege escalation', command: (c) => sudoFlags(c).some(sudoGroup) },
  { key: 'package manager uninstall', names: Object.keys(PACKAGE_VERBS), command: uninstalls },
  // Found by Hermes' parser, after every pattern above.
  { key: 'script execution via -e/-c flag', command: (c) => interpreterExec(c) === 'flag' },
  { key: 'script execution via heredoc', command: (c) => interpreterExec(c) === 'heredoc' },
  { key: 'shell command via -c/-lc flag', command: (c) => c.shellMode === 'c' },
  ...PROGRAM_OPTIONS.map(
    ([tool, opt]): Pattern => ({ key: `arbitrary program execution via ${tool} ${opt}`, names: [tool], command: (c) => runsProgram(c, tool, opt) }),
  ),
  { key: 'command parser limit or malformed executable payload', analysis: (a) => a.malformed },
];
