import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized } from '@lit/localize';
import { formatNumber } from '../i18n/format.js';
import { apiLinkUrl, q } from '../api/client.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';

/** One entry of a user message's `attachments` (the upload answer's fields, or a bare path from older messages). */
export interface MessageAttachmentView {
  name: string;
  path: string;
  size: number | null;
  isImage: boolean;
}

const IMAGE_NAME = /\.(png|jpe?g|gif|webp)$/i;

/** The stored list, whichever shape a message has (strings, `{path, filename|name, size, is_image}`). */
export function messageAttachments(list: unknown): MessageAttachmentView[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((a): MessageAttachmentView[] => {
    const rec = typeof a === 'string' ? { path: a } : a && typeof a === 'object' ? (a as Record<string, unknown>) : null;
    if (typeof rec?.path !== 'string' || !rec.path) return [];
    const path = rec.path;
    const name = [rec.filename, rec.name].find((v): v is string => typeof v === 'string' && !!v) ?? path.split(/[\\/]/).pop() ?? path;
    // The server decides by the file's bytes; older entries without the flag go by their name.
    const isImage = typeof rec.is_image === 'boolean' ? rec.is_image : IMAGE_NAME.test(name);
    return [{ name, path, size: typeof rec.size === 'number' ? rec.size : null, isImage }];
  });
}

/** Where the attachment store is served (GET /api/media); `inline` for thumbnails, else a download. */
export function mediaUrl(path: string, sessionId: string | null, inline: boolean): string {
  return apiLinkUrl(`/api/media?${q({ path, session_id: sessionId ?? undefined, inline: inline ? 1 : undefined })}`);
}

function size(bytes: number | null): string {
  if (bytes === null) return '';
  if (bytes < 1024) return formatNumber(bytes, { style: 'unit', unit: 'byte', unitDisplay: 'narrow' });
  if (bytes < 1024 * 1024) return formatNumber(Math.round(bytes / 1024), { style: 'unit', unit: 'kilobyte' });
  return formatNumber(bytes / 1024 / 1024, { style: 'unit', unit: 'megabyte', minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/**
 * A sent message's attachments under its bubble: thumbnails for images, chips for other files,
 * each opening the stored file. Drawn from the stored list, so they survive a reload.
 */
@customElement('hermes-message-attachments')
@localized()
export class HermesMessageAttachments extends LitElement {
  @property({ attribute: false }) items: MessageAttachmentView[] = [];
  @property({ attribute: false }) sessionId: string | null = null;
  /** Images the server could not serve (deleted since): a file icon and the name instead of a broken picture. */
  @state() private broken = new Set<string>();

  #failed(path: string) {
    this.broken = new Set([...this.broken, path]);
  }

  override render() {
    if (!this.items.length) return nothing;
    return html`${this.items.map((a) =>
      a.isImage
        ? html`<a class="thumb ${this.broken.has(a.path) ? 'broken' : ''}" data-role="attachment-thumb" href=${mediaUrl(a.path, this.sessionId, true)} target="_blank" rel="noopener" title=${a.name}>
            <img src=${mediaUrl(a.path, this.sessionId, true)} alt="" loading="lazy" decoding="async" @error=${() => this.#failed(a.path)} />
            ${this.broken.has(a.path) ? html`<span class="missing">${icons.file()}<span class="name">${a.name}</span></span>` : nothing}
          </a>`
        : html`<a class="chip" data-role="attachment-chip" href=${mediaUrl(a.path, this.sessionId, false)} title=${a.path} download=${a.name}>
            ${icons.file()}<span class="name">${a.name}</span>${a.size !== null ? html`<span class="size">${size(a.size)}</span>` : nothing}
          </a>`,
    )}`;
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        display: flex;
        flex-wrap: wrap;
        justify-content: flex-end;
        gap: var(--hermes-space-xs);
        max-width: min(85%, 620px);
      }
      .thumb {
        display: block;
        width: 96px;
        height: 96px;
        border-radius: var(--hermes-radius-md);
        overflow: hidden;
        border: 1px solid var(--hermes-border);
        background: var(--hermes-color-surface-subtle);
      }
      .thumb {
        position: relative;
      }
      .thumb img {
        width: 100%;
        height: 100%;
        object-fit: cover;
        display: block;
      }
      .broken img {
        visibility: hidden;
      }
      .missing {
        position: absolute;
        inset: 0;
        display: flex;
        flex-direction: column;
        align-items: center;
        justify-content: center;
        gap: var(--hermes-space-xs);
        padding: var(--hermes-space-xs);
        color: var(--hermes-fg-muted);
        font-size: var(--hermes-text-label);
      }
      .missing .name {
        max-width: 100%;
      }
      .chip {
        display: inline-flex;
        align-items: center;
        gap: var(--hermes-space-xs);
        padding: var(--hermes-space-xs) var(--hermes-space-sm);
        border-radius: var(--hermes-radius-md);
        border: 1px solid var(--hermes-border);
        color: var(--hermes-fg);
        font-size: var(--hermes-text-label);
        text-decoration: none;
        max-width: 240px;
      }
      .name {
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
      }
      .size {
        color: var(--hermes-fg-muted);
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-message-attachments': HermesMessageAttachments;
  }
}
