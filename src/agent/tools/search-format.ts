/**
 * Pure pieces of `search_files` shared by every ToolHost search engine, so ripgrep and the
 * JavaScript fallback page, glob and format results the same way.
 */

/** A matched or context line longer than this is cut (minified files). */
export const MAX_MATCH_LINE_CHARS = 500;

/**
 * A RegExp for a ripgrep-style glob. A glob without `/` matches the base name at any depth;
 * one with `/` matches the path relative to the search root.
 */
export function globToRegExp(glob: string): RegExp {
  let src = '';
  let inClass = false;
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] as string;
    if (inClass) {
      src += c === '\\' ? '\\\\' : c;
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '*') {
      if (glob[i + 1] === '*') {
        // `**/` is zero or more directories; a bare `**` is anything.
        if (glob[i + 2] === '/') {
          src += '(?:.*/)?';
          i += 2;
        } else {
          src += '.*';
          i += 1;
        }
      } else src += '[^/]*';
    } else if (c === '?') src += '[^/]';
    else if (c === '[') {
      inClass = true;
      src += glob[i + 1] === '!' ? (i++, '[^') : '[';
    } else if (c === '{') {
      braces++;
      src += '(?:';
    } else if (c === '}' && braces > 0) {
      braces--;
      src += ')';
    } else if (c === ',' && braces > 0) src += '|';
    else src += c.replace(/[.+^$()|\\]/g, '\\$&');
  }
  try {
    return new RegExp(`^${src}$`);
  } catch {
    return new RegExp(`^${glob.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
  }
}

/** Tests a path (relative to the search root, `/`-separated) against a glob. */
export function globMatches(re: RegExp, glob: string, relPath: string): boolean {
  if (glob.includes('/')) return re.test(relPath.replace(/^\.\//, ''));
  return re.test(relPath.slice(relPath.lastIndexOf('/') + 1));
}

/**
 * The JavaScript RegExp for a content pattern: ripgrep's leading `(?i)` becomes the `i` flag,
 * and a pattern that is not a valid regex is searched literally (as Hermes' users expect when
 * they search for `foo(`).
 */
export function contentRegExp(pattern: string): RegExp {
  let flags = '';
  let src = pattern;
  if (src.startsWith('(?i)')) {
    flags = 'i';
    src = src.slice(4);
  }
  try {
    return new RegExp(src, flags);
  } catch {
    return new RegExp(src.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), flags);
  }
}

function cut(text: string): string {
  return text.length > MAX_MATCH_LINE_CHARS ? `${text.slice(0, MAX_MATCH_LINE_CHARS)}… [${text.length} chars]` : text;
}

/**
 * Collects content-mode results file by file, keeping only the page [offset, offset+limit) of
 * matches in memory. Matches print as `path:line:text`, context lines as `path-line-text`, and
 * `--` separates non-adjacent groups, as ripgrep prints them.
 */
export class ContentPager {
  readonly out: string[] = [];
  total = 0;

  constructor(
    private readonly offset: number,
    private readonly limit: number,
    private readonly context: number,
  ) {}

  /** Adds one file's matching line numbers (ascending); `line(n)` gives any line's text. */
  addFile(path: string, matchLines: number[], line: (n: number) => string | undefined): void {
    const first = this.total;
    this.total += matchLines.length;
    const from = Math.max(0, this.offset - first);
    const to = Math.min(matchLines.length, this.offset + this.limit - first);
    if (from >= to) return;
    const isMatch = new Set(matchLines);
    const wanted = new Set<number>();
    for (const m of matchLines.slice(from, to)) {
      for (let n = m - this.context; n <= m + this.context; n++) if (n >= 1 && line(n) !== undefined) wanted.add(n);
    }
    let prev = -1;
    for (const n of [...wanted].sort((a, b) => a - b)) {
      if (this.context > 0 && prev !== -1 && n !== prev + 1) this.out.push('--');
      this.out.push(`${path}${isMatch.has(n) ? ':' : '-'}${n}${isMatch.has(n) ? ':' : '-'}${cut(line(n) ?? '')}`);
      prev = n;
    }
    if (this.context > 0 && this.out.length && wanted.size) this.out.push('--');
  }

  /** The page, without a dangling final separator. */
  page(): string[] {
    const out = [...this.out];
    if (out[out.length - 1] === '--') out.pop();
    return out;
  }
}
