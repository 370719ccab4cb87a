import { basename, peel } from './launchers.js';
import { lex, type Redirect, type Word } from './shell-lex.js';

/** One simple command as it would run: launchers peeled, payloads found. */
export interface Command {
  /** Basename of the executable, lowercased (macOS file systems ignore case: `RM` runs rm). */
  name: string;
  /** Arguments after quote removal; argv[0] is the executable as written. */
  argv: string[];
  words: Word[];
  /** `NAME=value` assignments for this command (before it, or given to `env`). */
  assigns: string[];
  /** Launchers peeled off, outermost first (`sudo`, `nohup`, `xargs`…). */
  wrappers: string[];
  /** Each launcher's own options, aligned with `wrappers`. */
  wrapperFlags: string[][];
  redirects: Redirect[];
  /** Ended with `&`. */
  background: boolean;
  /** Its source text, whitespace collapsed (wrappers included). */
  text: string;
  /** The pipeline it is part of, in order (itself included). */
  pipeline: Command[];
  /** Commands inside its substitutions (`bash <(curl …)`, `eval "$(wget …)"`). */
  substCommands: Command[];
  /** Commands it runs itself (`find … -exec rm {} +`). */
  execs: Command[];
  /** Working directory known from an earlier `cd` in the same command line. */
  cwd: 'root' | 'home' | null;
  /** `sh -c` / `su -c` (a command string), `stdin` (a shell fed a script: heredoc, here-string, pipe), or null. */
  shellMode: 'c' | 'stdin' | null;
}

export interface Analysis {
  /** Every command, nested ones (substitutions, `sh -c` payloads, `find -exec`…) included. */
  commands: Command[];
  /** Each code unit with quoted text and heredoc bodies blanked, for positionless patterns. */
  codeTexts: string[];
  /** The normalised command: quoted text kept (SQL is usually quoted). */
  text: string;
  /** Quotes or nesting the lexer could not resolve: the shell may see something else. */
  malformed: boolean;
}

export const SHELLS = new Set(['sh', 'bash', 'zsh', 'ksh', 'dash', 'ash', 'mksh', 'fish']);
const MAX_DEPTH = 8;
const MAX_LENGTH = 128_000;

/**
 * Hermes' parser ceiling: a command this long, a long one with no separator at all, or one with
 * 25,000 separators is refused rather than inspected in part (usually an inlined script).
 */
export function parserLimitExceeded(command: string): boolean {
  if (command.length > MAX_LENGTH) return true;
  const separators = command.match(/[;&|\n]/g)?.length ?? 0;
  return (command.length > 4096 && separators === 0) || separators >= 25_000;
}

/** Undoes tricks that change spelling but not meaning: fullwidth forms, ANSI escapes, `\`-newline, `$IFS`. */
export function normalizeCommand(command: string): string {
  return command
    .normalize('NFKC')
    .replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, '')
    .replace(/\0/g, '')
    .replace(/\\\r?\n/g, '')
    .replace(/\$\{IFS[^}]*\}|\$IFS\b/g, ' ');
}

function cdTarget(argv: string[]): 'root' | 'home' | null {
  const dir = argv.slice(1).find((a) => !/^-[LPe@]+$/.test(a));
  if (dir === undefined || /^(~|\$HOME|\$\{HOME\})\/?$/.test(dir)) return 'home';
  return /^\/(?:\.?\/)*\.?$/.test(dir) ? 'root' : null;
}

/** `sh [-opts] -c PAYLOAD` → 'c' and the payload; a shell with no script operand reads stdin. */
function shellInvocation(argv: string[]): { c: boolean; payload: string | null; operand: string | null } {
  let c = false;
  let j = 1;
  for (; j < argv.length; j++) {
    const v = argv[j]!;
    if (v === '--' || v === '-') {
      j++;
      break;
    }
    if (/^--(rcfile|init-file)$/.test(v) || /^[-+][oO]$/.test(v)) j++;
    else if (v.startsWith('--')) continue;
    else if (/^-[a-zA-Z]+$/.test(v)) c ||= v.includes('c');
    else if (!/^\+[a-zA-Z]+$/.test(v)) break;
  }
  const rest = argv[j] ?? null;
  return c ? { c, payload: rest, operand: null } : { c, payload: null, operand: rest };
}

/** `su [-] [user] -c CMD` / `su --command=CMD`. */
function suPayload(argv: string[]): string | null {
  for (let j = 1; j < argv.length; j++) {
    const v = argv[j]!;
    if (v.startsWith('--command=')) return v.slice(10);
    if (v === '--command' || /^-[a-zA-Z]*c$/.test(v)) return argv[j + 1] ?? '';
  }
  return null;
}

/** The remote command of `ssh [opts] host cmd…`, which the remote shell runs. */
function sshPayload(argv: string[]): string | null {
  for (let j = 1; j < argv.length; j++) {
    const v = argv[j]!;
    if (!v.startsWith('-')) return argv.length > j + 1 ? argv.slice(j + 1).join(' ') : null;
    if (/^-[a-zA-Z]*[BbcDEeFIiJLlmOoPpQRSWw]$/.test(v)) j++;
  }
  return null;
}

/** `watch [opts] cmd…` runs its arguments through `sh -c`. */
function watchPayload(argv: string[]): string | null {
  let j = 1;
  while (j < argv.length && argv[j]!.startsWith('-')) j += /^(-n|--interval)$/.test(argv[j]!) ? 2 : 1;
  return j < argv.length ? argv.slice(j).join(' ') : null;
}

