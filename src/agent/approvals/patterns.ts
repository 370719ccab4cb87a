import { DANGEROUS_SYSTEM } from './dangerous-system.js';
import { DANGEROUS_TOOLS } from './dangerous-tools.js';
import { HARDLINE, PARSER_LIMIT } from './hardline.js';
import { analyze, parserLimitExceeded, type Analysis, type Command } from './shell.js';

export interface PatternMatch {
  /**
   * Hermes Agent's description of the pattern, exactly: what `command_allowlist` and session
   * approvals store, so an "always" given in the Hermes CLI and one given here are the same entry.
   */
  key: string;
  description: string;
}

export interface Pattern {
  key: string;
  /** Matches one parsed command (nested ones included). */
  command?: (c: Command) => boolean;
  /** The only command names `command` can match: the others are not asked (a long line has thousands). */
  names?: readonly string[];
  /** Matches the whole analysis (SQL text, fork bombs). */
  analysis?: (a: Analysis) => boolean;
}

/**
 * How quoted text is treated: detectors look at parsed commands, so `echo "rm -rf /"` is an
 * argument and matches nothing. Quoted text that a shell executes (`sh -c '…'`, `eval`, `ssh host
 * '…'`, `$(…)` inside double quotes) is parsed as code. SQL patterns and cloud-metadata addresses
 * are the exception: they scan all the text, so `echo "DROP TABLE t"` asks too — conservative.
 */

export { HARDLINE };
/** Need the user's approval unless allowlisted or approved for the session; in Hermes' order. */
export const DANGEROUS: readonly Pattern[] = [...DANGEROUS_SYSTEM, ...DANGEROUS_TOOLS];

function matches(patterns: readonly Pattern[], a: Analysis, firstOnly: boolean): PatternMatch[] {
  const found: PatternMatch[] = [];
  let byName: Map<string, Command[]> | null = null;
  const named = (names: readonly string[]): Command[] => {
    if (!byName) {
      byName = new Map();
      for (const c of a.commands) {
        const list = byName.get(c.name);
        if (list) list.push(c);
        else byName.set(c.name, [c]);
      }
    }
    return names.flatMap((n) => byName!.get(n) ?? []);
  };
  for (const p of patterns) {
    const candidates = p.names ? named(p.names) : a.commands;
    if (p.analysis?.(a) || (p.command && candidates.some(p.command))) {
      found.push({ key: p.key, description: p.key });
      if (firstOnly) break;
    }
  }
  return found;
}

/** The first hardline pattern the command matches: it must never run, in any mode. */
export function detectHardline(command: string): PatternMatch | null {
  if (parserLimitExceeded(command)) return { key: PARSER_LIMIT, description: PARSER_LIMIT };
  return matches(HARDLINE, analyze(command), true)[0] ?? null;
}

/**
 * Every dangerous pattern the command matches, in Hermes' table order: the first is what Hermes
 * itself would report (its pattern key), the rest are shown to the user too.
 */
export function detectDangerous(command: string): PatternMatch[] {
  return matches(DANGEROUS, analyze(command), false);
}

/** Both checks over one parse (what the gate needs for every command). */
export function inspectCommand(command: string): { hardline: PatternMatch | null; dangerous: PatternMatch[]; analysis: Analysis | null } {
  if (parserLimitExceeded(command)) return { hardline: { key: PARSER_LIMIT, description: PARSER_LIMIT }, dangerous: [], analysis: null };
  const a = analyze(command);
  const hardline = matches(HARDLINE, a, true)[0] ?? null;
  return { hardline, dangerous: hardline ? [] : matches(DANGEROUS, a, false), analysis: a };
}
