/**
 * Python's `fnmatch` (what Hermes uses for `approvals.deny`): `*` matches anything, `/` and
 * spaces included; `?` one character; `[seq]`, `[!seq]` a set. Case-insensitive, as Hermes
 * lowercases both sides (`caseSensitive` for `command_allowlist` globs, which Hermes matches as written).
 */
export function fnmatchToRegExp(glob: string, caseSensitive = false): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') out += '[\\s\\S]*';
    else if (c === '?') out += '[\\s\\S]';
    else if (c === '[') {
      // `]` right after `[` or `[!` is a literal member; an unclosed `[` is a literal `[`.
      let j = i + 1;
      if (glob[j] === '!') j++;
      if (glob[j] === ']') j++;
      const close = glob.indexOf(']', j);
      if (close < 0) {
        out += '\\[';
        continue;
      }
      const raw = glob.slice(i + 1, close);
      const negate = raw.startsWith('!');
      // JS classes treat a leading `]` as closing and `^` as negation; escape what Python takes literally.
      const body = (negate ? raw.slice(1) : raw).replace(/[\\\][^]/g, '\\$&');
      out += `[${negate ? '^' : ''}${body}]`;
      i = close;
    } else out += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${out}$`, caseSensitive ? '' : 'i');
}

export function fnmatch(text: string, glob: string): boolean {
  return fnmatchToRegExp(glob).test(text);
}
