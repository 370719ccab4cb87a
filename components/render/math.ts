import { apiUrl } from '../api/client.js';
import type { KatexOptions } from 'katex';

/** One math span lifted out of the markdown source. */
export interface MathSpan {
  tex: string;
  display: boolean;
  /** The source as written, shown until KaTeX arrives (and inside code, where it is not math). */
  raw: string;
}

/** Placeholders are private-use characters: marked and DOMPurify pass them through untouched. */
const OPEN = '\uE000';
const CLOSE = '\uE001';
export const MATH_TOKEN_RE = /\uE000(\d+)\uE001/g;

/** Cheap pre-check so text without any math marker skips the scan (and KaTeX) entirely. */
const MAYBE_MATH = /\$|\\\(|\\\[/;

// Fenced blocks, then inline code spans (not across a blank line): math is never looked for there.
const CODE_RE = /^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^ {0,3}\1[`~]*[ \t]*$|(?![\s\S]))|(`+)(?:[^\n]|\n(?!\n))*?[^`]\2(?!`)/gm;

// $$…$$, \[…\], \(…\), then $…$ with Pandoc's rule so prices ("$5 and $10") stay text: the
// opening $ is followed by a non-space, the closing one preceded by a non-space and not by a digit.
const MATH_RE = /\$\$([\s\S]+?)\$\$|\\\[([\s\S]+?)\\\]|\\\(([\s\S]+?)\\\)|(?<![\\$\w])\$(?=[^\s$])((?:\\.|[^$\\\n])+?)(?<=\S)\$(?![\d$\w])/g;

/** Replaces math spans outside code with placeholders, so `_` and `*` in TeX reach KaTeX intact. */
export function extractMath(text: string): { source: string; spans: MathSpan[] } {
  const spans: MathSpan[] = [];
  if (!MAYBE_MATH.test(text)) return { source: text, spans };
  const lift = (chunk: string) =>
    chunk.replace(MATH_RE, (raw: string, a?: string, b?: string, c?: string, d?: string) => {
      const tex = (a ?? b ?? c ?? d ?? '').trim();
      if (!tex) return raw;
      spans.push({ tex, display: a !== undefined || b !== undefined, raw });
      return `${OPEN}${spans.length - 1}${CLOSE}`;
    });
  let source = '';
  let last = 0;
  for (const m of text.matchAll(CODE_RE)) {
    source += lift(text.slice(last, m.index)) + m[0];
    last = m.index + m[0].length;
  }
  source += lift(text.slice(last));
  return { source, spans };
}

type Katex = { renderToString(tex: string, options?: KatexOptions): string };

let katex: Katex | null = null;
let katexSheet: CSSStyleSheet | null = null;
let loading: Promise<void> | null = null;

/** True once KaTeX has been imported; it never is for a transcript without math. */
export let katexLoaded = false;

/** On the Hermes server, which for an embedded chat is not the page's own origin. */
const katexCssUrl = () => apiUrl('/assets/katex/katex.min.css');

/** Fetches KaTeX's stylesheet once as a constructable sheet for shadow roots (fonts stay in <head>). */
async function loadSheet(): Promise<void> {
  const KATEX_CSS_URL = katexCssUrl();
  if (!document.head.querySelector(`link[href="${KATEX_CSS_URL}"]`)) {
    // @font-face only works from the document, so the fonts come from a real <link>.
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = KATEX_CSS_URL;
    link.crossOrigin = 'anonymous';
    document.head.append(link);
  }
  try {
    const res = await fetch(KATEX_CSS_URL);
    if (!res.ok) return;
    const sheet = new CSSStyleSheet();
    sheet.replaceSync((await res.text()).replace(/@font-face\s*\{[^}]*\}/g, ''));
    katexSheet = sheet;
  } catch {
    /* unstyled math is still readable */
  }
}

/** Imports KaTeX and its stylesheet (once). Never rejects: on failure math stays as source. */
export function loadKatex(): Promise<void> {
  loading ??= Promise.all([import('katex'), loadSheet()])
    .then(([mod]) => {
      katex = (mod.default ?? mod) as Katex;
      katexLoaded = true;
    })
    .catch(() => {
      // Offline or blocked: the raw TeX stays visible, and nobody waits for it again.
      katexFailed = true;
    });
  return loading;
}

let katexFailed = false;

/** Whether rendering math is worth waiting for (KaTeX not loaded yet and not failed). */
export const katexPending = (): boolean => !katex && !katexFailed;

/** KaTeX's HTML for one span, or null before KaTeX is loaded. Output is KaTeX's own (escaped, trust off). */
export function renderTex(span: MathSpan): string | null {
  if (!katex) return null;
  return katex.renderToString(span.tex, { displayMode: span.display, throwOnError: false, strict: 'ignore', trust: false, output: 'htmlAndMathml' });
}

/** Adopts KaTeX's stylesheet into a shadow root (after loadKatex resolved). */
export function adoptKatexCss(root: ShadowRoot): void {
  if (katexSheet && !root.adoptedStyleSheets.includes(katexSheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, katexSheet];
}
