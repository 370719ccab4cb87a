/**
 * A small POSIX-shell lexer for approval checks. It does not run or expand anything; it only
 * finds what the shell would treat as words, operators and redirections, so the detectors look at
 * commands rather than at text (an `echo "rm -rf /"` is an argument, not a command).
 */

export interface Word {
  /** Source text, quotes included. */
  raw: string;
  /** After quote removal and escapes; `$x`, `$(…)` and `~` stay literal (nothing is expanded). */
  value: string;
  /** Any part was quoted or escaped (a quoted heredoc delimiter turns expansion off). */
  quoted: boolean;
  /** Bodies of `$(…)`, backticks, `<(…)`, `>(…)`: code the shell runs while expanding the word. */
  substs: string[];
}

export interface Redirect {
  /** `>`, `>>`, `>|`, `&>`, `&>>`, `<`, `<>`, `<<`, `<<-`, `<<<`, `>&`, `<&`. */
  op: string;
  target: Word | null;
  /** Heredoc body; null for other redirections. */
  body: string | null;
  /** Substitutions inside an unquoted-delimiter heredoc body (they run). */
  bodySubsts: string[];
}

export type Token =
  | { kind: 'word'; word: Word; start: number; end: number }
  | { kind: 'op'; op: string; start: number; end: number }
  | { kind: 'redir'; redir: Redirect; start: number; end: number };

export interface Lexed {
  tokens: Token[];
  /** Unbalanced quote, substitution or heredoc: the shell and this lexer may disagree. */
  malformed: boolean;
  /** The input with quoted text, comments and heredoc bodies blanked: only code is left. */
  masked: string;
}

const REDIR_OPS = ['<<<', '<<-', '&>>', '<<', '<>', '<&', '>>', '>|', '>&', '&>', '<', '>'];
const CONTROL_OPS = ['&&', '||', '|&', ';;', '|', '&', ';', '(', ')'];

/** Quotes inside substitutions inside quotes…: deeper than this is treated as unbalanced. */
const MAX_NESTING = 64;

/** Index of the `)` closing the `(` at `open`, skipping quoted text; -1 when unbalanced. */
export function matchParen(s: string, open: number, nesting = 0): number {
  if (nesting > MAX_NESTING) return -1;
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') i++;
    else if (c === "'") {
      const e = s.indexOf("'", i + 1);
      if (e < 0) return -1;
      i = e;
    } else if (c === '"' || c === '`') {
      const e = closingQuote(s, i + 1, c, nesting + 1);
      if (e < 0) return -1;
      i = e;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

/** Index of the unescaped `quote` ending a span that starts at `from`; -1 when unterminated. */
function closingQuote(s: string, from: number, quote: string, nesting = 0): number {
  for (let i = from; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === quote) return i;
    else if (quote === '"' && s[i] === '$' && s[i + 1] === '(') {
      const e = matchParen(s, i + 1, nesting + 1);
      if (e < 0) return -1;
      i = e;
    }
  }
  return -1;
}

const ANSI_C: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v' };

/** `$'…'` content, decoded (`$'\x72\x6d'` is `rm`). */
function decodeAnsiC(body: string): string {
  return body.replace(/\\(x[0-9a-fA-F]{1,2}|u[0-9a-fA-F]{1,4}|[0-7]{1,3}|.)/g, (_, e: string) => {
    if (e[0] === 'x' || e[0] === 'u') return e.length > 1 ? String.fromCodePoint(parseInt(e.slice(1), 16)) : e;
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8));
    return ANSI_C[e] ?? e;
  });
}

/** `$(…)` and backtick bodies in text the shell expands (double quotes, unquoted heredocs). */
export function scanSubsts(text: string): { substs: string[]; malformed: boolean } {
  const substs: string[] = [];
  const malformed = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '$' && text[i + 1] === '(') {
      const e = matchParen(text, i + 1);
      if (e < 0) return { substs, malformed: true };
      if (text[i + 2] !== '(') substs.push(text.slice(i + 2, e));
      i = e;
    } else if (c === '`') {
      const e = closingQuote(text, i + 1, '`');
      if (e < 0) return { substs, malformed: true };
      substs.push(unescapeBackticks(text.slice(i + 1, e)));
      i = e;
    }
  }
  return { substs, malformed };
}

