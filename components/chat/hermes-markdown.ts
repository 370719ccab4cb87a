import { LitElement, html, type PropertyValues } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { localized, msg } from '@lit/localize';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import type * as MarkdownEngine from '../render/markdown.js';
import { adoptKatexCss } from '../render/math.js';
import { copyText } from '../render/clipboard.js';
import { proseStyles } from '../render/prose-styles.js';
import { BlockSplitter } from '../render/markdown-blocks.js';

/**
 * marked and DOMPurify are a third of the app's script, and the first paint needs neither: the
 * engine starts loading as soon as this module runs and arrives in parallel with the shell.
 */
let engine: typeof MarkdownEngine | null = null;
const engineReady: Promise<void> = import('../render/markdown.js').then((m) => {
  engine = m;
});

interface Block {
  text: string;
  html: string;
  /** Rendered before the engine, KaTeX or a highlight.js language had loaded: parse it again. */
  waiting: boolean;
  math?: boolean;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Assistant prose: markdown rendered to sanitised HTML (tables, labelled code blocks with a copy
 * button, KaTeX math, highlight.js colours; the last two load only when the text needs them).
 * The text is rendered block by block: while `streaming` only the growing last block is parsed,
 * at most once per animation frame; every other block is parsed once and cached by its text.
 *
 * @csspart prose - the rendered markdown
 */
@customElement('hermes-markdown')
@localized()
export class HermesMarkdown extends LitElement {
  @property() text = '';
  @property({ type: Boolean, reflect: true }) streaming = false;

  /** The rendered blocks (render/markdown-blocks.ts): a settled block keeps its HTML string, so Lit keeps its DOM. */
  #blocks: Block[] = [];
  #splitter = new BlockSplitter();
  #hasMath = false;
  #frame = 0;
  #dirty = false;
  #pending: Promise<void> | null = null;
  /** Blocks this element has parsed (markdown cache misses): a settled message stays at its count. */
  parseCount = 0;

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!changed.has('text') && !changed.has('streaming')) return;
    if (!this.streaming) {
      cancelAnimationFrame(this.#frame);
      this.#frame = 0;
      this.#parse();
      return;
    }
    // Streaming: parse now if this frame has not parsed yet, otherwise once at the next frame.
    if (this.#frame) {
      this.#dirty = true;
      return;
    }
    this.#parse();
    this.#frame = requestAnimationFrame(this.#onFrame);
  }

  #onFrame = () => {
    this.#frame = 0;
    if (!this.#dirty) return;
    this.#dirty = false;
    this.#parse();
    this.requestUpdate();
    this.#frame = requestAnimationFrame(this.#onFrame);
  };

  #parse(): void {
    const md = engine;
    if (!md) {
      // Until the engine arrives (milliseconds after start-up), show the text as it is.
      this.#blocks = [{ text: this.text, html: `<p style="white-space: pre-wrap">${escapeHtml(this.text)}</p>`, waiting: true }];
      this.#hasMath = false;
      this.#waitFor(engineReady);
      return;
    }
    const parts = this.#splitter.split(this.text, !this.streaming);
    const before = md.markdownStats.parses;
    const waits: Promise<void>[] = [];
    this.#blocks = parts.map((part, i) => {
      const prev = this.#blocks[i];
      if (prev && prev.text === part && !prev.waiting) return prev;
      // While streaming, the tail is still growing: it is not worth a cache entry.
      const r = md.renderMarkdown(part, { cache: !this.streaming || i < parts.length - 1 });
      if (r.pending) waits.push(r.pending);
      return { text: part, html: r.html, waiting: !!r.pending, math: r.hasMath };
    });
    this.parseCount += md.markdownStats.parses - before;
    this.#hasMath = this.#blocks.some((b) => b.math);
    if (!waits.length) {
      this.#pending = null;
      return;
    }
    this.#waitFor(Promise.all(waits));
  }

  /** Parses again once `ready` settles, if the text is still the same. */
  #waitFor(ready: Promise<unknown>): void {
    const text = this.text;
    const p: Promise<void> = ready.then(() => {
      if (this.#pending !== p) return;
      this.#pending = null;
      if (this.text === text) {
        this.#parse();
        this.requestUpdate();
      }
    });
    this.#pending = p;
  }

  /** Also waits for lazily loaded KaTeX / languages and the render that follows them. */
  protected override async getUpdateComplete(): Promise<boolean> {
    let done = await super.getUpdateComplete();
    while (this.#pending) {
      await this.#pending;
      done = await super.getUpdateComplete();
    }
    return done;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    this.#dirty = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Text that changed while detached (frame cancelled above) is parsed again on reconnect.
    if (this.hasUpdated) this.requestUpdate('text');
  }

  protected override updated(): void {
    if (this.#hasMath && this.shadowRoot) adoptKatexCss(this.shadowRoot);
  }

  async #onClick(e: Event): Promise<void> {
    const button = (e.target as Element).closest<HTMLButtonElement>('[data-role="copy-code"]');
    const code = button?.closest('[data-role="code-block"]')?.querySelector('code');
    if (!button || !code) return;
    const ok = await copyText(code.textContent ?? '');
    button.textContent = ok ? msg('Copied') : msg('Copy failed');
    setTimeout(() => (button.textContent = msg('Copy')), 1500);
  }

  override render() {
    return html`<div class="prose" part="prose" @click=${this.#onClick}>${this.#blocks.map((b) => unsafeHTML(b.html))}</div>`;
  }

  static override styles = proseStyles;
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-markdown': HermesMarkdown;
  }
}
