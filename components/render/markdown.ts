import { Marked, type Tokens } from 'marked';
import { msg } from '@lit/localize';
import { currentLocale } from '../i18n/localization.js';
import DOMPurify from 'dompurify';
import { MATH_TOKEN_RE, extractMath, katexPending, loadKatex, renderTex, type MathSpan } from './math.js';
import { canHighlight, highlight, languageOf, loadLanguages } from './highlight.js';
import { MEDIA_TAG, mediaExtension } from './media.js';
import { holdOpenMediaTail } from './media-refs.js';

/** Sanitised HTML for one markdown text, and what it still waits for. */
export interface Rendered {
  html: string;
  hasMath: boolean;
  /** Resolves (never rejects) when KaTeX or a highlight.js language it needs has loaded: render again then. */
  pending: Promise<void> | null;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const marked = new Marked({ gfm: true, breaks: false, async: false });
marked.use({
  renderer: {
    // A labelled block with a copy button; highlighting happens after sanitising, on the DOM.
    code({ text, lang }: Tokens.Code): string {
      const label = (lang ?? '').match(/^\S*/)?.[0] ?? '';
      const canonical = languageOf(label);
      const body = text.replace(/\n$/, '');
      return (
        `<div class="code-block" data-role="code-block"><div class="code-head">` +
        `<span class="code-lang" data-role="code-lang">${escapeHtml(label)}</span>` +
        `<button type="button" class="copy" data-role="copy-code" aria-label="${escapeHtml(msg('Copy code'))}">${escapeHtml(msg('Copy'))}</button></div>` +
        `<pre><code${canonical ? ` data-lang="${canonical}"` : ''}>${escapeHtml(body)}</code></pre></div>\n`
      );
    },
  },
});

// `MEDIA:` tags and links to local files become <hermes-media> (components/render/media.ts).
marked.use(mediaExtension);

// Own instance, so the hook below does not leak into anyone else's DOMPurify use.
const purify = DOMPurify(window);
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && node.hasAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});
const PURIFY_CONFIG = {
  ADD_TAGS: [MEDIA_TAG],
  FORBID_TAGS: ['style', 'form', 'input', 'textarea', 'select', 'option', 'dialog'],
  // Inline styles from the model could cover the page; KaTeX's own styles are added after this.
  FORBID_ATTR: ['style'],
};

/** Swaps math placeholders for KaTeX (or the raw source while it loads, and always inside code). */
function placeMath(root: DocumentFragment, spans: MathSpan[]): void {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const hits: Text[] = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) if (n.nodeValue?.includes('\uE000')) hits.push(n as Text);
  for (const node of hits) {
    const inCode = !!node.parentElement?.closest('code, pre');
    const frag = document.createDocumentFragment();
    let last = 0;
    const value = node.nodeValue!;
    for (const m of value.matchAll(MATH_TOKEN_RE)) {
      frag.append(value.slice(last, m.index));
      last = m.index + m[0].length;
      const span = spans[Number(m[1])];
      if (!span) continue;
      const rendered = inCode ? null : renderTex(span);
      if (rendered === null) {
        frag.append(span.raw);
        continue;
      }
      const holder = document.createElement('span');
      holder.className = span.display ? 'math math-display' : 'math';
      holder.innerHTML = rendered;
      frag.append(holder);
    }
    frag.append(value.slice(last));
    node.replaceWith(frag);
  }
}

// Entries are blocks (render/markdown-blocks.ts), not whole messages: a long transcript has many.
const CACHE_MAX = 2000;
const cache = new Map<string, Rendered>();

/** How many texts were actually parsed (cache misses): what tests and benches count. */
export const markdownStats = { parses: 0 };

/**
 * Markdown to safe HTML: math lifted out, marked, DOMPurify, then KaTeX and highlight.js on the
 * result. Complete results are cached by text (bounded, oldest first out).
 */
export function renderMarkdown(text: string, options: { cache?: boolean } = {}): Rendered {
  // The HTML holds the copy button's words: one entry per language.
  const key = `${currentLocale()}\u0000${text}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  markdownStats.parses++;
  // An uncached render is a streaming one: a tag still being written waits for its line to end.
  const { source, spans } = extractMath(options.cache === false ? holdOpenMediaTail(text) : text);
  const clean = purify.sanitize(marked.parse(source) as string, PURIFY_CONFIG) as string;
  const waits: Promise<void>[] = [];
  let html = clean;
  if (spans.length || clean.includes('data-lang="')) {
    const tpl = document.createElement('template');
    tpl.innerHTML = clean;
    if (spans.length) {
      if (katexPending()) waits.push(loadKatex());
      placeMath(tpl.content, spans);
    }
    const missing = new Set<string>();
    for (const code of tpl.content.querySelectorAll<HTMLElement>('code[data-lang]')) {
      const lang = code.dataset.lang!;
      if (canHighlight(lang)) code.innerHTML = highlight(code.textContent ?? '', lang);
      else if (languageOf(lang)) missing.add(lang);
    }
    if (missing.size) waits.push(loadLanguages(missing));
    html = tpl.innerHTML;
  }
  const rendered: Rendered = { html, hasMath: spans.length > 0, pending: waits.length ? Promise.all(waits).then(() => undefined) : null };
  if (options.cache !== false && !rendered.pending) {
    cache.set(key, rendered);
    if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!);
  }
  return rendered;
}
