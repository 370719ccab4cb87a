import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { formatNumber } from '../i18n/format.js';
import { consume } from '@lit/context';
import { apiLinkUrl } from '../api/client.js';
import { chatContext } from '../state/contexts.js';
import type { ChatStore } from '../state/chat-store.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import { mediaKind, type MediaKind } from '../../src/shared/media-kind.js';
import { parseCsv, type CsvPreview } from '../render/csv.js';

/** Rows of a CSV shown in place (the header counts as one). */
export const CSV_PREVIEW_ROWS = 50;
/** Bytes of a CSV fetched for the preview: enough for 50 ordinary rows, never the whole of a large file. */
const CSV_PREVIEW_BYTES = 256 * 1024;

/**
 * Messages are re-rendered while they stream and when the transcript window moves: what one
 * element learnt (an image's size, a CSV's rows) is kept per URL, so its next copy draws at once.
 */
const imageSizes = new Map<string, { w: number; h: number }>();
const csvPreviews = new Map<string, Promise<CsvPreview>>();
const CACHE_MAX = 100;

function remember<K, V>(map: Map<K, V>, key: K, value: V): V {
  map.set(key, value);
  if (map.size > CACHE_MAX) map.delete(map.keys().next().value as K);
  return value;
}

async function fetchCsv(url: string, delimiter: string | undefined): Promise<CsvPreview> {
  const res = await fetch(url, { headers: { Range: `bytes=0-${CSV_PREVIEW_BYTES - 1}` }, credentials: 'same-origin' });
  if (!res.ok) throw new Error(await errorOf(res));
  const text = await res.text();
  const total = Number(res.headers.get('Content-Range')?.split('/')[1] ?? NaN);
  return parseCsv(text, { maxRows: CSV_PREVIEW_ROWS, delimiter, truncated: res.status === 206 && total > CSV_PREVIEW_BYTES });
}

async function errorOf(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { error?: string };
    return body.error || `HTTP ${res.status}`;
  } catch {
    return `HTTP ${res.status}`;
  }
}

/**
 * One file an answer points at (a `MEDIA:` tag or a link to a local file), shown through
 * `/api/media`: an image (click opens it full size), an audio or video player, an SVG as an image
 * (never inline DOM), a PDF card with an embedded viewer on demand, a CSV as a table of its first
 * rows, anything else as a download chip. Images and videos sit in a box of fixed height, so the
 * text around them does not move when they load.
 */
@customElement('hermes-media')
@localized()
export class HermesMedia extends LitElement {
  @property({ attribute: 'data-path' }) path = '';
  @property({ attribute: 'data-alt' }) alt = '';
  /** The session whose roots the path is looked up in; defaults to the open chat's. */
  @property({ attribute: 'data-session' }) session = '';

  @consume({ context: chatContext, subscribe: true }) chat?: ChatStore;

  @state() private failed: string | null = null;
  @state() private csv: CsvPreview | null = null;
  @state() private pdfOpen = false;

  get kind(): MediaKind {
    return mediaKind(this.path);
  }

  get name(): string {
    const clean = this.path.replace(/[\\/]+$/, '');
    return clean.slice(Math.max(clean.lastIndexOf('/'), clean.lastIndexOf('\\')) + 1) || clean;
  }

  /** The file's `/api/media` URL (`inline` for players, pages and documents opened in a tab). */
  url(options: { inline?: boolean; download?: boolean } = {}): string | null {
    const sid = this.session || this.chat?.sessionId || this.chat?.openedId;
    if (!sid || !this.path) return null;
    const q = new URLSearchParams({ path: this.path, session_id: sid });
    if (options.inline) q.set('inline', '1');
    if (options.download) q.set('download', '1');
    return apiLinkUrl(`/api/media?${q}`);
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.setAttribute('data-role', 'media');
  }

  protected override willUpdate(changed: Map<string, unknown>): void {
    this.setAttribute('data-kind', this.kind);
    if ((changed.has('path') || changed.has('session') || changed.has('chat')) && this.kind === 'csv') void this.#loadCsv();
  }

