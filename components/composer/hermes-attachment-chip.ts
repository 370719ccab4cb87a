import { LitElement, css, html, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { formatNumber } from '../i18n/format.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import { emit } from '../events.js';
import type { Extraction } from './attachments.js';

function sizeLabel(bytes: number): string {
  if (!bytes) return '';
  if (bytes < 1024) return formatNumber(bytes, { style: 'unit', unit: 'byte', unitDisplay: 'narrow' });
  if (bytes < 1024 * 1024) return formatNumber(Math.round(bytes / 1024), { style: 'unit', unit: 'kilobyte' });
  return formatNumber(bytes / 1024 / 1024, { style: 'unit', unit: 'megabyte', minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/** "3 files → bundle/": one message per count form, the count through Intl. */
function extracted(count: number, folder: string): string {
  return count === 1 ? msg(str`1 file → ${folder}/`) : msg(str`${formatNumber(count)} files → ${folder}/`);
}

/**
 * One attached file in the composer: name, upload progress, failure, and a remove button. An
 * uploaded archive also offers "Extract into workspace" and then says, quietly, where it went.
 *
 * @fires hermes-attachment-remove - the user removed it
 * @fires hermes-attachment-extract - the user asked for the archive to be extracted
 */
@customElement('hermes-attachment-chip')
@localized()
export class HermesAttachmentChip extends LitElement {
  @property() name = '';
  @property({ type: Number }) size = 0;
  @property({ reflect: true }) status: 'uploading' | 'done' | 'error' = 'uploading';
  /** 0..1 */
  @property({ type: Number }) progress = 0;
  @property() error = '';
  /** An archive that can be extracted into the workspace. */
  @property({ type: Boolean }) extractable = false;
  @property({ attribute: false }) extraction?: Extraction;

  override render() {
    const pct = Math.round(this.progress * 100);
    const x = this.extraction;
    const detail =
      this.status === 'uploading'
        ? formatNumber(this.progress, { style: 'percent' })
        : this.status === 'error'
          ? this.error || msg('Upload failed')
          : x?.state === 'running'
            ? msg('Extracting…')
            : x?.state === 'done'
              ? extracted(x.count ?? 0, x.folder ?? '')
              : sizeLabel(this.size);
    const icon =
      this.status === 'error'
        ? icons.alert()
        : this.status === 'uploading' || x?.state === 'running'
          ? icons.spinner()
          : x?.state === 'done'
            ? icons.folder()
            : icons.file();
    const offer = this.extractable && this.status === 'done' && (!x || x.state === 'error');
    return html`
      <div class="chip" data-role="attachment-chip" data-state=${this.status} data-extraction=${x?.state ?? nothing} title=${this.status === 'error' ? `${this.name}: ${detail}` : this.name}>
        <span class="icon">${icon}</span>
        <span class="name">${this.name}</span>
        ${detail ? html`<span class="detail" data-role="attachment-detail" title=${x?.state === 'done' ? msg(str`Extracted into the workspace: ${x.folder}/`) : nothing}>${detail}</span>` : nothing}
        ${x?.state === 'error' ? html`<span class="detail failed" role="alert" data-role="attachment-extract-error" title=${x.error ?? ''}>${x.error}</span>` : nothing}
        ${
          offer
            ? html`<button class="extract" data-role="attachment-extract" aria-label=${msg(str`Extract ${this.name} into workspace`)} title=${msg('Extract into workspace')} @click=${this.#extract}>
              ${icons.archive()}<span>${msg('Extract')}</span>
            </button>`
            : nothing
        }
        <button class="remove" data-role="attachment-remove" aria-label=${msg(str`Remove ${this.name}`)} title=${msg('Remove')} @click=${this.#remove}>${icons.close()}</button>
        ${
          this.status === 'uploading'
            ? html`<span class="bar" role="progressbar" aria-label=${msg(str`Uploading ${this.name}`)} aria-valuemin="0" aria-valuemax="100" aria-valuenow=${pct}
              ><span style="width: ${pct}%"></span
            ></span>`
            : nothing
        }
      </div>
    `;
  }

  #extract() {
    emit(this, 'hermes-attachment-extract', null);
  }

  #remove() {
    emit(this, 'hermes-attachment-remove', null);
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        display: inline-flex;
        min-width: 0;
        max-width: 100%;
      }
      .chip {
        position: relative;
        display: inline-flex;
        align-items: center;
        gap: var(--hermes-space-xs);
        min-width: 0;
        max-width: 100%;
        padding: calc(var(--hermes-space-xs) / 2) calc(var(--hermes-space-xs) / 2) calc(var(--hermes-space-xs) / 2) var(--hermes-space-sm);
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-md);
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
        overflow: hidden;
      }
      .chip[data-state='error'] {
        border-color: var(--hermes-color-error);
        background: var(--hermes-error-bg);
      }
      .chip[data-state='error'] .icon,
      .chip[data-state='error'] .detail,
      .failed {
        color: var(--hermes-color-error);
      }
      .icon {
        display: inline-grid;
        flex: none;
      }
      .name {
        color: var(--hermes-fg);
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
        min-width: 0;
        max-width: 24ch;
      }
      .detail {
        flex: none;
        font-size: var(--hermes-text-meta);
        font-variant-numeric: tabular-nums;
        max-width: 28ch;
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
      }
      .extract {
        display: inline-flex;
        align-items: center;
        gap: calc(var(--hermes-space-xs) / 2);
        flex: none;
        padding: calc(var(--hermes-space-xs) / 2) var(--hermes-space-xs);
        border-radius: var(--hermes-radius-sm);
        font-size: var(--hermes-text-meta);
        color: var(--hermes-fg-muted);
      }
      .extract:hover {
        background: var(--hermes-hover);
        color: var(--hermes-fg);
      }
      .remove {
        display: inline-grid;
        place-items: center;
        flex: none;
        padding: calc(var(--hermes-space-xs) / 2);
        border-radius: var(--hermes-radius-sm);
        color: var(--hermes-fg-muted);
      }
      .bar {
        position: absolute;
        left: 0;
        right: 0;
        bottom: 0;
        height: calc(var(--hermes-border-width) * 2);
        background: var(--hermes-hover);
      }
      .bar span {
        display: block;
        height: 100%;
        background: var(--hermes-accent);
        transition: width var(--hermes-duration);
      }
      @media (max-width: 639px) {
        .extract,
        .remove {
          min-width: 32px;
          min-height: 32px;
        }
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-attachment-chip': HermesAttachmentChip;
  }
}