function unescapeBackticks(body: string): string {
  return body.replace(/\\([$`\\])/g, '$1');
}

export function lex(s: string): Lexed {
  const tokens: Token[] = [];
  const masked = s.split('');
  const blank = (a: number, b: number): void => {
    for (let k = a; k < b && k < masked.length; k++) if (masked[k] !== '\n') masked[k] = ' ';
  };
  let malformed = false;
  let cur: (Word & { start: number }) | null = null;
  let pending: { redir: Redirect; strip: boolean } | null = null;
  let heredocs: Array<{ redir: Redirect; delim: string; strip: boolean; expand: boolean }> = [];
  let i = 0;

  const word = (): Word & { start: number } => (cur ??= { raw: '', value: '', quoted: false, substs: [], start: i });
  const endWord = (): void => {
    if (!cur) return;
    const w: Word = { raw: s.slice(cur.start, i), value: cur.value, quoted: cur.quoted, substs: cur.substs };
    if (pending) {
      pending.redir.target = w;
      if (pending.redir.op === '<<' || pending.redir.op === '<<-') {
        heredocs.push({ redir: pending.redir, delim: w.value, strip: pending.strip, expand: !w.quoted });
      }
      const tok = tokens[tokens.length - 1]!;
      tok.end = i;
      pending = null;
    } else {
      tokens.push({ kind: 'word', word: w, start: cur.start, end: i });
    }
    cur = null;
  };
  const readHeredocs = (): void => {
    for (const h of heredocs) {
      const lines: string[] = [];
      let done = false;
      while (i < s.length) {
        const nl = s.indexOf('\n', i);
        const end = nl < 0 ? s.length : nl;
        const line = s.slice(i, end);
        blank(i, end);
        i = end + 1;
        if ((h.strip ? line.replace(/^\t+/, '') : line) === h.delim) {
          done = true;
          break;
        }
        lines.push(h.strip ? line.replace(/^\t+/, '') : line);
      }
      if (!done) malformed = true;
      h.redir.body = lines.join('\n');
      if (h.expand) {
        const found = scanSubsts(h.redir.body);
        h.redir.bodySubsts = found.substs;
        malformed ||= found.malformed;
      }
    }
    heredocs = [];
  };

  while (i < s.length) {
    const c = s[i]!;
    if (c === ' ' || c === '\t' || c === '\r') {
      endWord();
      i++;
    } else if (c === '\n') {
      endWord();
      tokens.push({ kind: 'op', op: '\n', start: i, end: i + 1 });
      i++;
      if (heredocs.length) readHeredocs();
    } else if (c === '#' && !cur) {
      const nl = s.indexOf('\n', i);
      const end = nl < 0 ? s.length : nl;
      blank(i, end);
      i = end;
    } else if (c === '\\') {
      const w = word();
      w.quoted = true;
      if (i + 1 < s.length) w.value += s[i + 1];
      i += 2;
    } else if (c === "'" || (c === '$' && s[i + 1] === "'")) {
      const w = word();
      w.quoted = true;
      const from = c === '$' ? i + 2 : i + 1;
      const e = c === '$' ? closingQuote(s, from, "'") : s.indexOf("'", from);
      const end = e < 0 ? s.length : e;
      malformed ||= e < 0;
      w.value += c === '$' ? decodeAnsiC(s.slice(from, end)) : s.slice(from, end);
      blank(from, end);
      i = end + 1;
    } else if (c === '"') {
      const w = word();
      w.quoted = true;
      const e = closingQuote(s, i + 1, '"');
      const end = e < 0 ? s.length : e;
      malformed ||= e < 0;
      const body = s.slice(i + 1, end);
      const found = scanSubsts(body);
      w.substs.push(...found.substs);
      malformed ||= found.malformed;
      w.value += body.replace(/\\([$`"\\\n])/g, '$1');
      blank(i + 1, end);
      i = end + 1;
    } else if (c === '`') {
      const w = word();
      const e = closingQuote(s, i + 1, '`');
      const end = e < 0 ? s.length : e;
      malformed ||= e < 0;
      w.substs.push(unescapeBackticks(s.slice(i + 1, end)));
      w.value += s.slice(i, end + 1);
      i = end + 1;
    } else if ((c === '$' || ((c === '<' || c === '>') && !cur)) && s[i + 1] === '(') {
      // `$(…)` command substitution (or `$((…))` arithmetic), `<(…)`/`>(…)` process substitution.
      const w = word();
      const e = matchParen(s, i + 1);
      const end = e < 0 ? s.length : e;
      malformed ||= e < 0;
      if (!(c === '$' && s[i + 2] === '(')) w.substs.push(s.slice(i + 2, end));
      w.value += s.slice(i, end + 1);
      i = end + 1;
    } else if (c === '$' && s[i + 1] === '{') {
      const w = word();
      const e = s.indexOf('}', i + 2);
      const end = e < 0 ? s.length : e;
      malformed ||= e < 0;
      w.value += s.slice(i, end + 1);
      i = end + 1;
    } else if (c === '<' || c === '>' || (c === '&' && s[i + 1] === '>')) {
      // A word of digits right before the operator is its file descriptor (`2>`), not an argument.
      const w = cur as Word | null;
      if (w && /^\d+$/.test(w.value) && !w.quoted) cur = null;
      endWord();
      const op = REDIR_OPS.find((o) => s.startsWith(o, i))!;
      const redir: Redirect = { op, target: null, body: null, bodySubsts: [] };
      tokens.push({ kind: 'redir', redir, start: i, end: i + op.length });
      pending = { redir, strip: op === '<<-' };
      i += op.length;
    } else if (CONTROL_OPS.some((o) => s.startsWith(o, i))) {
      endWord();
      const op = CONTROL_OPS.find((o) => s.startsWith(o, i))!;
      if (pending) malformed = true;
      pending = null;
      tokens.push({ kind: 'op', op: op === ';;' ? ';' : op, start: i, end: i + op.length });
      i += op.length;
    } else {
      word().value += c;
      i++;
    }
  }
  endWord();
  if (heredocs.length) readHeredocs();
  return { tokens, malformed, masked: masked.join('') };
}
