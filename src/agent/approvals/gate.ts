import { fnmatchToRegExp } from './fnmatch.js';
import { approvalNames, detectDangerous, detectHardline } from './patterns.js';
import { analyze } from './shell.js';

export interface ApprovalPolicy {
  mode: 'manual' | 'off' | 'smart';
  /** `approvals.deny`: fnmatch globs, case-insensitive. */
  deny: readonly string[];
  /** `command_allowlist`: pattern keys approved for good. */
  allowlist: readonly string[];
  /** Pattern keys approved for this session. */
  sessionApproved: ReadonlySet<string>;
  /** `/yolo` or `--yolo`: skip approval prompts (never the hardline list or deny rules). */
  yolo: boolean;
}

export interface ApprovalAsk {
  command: string;
  /** What the command does that needs approval, every matched pattern. */
  description: string;
  /** The first matched key not yet approved. */
  pattern_key: string;
  /** Every matched key: approving for the session or always stores all of them. */
  pattern_keys: string[];
}

export type CommandDecision = { action: 'run' } | { action: 'block'; reason: string } | { action: 'ask'; request: ApprovalAsk };

/** Long commands are cut in messages to the model; it has the full text already. */
function quote(command: string): string {
  const flat = command.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 199)}…` : flat;
}

/** The strings deny globs are matched against: the whole command, each sub-command, each executable. */
export function denyCandidates(command: string): string[] {
  const a = analyze(command);
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

/**
 * What to do with a shell command the model wants to run, in Hermes' order: hardline list,
 * deny rules, yolo / mode off, dangerous patterns, allowlist and session approvals, ask.
 * `smart` asks like `manual`: there is no auxiliary model to judge risk here.
 */
export function decideCommand(command: string, policy: ApprovalPolicy): CommandDecision {
  const hardline = detectHardline(command);
  if (hardline) {
    return {
      action: 'block',
      reason: `BLOCKED: this command is on the hardline blocklist (${hardline.description}) and was not run; no approval setting allows it. Do not retry it or a variant of it. If it is truly needed, tell the user to run it themselves outside the agent.`,
    };
  }

  if (policy.deny.length) {
    const candidates = denyCandidates(command);
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

  const found = detectDangerous(command);
  if (!found.length) return { action: 'run' };
  const approved = (key: string): boolean => approvalNames(key).some((n) => policy.allowlist.includes(n) || policy.sessionApproved.has(n));
  const pending = found.find((m) => !approved(m.key));
  if (!pending) return { action: 'run' };
  return {
    action: 'ask',
    request: {
      command,
      description: found.map((m) => m.description).join('; '),
      pattern_key: pending.key,
      pattern_keys: found.map((m) => m.key),
    },
  };
}

/** What the model receives when the user answers "deny". */
export function blockedByUser(command: string, description: string): string {
  return `BLOCKED: the user denied this command (${description}) and it was not run: ${quote(command)}. Do not retry it or work around the denial; explain what you wanted to do and ask the user how to proceed.`;
}
