import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { formatNumber } from '../i18n/format.js';
import { formatSeconds } from './usage-format.js';
import type { ToolView } from '../state/turns.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import { webResultView } from './web-result-view.js';

/** How much of a result shows before "Show more". */
export const RESULT_PREVIEW_CHARS = 600;

const FILE_TOOLS = new Set(['read_file', 'write_file', 'patch', 'search_files']);

function toolIcon(name: string) {
  if (name === 'terminal') return icons.terminal();
  if (name === 'web_search' || name === 'web_extract') return icons.search();
  if (FILE_TOOLS.has(name) || name.includes('file')) return icons.file();
  return icons.tool();
}

/** The status in words, asked at render time so a language switch reaches it. */
const statusLabel = (status: ToolView['status']): string => ({ running: msg('Running'), done: msg('Done'), error: msg('Failed') })[status];

/**
 * One tool call as a quiet debug row: icon, name, short target, status. Arguments and a
 * truncated result sit behind the row's own expansion ("Show more" reveals the full result).
 */
@customElement('hermes-tool-card')
@localized()
export class HermesToolCard extends LitElement {
  @property({ attribute: false }) tool?: ToolView;
  @property({ type: Boolean, reflect: true }) open = false;
  @state() private full = false;

  override render() {
    const t = this.tool;
    if (!t) return nothing;
    const result = t.result ?? '';
    const long = result.length > RESULT_PREVIEW_CHARS;
    const shown = long && !this.full ? `${result.slice(0, RESULT_PREVIEW_CHARS)}…` : result;
    const args = Object.keys(t.args).length ? JSON.stringify(t.args, null, 2) : '';
    const web = t.result !== undefined ? webResultView(t.name, result) : null;
    return html`
      <div class="card" data-role="tool-card" data-status=${t.status} data-tool=${t.name}>
        <button class="head" aria-expanded=${this.open ? 'true' : 'false'} @click=${() => (this.open = !this.open)}>
          <span class="icon">${toolIcon(t.name)}</span>
          <span class="name mono">${t.name}</span>
          <span class="preview mono" title=${t.preview}>${t.preview}</span>
          ${t.duration !== undefined ? html`<span class="meta duration">${formatSeconds(t.duration)}</span>` : nothing}
          <span class="status" data-role="tool-status" data-status=${t.status} title=${statusLabel(t.status)} aria-label=${statusLabel(t.status)}>
            ${t.status === 'running' ? icons.spinner() : t.status === 'error' ? icons.alert() : icons.check()}
          </span>
        </button>
        ${
          this.open
            ? html`<div class="body">
              ${args ? html`<div class="label">${msg('Arguments')}</div><pre class="mono" data-role="tool-args">${args}</pre>` : nothing}
              ${
                web
                  ? html`<div class="label">${msg('Result')}</div>
                      ${web}`
                  : t.result !== undefined
                    ? html`<div class="label">${msg('Result')}</div>
                    <pre class="mono" data-role="tool-result">${shown}</pre>
                    ${
                      long
                        ? html`<button class="more" data-role="show-more" @click=${() => (this.full = !this.full)}>
                          ${this.full ? msg('Show less') : msg(str`Show more (${formatNumber(result.length - RESULT_PREVIEW_CHARS)} more characters)`)}
                        </button>`
                        : nothing
                    }`
                    : html`<div class="meta">${t.status === 'running' ? msg('Waiting for the result…') : msg('No result.')}</div>`
              }
            </div>`
            : nothing
        }
      </div>
    `;
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        display: block;
        font-size: var(--hermes-text-label);
        line-height: var(--hermes-leading-ui);
      }
      .card {
        border-radius: var(--hermes-radius-md);
        background: var(--hermes-panel-subtle);
        color: var(--hermes-accent);
      }
      .card[data-status='error'] {
        background: var(--hermes-error-bg);
        box-shadow: inset 2px 0 0 var(--hermes-color-error);
      }
      .head {
        display: flex;
        align-items: center;
        gap: var(--hermes-space-sm);
        width: 100%;
        text-align: left;
        padding: var(--hermes-space-xs) var(--hermes-space-sm);
        min-height: 30px;
      }
      .icon,
      .status {
        display: inline-grid;
        place-items: center;
        flex: none;
        color: var(--hermes-fg-muted);
      }
      .name {
        flex: none;
        font-size: var(--hermes-text-meta);
        font-weight: 500;
        color: var(--hermes-fg);
      }
      .preview {
        flex: 1;
        min-width: 0;
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
        font-size: var(--hermes-text-meta);
        color: var(--hermes-fg-muted);
      }
      .duration {
        flex: none;
      }
      .status[data-status='done'] {
        color: var(--hermes-color-success);
      }
      .status[data-status='error'] {
        color: var(--hermes-color-error);
      }
      .card[data-status='error'] .name {
        color: var(--hermes-color-error);
      }
      .body {
        padding: 0 var(--hermes-space-sm) var(--hermes-space-sm);
        display: flex;
        flex-direction: column;
        gap: var(--hermes-space-xs);
      }
      .label {
        font-size: var(--hermes-text-meta);
        color: var(--hermes-fg-muted);
        margin-top: var(--hermes-space-xs);
      }
      pre {
        margin: 0;
        padding: var(--hermes-space-sm);
        max-height: 360px;
        overflow: auto;
        font-size: var(--hermes-text-meta);
        line-height: 1.55;
        white-space: pre-wrap;
        overflow-wrap: anywhere;
        color: var(--hermes-fg);
        background: var(--hermes-bg);
        border-radius: var(--hermes-radius-sm);
      }
      .web-results {
        margin: 0;
        padding-left: var(--hermes-space-lg);
        display: flex;
        flex-direction: column;
        gap: var(--hermes-space-xs);
        color: var(--hermes-fg);
      }
      .web-results a,
      .web-page-head a {
        color: var(--hermes-accent);
      }
      .web-url {
        font-size: var(--hermes-text-meta);
        color: var(--hermes-fg-muted);
        overflow-wrap: anywhere;
      }
      .web-desc {
        color: var(--hermes-fg);
      }
      .web-pages {
        display: flex;
        flex-direction: column;
        gap: var(--hermes-space-sm);
      }
      .web-error {
        color: var(--hermes-color-error);
      }
      .more {
        align-self: flex-start;
        font-size: var(--hermes-text-meta);
        color: var(--hermes-accent);
        padding: 2px var(--hermes-space-xs);
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-tool-card': HermesToolCard;
  }
}
