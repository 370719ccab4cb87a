import { LitElement, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { api, ApiError } from '../api/client.js';
import { mimeFor } from '../../src/shared/mime.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import { previewStyles } from './file-preview-styles.js';
import './hermes-file-editor.js';
import '../chat/hermes-markdown.js';
import type { HermesEvent } from '../events.js';
import { emit } from '../events.js';
import { formatNumber } from '../i18n/format.js';

export type PreviewKind = 'text' | 'markdown' | 'image' | 'download';
type View =
  | { kind: 'loading' }
  | { kind: 'text' | 'markdown'; content: string; size: number }
  | { kind: 'image' | 'download' }
  | { kind: 'error'; message: string; size?: number };

const TEXTUAL = /^(text\/|application\/(json|xml|javascript|manifest\+json))/;

/** How a file is shown, from its name alone; `probe` means: read it and look. */
export function previewKind(name: string): PreviewKind | 'probe' {
  const mime = mimeFor(name);
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('text/markdown')) return 'markdown';
  if (TEXTUAL.test(mime)) return 'text';
  // Unknown extensions (Makefile, .rs, .toml…) are usually text; known binary types never are.
  return mime === 'application/octet-stream' ? 'probe' : 'download';
}

/** A file size in the current language (Intl units: "1.5 kB", "1,5 ko"…). */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return formatNumber(bytes, { style: 'unit', unit: 'byte', unitDisplay: 'narrow' });
  if (bytes < 1024 * 1024) return formatNumber(bytes / 1024, { style: 'unit', unit: 'kilobyte', maximumFractionDigits: bytes < 10 * 1024 ? 1 : 0 });
  return formatNumber(bytes / 1024 / 1024, { style: 'unit', unit: 'megabyte', maximumFractionDigits: 1 });
}

/**
 * One workspace file: text with line numbers, rendered markdown, an image, or a download link
 * for anything else. Text files can be edited in place.
 *
 * @fires close - the user closed the preview
 */
@customElement('hermes-file-preview')
@localized()
export class HermesFilePreview extends LitElement {
  @property() sessionId: string | null = null;
  /** Workspace-relative path of the file to show. */
  @property() path: string | null = null;

  @state() private view: View = { kind: 'loading' };
  @state() private editing = false;
  #token = 0;

  /** Whether the editor holds changes that are not saved. */
  get dirty(): boolean {
    return !!this.renderRoot?.querySelector('hermes-file-editor')?.dirty;
  }

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('path') || changed.has('sessionId')) {
      this.editing = false;
      void this.load();
    }
  }

  async load(): Promise<void> {
    const token = ++this.#token;
    const { sessionId: sid, path } = this;
    if (!sid || !path) return;
    const kind = previewKind(path);
    if (kind === 'image' || kind === 'download') {
      this.view = { kind };
      return;
    }
    this.view = { kind: 'loading' };
    try {
      const file = await api.file(sid, path);
      if (token !== this.#token) return;
      const binary = kind === 'probe' && file.content.includes('\u0000');
      this.view = binary ? { kind: 'download' } : { kind: kind === 'markdown' ? 'markdown' : 'text', content: file.content, size: file.size };
    } catch (err) {
      if (token !== this.#token) return;
      const size = err instanceof ApiError && typeof err.body.size === 'number' ? err.body.size : undefined;
      this.view = { kind: 'error', message: (err as Error).message, ...(size !== undefined ? { size } : {}) };
    }
  }

  #download(label = msg('Download')) {
    if (!this.sessionId || !this.path) return nothing;
    return html`<a class="download" data-role="download" href=${api.rawUrl(this.sessionId, this.path, true)} download>${icons.download()}${label}</a>`;
  }

  #body() {
    const v = this.view;
    const sid = this.sessionId!;
    const path = this.path!;
    const name = path.split('/').pop() ?? path;
    switch (v.kind) {
      case 'loading':
        return html`<div class="note meta">${icons.spinner()} ${msg('Loading…')}</div>`;
      case 'error':
        return html`<div class="note" data-kind="error">
          <p class="error" role="alert">${v.message}${v.size !== undefined ? html` <span class="meta">(${formatSize(v.size)})</span>` : nothing}</p>
          ${this.#download()}
        </div>`;
      case 'image':
        return html`<div class="image" data-kind="image"><img src=${api.rawUrl(sid, path)} alt=${name} /></div>`;
      case 'download':
        return html`<div class="note" data-kind="download"><p class="meta">${msg('No preview for this kind of file.')}</p>${this.#download(msg(str`Download ${name}`))}</div>`;
    }
    if (this.editing) {
      return html`<hermes-file-editor
        .sessionId=${sid}
        .path=${path}
        .content=${v.content}
        @hermes-file-saved=${(e: HermesEvent<'hermes-file-saved'>) => {
          this.view = { ...v, content: e.detail.content, size: new Blob([e.detail.content]).size };
          this.editing = false;
        }}
        @hermes-edit-cancel=${() => (this.editing = false)}
      ></hermes-file-editor>`;
    }
    if (v.kind === 'markdown') return html`<div class="markdown" data-kind="markdown"><hermes-markdown .text=${v.content}></hermes-markdown></div>`;
    const lines = v.content.split('\n');
    const count = lines.length > 1 && v.content.endsWith('\n') ? lines.length - 1 : lines.length;
    return html`<div class="code" data-kind="text">
      <pre class="gutter" aria-hidden="true">${Array.from({ length: count }, (_, i) => i + 1).join('\n')}</pre>
      <pre class="source">${v.content}</pre>
    </div>`;
  }

  override render() {
    if (!this.path) return nothing;
    const v = this.view;
    const parts = this.path.split('/');
    const name = parts.pop();
    const editable = (v.kind === 'text' || v.kind === 'markdown') && !this.editing;
    return html`
      <header>
        <span class="title" title=${this.path}>
          <span class="name mono">${name}</span>
          ${parts.length ? html`<span class="dir mono">${parts.join('/')}/</span>` : nothing}
        </span>
        ${v.kind === 'text' || v.kind === 'markdown' ? html`<span class="meta size">${formatSize(v.size)}</span>` : nothing}
        ${editable ? html`<button class="icon-button" title=${msg('Edit')} aria-label=${msg('Edit file')} data-action="edit" @click=${() => (this.editing = true)}>${icons.edit()}</button>` : nothing}
        ${
          this.sessionId && v.kind !== 'download' && v.kind !== 'error'
            ? html`<a class="icon-button" title=${msg('Download')} aria-label=${msg('Download file')} href=${api.rawUrl(this.sessionId, this.path, true)} download>${icons.download()}</a>`
            : nothing
        }
        <button class="icon-button" title=${msg('Close preview')} aria-label=${msg('Close preview')} data-action="close-preview" @click=${() => emit(this, 'hermes-preview-close', null, { local: true })}>${icons.close()}</button>
      </header>
      ${this.#body()}
    `;
  }

  static override styles = [baseStyles, previewStyles];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-file-preview': HermesFilePreview;
  }
}