  async #loadCsv(): Promise<void> {
    const url = this.url({ inline: true });
    if (!url) return;
    const delimiter = /\.tsv$/i.test(this.path) ? '\t' : undefined;
    let preview = csvPreviews.get(url);
    if (!preview) {
      preview = remember(csvPreviews, url, fetchCsv(url, delimiter));
      // A failure is not kept: the next copy of this element asks again.
      preview.catch(() => csvPreviews.delete(url));
    }
    try {
      const result = await preview;
      if (this.url({ inline: true }) === url) this.csv = result;
    } catch (err) {
      this.failed = (err as Error).message;
    }
  }

  #onImageLoad = (e: Event) => {
    const img = e.target as HTMLImageElement;
    const src = img.getAttribute('src');
    if (src && img.naturalWidth) remember(imageSizes, src, { w: img.naturalWidth, h: img.naturalHeight });
  };

  #onError = () => {
    this.failed = msg('Could not load this file');
  };

  #chip(url: string, note?: string) {
    return html`<a class="chip" data-role="media-file" href=${this.url({ download: true }) ?? url} download=${this.name}
      >${icons.file()}<span class="name">${this.name}</span>${note ? html`<span class="note">${note}</span>` : nothing}${icons.download()}</a
    >`;
  }

  override render() {
    const url = this.url();
    if (!url) return html`<code class="raw">${this.path}</code>`;
    if (this.failed) return this.#chip(url, this.failed);
    switch (this.kind) {
      case 'image':
      case 'svg': {
        const src = this.kind === 'svg' ? this.url({ inline: true })! : url;
        const known = imageSizes.get(src);
        // Known small images get their own height; everything else the fixed frame (no jump on load).
        const height = known && known.h < 240 ? `${known.h}px` : '';
        return html`<a class="frame" data-role="media-open" href=${this.url({ inline: true })!} target="_blank" rel="noopener"
          ><img data-role=${this.kind === 'svg' ? 'media-svg' : 'media-image'} src=${src} alt=${this.alt || this.name} loading="lazy" decoding="async"
            style=${height ? `height: ${height}` : nothing} @load=${this.#onImageLoad} @error=${this.#onError}
        /></a>`;
      }
      case 'audio':
        return html`<figure class="player"><audio data-role="media-audio" controls preload="metadata" src=${this.url({ inline: true })!} @error=${this.#onError}></audio
          ><figcaption>${this.name}</figcaption></figure>`;
      case 'video':
        return html`<figure class="player"><video data-role="media-video" controls preload="metadata" playsinline src=${this.url({ inline: true })!} @error=${this.#onError}></video
          ><figcaption>${this.name}</figcaption></figure>`;
      case 'pdf':
        return html`<div class="card" data-role="media-pdf">
          ${icons.file()}<span class="name">${this.name}</span>
          <button type="button" data-role="media-pdf-toggle" aria-expanded=${this.pdfOpen ? 'true' : 'false'} @click=${() => (this.pdfOpen = !this.pdfOpen)}>
            ${this.pdfOpen ? msg('Hide') : msg('Preview')}
          </button>
          <a href=${this.url({ inline: true })!} target="_blank" rel="noopener">${msg('Open')}</a>
          <a href=${this.url({ download: true })!} download=${this.name} aria-label=${msg('Download')}>${icons.download()}</a>
          ${this.pdfOpen ? html`<iframe class="pdf" title=${this.name} src=${this.url({ inline: true })!}></iframe>` : nothing}
        </div>`;
      case 'csv':
        return this.#csvView(url);
      default:
        return this.#chip(url);
    }
  }

  #csvView(url: string) {
    const csv = this.csv;
    if (!csv) return html`<div class="csv loading" data-role="media-csv" aria-busy="true">${icons.spinner()} ${this.name}</div>`;
    const [head = [], ...body] = csv.rows;
    return html`<figure class="csv" data-role="media-csv">
      <div class="scroll">
        <table>
          <thead><tr>${head.map((c) => html`<th scope="col">${c}</th>`)}</tr></thead>
          <tbody>${body.map((r) => html`<tr>${r.map((c) => html`<td>${c}</td>`)}</tr>`)}</tbody>
        </table>
      </div>
      <figcaption>
        <span class="name">${this.name}</span>
        ${csv.more ? html`<span class="note" data-role="media-csv-more">${msg(str`first ${formatNumber(CSV_PREVIEW_ROWS)} rows`)}</span>` : nothing}
        <a href=${this.url({ download: true }) ?? url} download=${this.name} aria-label=${msg('Download')}>${icons.download()}</a>
      </figcaption>
    </figure>`;
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        display: block;
        margin: var(--hermes-space-sm) 0;
        max-width: 100%;
      }
      a {
        color: var(--hermes-accent);
      }
      .frame {
        display: inline-block;
        max-width: 100%;
        border-radius: var(--hermes-radius-md);
        overflow: hidden;
        background: var(--hermes-panel-subtle);
      }
      img {
        display: block;
        height: calc(var(--hermes-space-xl) * 10);
        width: auto;
        max-width: 100%;
        object-fit: scale-down;
      }
      .player {
        margin: 0;
      }
      audio {
        display: block;
        width: min(100%, calc(var(--hermes-space-xl) * 16));
      }
      video {
        display: block;
        height: calc(var(--hermes-space-xl) * 10);
        max-width: 100%;
        background: var(--hermes-panel-subtle);
        border-radius: var(--hermes-radius-md);
      }
      figcaption,
      .note {
        color: var(--hermes-fg-muted);
        font-size: var(--hermes-text-label);
      }
      figcaption {
        display: flex;
        gap: var(--hermes-space-sm);
        align-items: center;
        margin-top: var(--hermes-space-xs);
      }
      .card,
      .chip {
        display: inline-flex;
        flex-wrap: wrap;
        align-items: center;
        gap: var(--hermes-space-sm);
        padding: var(--hermes-space-xs) var(--hermes-space-sm);
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-md);
        background: var(--hermes-panel-subtle);
        max-width: 100%;
        text-decoration: none;
      }
      .chip {
        color: var(--hermes-fg);
      }
      .name {
        overflow-wrap: anywhere;
      }
      .pdf {
        flex-basis: 100%;
        width: 100%;
        height: calc(var(--hermes-space-xl) * 20);
        border: 0;
        border-radius: var(--hermes-radius-sm);
        background: var(--hermes-bg);
      }
      .csv {
        margin: 0;
      }
      .csv.loading {
        display: flex;
        gap: var(--hermes-space-sm);
        align-items: center;
        color: var(--hermes-fg-muted);
      }
      .scroll {
        width: fit-content;
        max-width: 100%;
        max-height: calc(var(--hermes-space-xl) * 14);
        overflow: auto;
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-md);
      }
      table {
        border-collapse: collapse;
        font-size: var(--hermes-text-label);
        font-variant-numeric: tabular-nums;
      }
      th,
      td {
        padding: var(--hermes-space-xs) var(--hermes-space-sm);
        border-bottom: var(--hermes-border-width) solid var(--hermes-border);
        text-align: left;
        white-space: nowrap;
      }
      th {
        position: sticky;
        top: 0;
        background: var(--hermes-panel);
      }
      .raw {
        font-family: var(--hermes-font-mono);
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-media': HermesMedia;
  }
}
