import { fnmatchToRegExp } from './fnmatch.js';
import { interpreterExec } from './facts.js';
import { PARSER_LIMIT } from './hardline.js';
import { hermesKeys } from './legacy-keys.js';
import { inspectCommand } from './patterns.js';
import { analyze, type Analysis } from './shell.js';

export interface ApprovalPolicy {
  mode: 'manual' | 'off' | 'smart';
  /** `approvals.deny`: fnmatch globs, case-insensitive. */
  deny: readonly string[];
  /** `command_allowlist`: Hermes pattern keys (descriptions), or exact commands and globs, approved for good. */
  allowlist: readonly string[];
  /** Pattern keys approved for this session. */
  sessionApproved: ReadonlySet<string>;
  /** `/yolo` or `--yolo`: skip approval prompts (never the hardline list or deny rules). */
  yolo: boolean;
  /** `SUDO_PASSWORD` is configured: without it an explicit `sudo -S` is refused (password guessing). */
  sudoPassword?: boolean;
  /** The resolved `$HERMES_HOME`, folded to `~/.hermes` so its files are recognised by absolute path. */
  hermesHome?: string;
}

export interface ApprovalAsk {
  command: string;
  /** What the command does that needs approval, every matched pattern. */
  description: string;
  /** Hermes' key for the command: the first pattern it matches, in Hermes' order. */
  pattern_key: string;
  /** What "session" and "always" store: the pattern key, as Hermes stores it. */
  pattern_keys: string[];
}

export type CommandDecision = { action: 'run' } | { action: 'block'; reason: string } | { action: 'ask'; request: ApprovalAsk };

/** Long commands are cut in messages to the model; it has the full text already. */
function quote(command: string): string {
  const flat = command.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 199)}…` : flat;
}

/** The strings deny globs are matched against: the whole command, each sub-command, each executable. */
export function denyCandidates(command: string, analysis?: Analysis): string[] {
  const a = analysis ?? analyze(command);
  const out = new Set([a.text.replace(/\s+/g, ' ').trim()]);
  for (const c of a.commands) {
    out.add(c.text);
    if (c.argv.length) {
      out.add(c.argv.join(' '));
      out.add(c.argv[0]!);
      out.add(c.name);
    }
  }
  out.delete('');
  return [...out];
}

/** `~/.hermes/...` for the absolute spelling of the Hermes home (a custom `HERMES_HOME`). */
function foldHermesHome(command: string, hermesHome: string | undefined): string {
  const dir = hermesHome?.replace(/\/+$/, '');
  if (!dir || dir.split('/').filter(Boolean).length < 2 || !command.includes(dir)) return command;
  return command.split(`${dir}/`).join('~/.hermes/');
}

/** `sudo -S` (or `--stdin`) among sudo's own options: the model piping a guessed password. */
function sudoReadsStdin(a: Analysis): boolean {
  return a.commands.some((c) => c.wrappers.some((w, j) => w === 'sudo' && (c.wrapperFlags[j] ?? []).some((f) => f === '--stdin' || /^-[a-zA-Z]*S/.test(f))));
}

/**
 * Hermes also takes command text in `command_allowlist`: an exact command, or a glob (`podman *`),
 * approves that one simple command (never a compound line, a redirect or a shell payload).
 */
export function allowlistedCommand(command: string, allowlist: readonly string[]): boolean {
  const text = command.trim();
  const entries = allowlist.map((e) => e.trim()).filter((e) => e && (e === text || /[*?[]/.test(e)));
  if (!text || !entries.length) return false;
  const a = analyze(text);
  const c = a.commands[0];
  if (a.malformed || a.commands.length !== 1 || !c || c.redirects.length || c.substCommands.length || c.shellMode || interpreterExec(c)) return false;
  return entries.some((e) => e === text || fnmatchToRegExp(e, true).test(text));
}

/**
 * What to do with a shell command the model wants to run, in Hermes' order: hardline list,
 * `sudo -S` without a configured password, deny rules, yolo / mode off, allowlisted command text,
 * dangerous patterns, then the allowlist and session approvals of Hermes' key for the command
 * (its first match), else ask. `smart` asks like `manual`: there is no guardian model here yet.
 */
export function decideCommand(command: string, policy: ApprovalPolicy): CommandDecision {
  const text = foldHermesHome(command, policy.hermesHome);
  const { hardline, dangerous, analysis } = inspectCommand(text);
  if (hardline?.key === PARSER_LIMIT || !analysis) {
    return {
      action: 'block',
      reason: `BLOCKED: ${PARSER_LIMIT}: this command is too large to check, so it was not run. Write the script to a file with write_file and run that file instead; do not retry it inline.`,
    };
  }
  if (hardline) {
    return {
      action: 'block',
      reason: `BLOCKED: ${hardline.description}. This command is on the hardline blocklist and was not run; no approval setting (not yolo, not approvals.mode off) allows it. Do not retry it or a variant of it. If it is truly needed, tell the user to run it themselves outside the agent.`,
    };
  }
  if (!policy.sudoPassword && sudoReadsStdin(analysis)) {
    return {
      action: 'block',
      reason:
        "BLOCKED: sudo password guessing via stdin (sudo -S). Do not feed passwords to 'sudo -S'. If the agent needs sudo, the user can set SUDO_PASSWORD in ~/.hermes/.env, or run the command in their own terminal.",
    };
  }

  if (policy.deny.length) {
    const candidates = denyCandidates(text, analysis);
    for (const glob of policy.deny) {
      const re = fnmatchToRegExp(glob.trim());
      if (candidates.some((c) => re.test(c))) {
        return {
          action: 'block',
          reason: `BLOCKED: this command matches the user's deny rule "${glob}" and was not run. Do not retry it; explain what you wanted to do and ask the user.`,
        };
      }
    }
  }

  if (policy.yolo || policy.mode === 'off') return { action: 'run' };
  if (!dangerous.length || allowlistedCommand(command, policy.allowlist)) return { action: 'run' };
  const key = dangerous[0]!.key;
  const allowed = new Set(policy.allowlist.flatMap(hermesKeys));
  if (allowed.has(key) || policy.sessionApproved.has(key)) return { action: 'run' };
  return {
    action: 'ask',
    request: { command, description: dangerous.map((m) => m.description).join('; '), pattern_key: key, pattern_keys: [key] },
  };
}

/** What the model receives when the user answers "deny". */
export function blockedByUser(command: string, description: string): string {
  return `BLOCKED: the user denied this command (${description}) and it was not run: ${quote(command)}. Do not retry it or work around the denial; explain what you wanted to do and ask the user how to proceed.`;
}

/** What the model receives when nobody answered in time: silence is not consent. */
export function timedOut(command: string, description: string): string {
  return `BLOCKED: the approval request timed out without an answer from the user (${description}), so the command was not run: ${quote(command)}. Silence is not consent: do not retry it or work around it; tell the user it is waiting for their approval.`;
}

/** Said once per session when `approvals.mode` is smart (Hermes' default) and a command needs approval. */
export const SMART_UNAVAILABLE =
  'approvals.mode is smart (the default), but smart approval is not available in the built-in agent yet, so commands that need approval are asked as in manual mode.';