/** The commands `find … -exec CMD {} ;` runs, as word lists. */
function findExecs(words: Word[]): Word[][] {
  const out: Word[][] = [];
  for (let j = 1; j < words.length; j++) {
    if (!/^-(exec|execdir|ok|okdir)$/.test(words[j]!.value)) continue;
    const end = words.findIndex((w, k) => k > j && (w.value === ';' || w.value === '+'));
    out.push(words.slice(j + 1, end < 0 ? undefined : end));
    if (end > 0) j = end;
  }
  return out;
}

class Analyzer {
  readonly result: Analysis;
  /** Shells with neither `-c` nor a script operand: they run whatever arrives on stdin. */
  private readonly stdinShells = new WeakSet<Command>();
  constructor(text: string) {
    this.result = { commands: [], codeTexts: [], text, malformed: false };
  }

  /** Analyses one code unit; returns its top-level commands. */
  text(source: string, depth: number, cwd: Command['cwd']): Command[] {
    if (depth > MAX_DEPTH) {
      this.result.malformed = true;
      return [];
    }
    const lexed = lex(source);
    this.result.malformed ||= lexed.malformed;
    this.result.codeTexts.push(lexed.masked);

    const top: Command[] = [];
    let words: Word[] = [];
    let redirects: Redirect[] = [];
    let start = -1;
    let end = -1;
    let pipeline: Command[] = [];
    const dirs: Array<Command['cwd']> = [];
    const flush = (op: string | null): void => {
      if (words.length || redirects.length) {
        const text = source.slice(start, end).replace(/\s+/g, ' ').trim();
        const cmd = this.words(words, redirects, text, depth, cwd);
        cmd.background = op === '&';
        cmd.pipeline = pipeline;
        pipeline.push(cmd);
        const feeder = pipeline.at(-2);
        if (feeder && this.stdinShells.has(cmd)) {
          // `echo 'rm -rf x' | sh`: what the shell reads is code.
          cmd.shellMode = 'stdin';
          if (feeder.name === 'echo' || feeder.name === 'printf') this.text(feeder.argv.slice(1).join(' '), depth + 1, cwd);
        }
        top.push(cmd);
        if (cmd.name === 'cd' || cmd.name === 'pushd') cwd = cdTarget(cmd.argv);
      }
      if (op !== '|' && op !== '|&') pipeline = [];
      words = [];
      redirects = [];
      start = -1;
    };
    for (const tok of lexed.tokens) {
      if (tok.kind === 'op') {
        flush(tok.op);
        // A `cd` inside `( … )` does not change the directory of what follows the subshell.
        if (tok.op === '(') dirs.push(cwd);
        if (tok.op === ')' && dirs.length) cwd = dirs.pop()!;
        continue;
      }
      if (start < 0) start = tok.start;
      end = tok.end;
      if (tok.kind === 'word') words.push(tok.word);
      else redirects.push(tok.redir);
    }
    flush(null);
    return top;
  }

  /** Builds one command from its words and analyses everything it carries. */
  words(all: Word[], redirects: Redirect[], text: string, depth: number, cwd: Command['cwd']): Command {
    const peeled = peel(all);
    const argv = peeled.words.map((w) => w.value);
    const cmd: Command = {
      name: argv.length ? basename(argv[0]!).toLowerCase() : '',
      argv,
      words: peeled.words,
      assigns: peeled.assigns,
      wrappers: peeled.wrappers,
      wrapperFlags: peeled.wrapperFlags,
      redirects,
      background: false,
      text,
      pipeline: [],
      substCommands: [],
      execs: [],
      cwd,
      shellMode: null,
    };
    this.result.commands.push(cmd);
    const nested = (code: string): Command[] => this.text(code, depth + 1, cwd);

    for (const w of [...all, ...redirects.flatMap((r) => (r.target ? [r.target] : []))]) {
      for (const s of w.substs) cmd.substCommands.push(...nested(s));
    }
    for (const r of redirects) for (const s of r.bodySubsts) cmd.substCommands.push(...nested(s));
    for (const p of peeled.payloads) nested(p);

    if (SHELLS.has(cmd.name)) {
      const sh = shellInvocation(argv);
      if (sh.c) {
        cmd.shellMode = 'c';
        if (sh.payload !== null) nested(sh.payload);
      } else if (sh.operand === null || argv.includes('-s')) {
        this.stdinShells.add(cmd);
        const fed = redirects.find((r) => r.op === '<<' || r.op === '<<-' || r.op === '<<<');
        if (fed) {
          cmd.shellMode = 'stdin';
          nested(fed.op === '<<<' ? (fed.target?.value ?? '') : (fed.body ?? ''));
        }
      }
    } else if (cmd.name === 'su') {
      const payload = suPayload(argv);
      if (payload !== null) {
        cmd.shellMode = 'c';
        nested(payload);
      }
    } else if (cmd.name === 'eval' || cmd.name === 'ssh' || cmd.name === 'watch') {
      const payload = cmd.name === 'eval' ? argv.slice(1).join(' ') : cmd.name === 'ssh' ? sshPayload(argv) : watchPayload(argv);
      if (payload) nested(payload);
    } else if (cmd.name === 'find') {
      for (const exec of findExecs(peeled.words)) {
        if (exec.length) cmd.execs.push(this.words(exec, [], exec.map((w) => w.raw).join(' '), depth + 1, cwd));
      }
    }
    return cmd;
  }
}

/** Parses a shell command line into the commands it would run, however they are wrapped. */
export function analyze(command: string): Analysis {
  const text = normalizeCommand(command);
  const analyzer = new Analyzer(text);
  if (text.length > MAX_LENGTH) analyzer.result.malformed = true;
  else {
    try {
      analyzer.text(text, 0, null);
    } catch {
      // A parser bug must not let a command through unchecked: it is asked about instead.
      analyzer.result.malformed = true;
    }
  }
  return analyzer.result;
}
