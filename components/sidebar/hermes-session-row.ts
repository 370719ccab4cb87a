import { LitElement, css, html, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { formatNumber } from '../i18n/format.js';
import type { FoldedRow } from './subagent-fold.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import { emit } from '../events.js';

/** Project colours come from data; only a plain hex may reach a style attribute. */
export const safeColor = (c: string | null | undefined): string | null => (c && /^#[0-9a-f]{3,8}$/i.test(c) ? c : null);

/** Characters kept before the first match, so the match is visible in one narrow line. */
const LEAD = 16;

/** The preview, starting shortly before the first match, with each occurrence marked. */
export function highlight(preview: string, query: string) {
  const q = query.trim().toLowerCase();
  if (!q) return preview;
  const first = preview.toLowerCase().indexOf(q);
  const text = first > LEAD ? `…${preview.slice(first - LEAD).trimStart()}` : preview;
  const lower = text.toLowerCase();
  const parts = [];
  let at = 0;
  for (let i = lower.indexOf(q); i >= 0 && parts.length < 20; i = lower.indexOf(q, at)) {
    parts.push(text.slice(at, i), html`<mark>${text.slice(i, i + q.length)}</mark>`);
    at = i + q.length;
  }
  parts.push(text.slice(at));
  return parts;
}

/** The detailed row's second line: messages, model and where it came from (not this web UI). */
export function rowMeta(r: FoldedRow): string {
  const n = r.message_count ?? 0;
  const count = formatNumber(n);
  const bits = [n === 1 ? msg(str`${count} message`) : msg(str`${count} messages`)];
  if (r.model) bits.push(r.model.split('/').pop()!);
  if (r.session_source && r.session_source !== 'webui' && !r.source_label) bits.push(r.session_source);
  return bits.join(' · ');
}

/**
 * One session in the list: a link (so it can also open in a new tab), its live state (spinner
 * while a turn runs, a dot when it waits for the user) and the ⋯ button for its menu.
 *
 * Its own events are composed so they reach the sidebar across the list's shadow root.
 *
 * @fires hermes-row-menu - the ⋯ button was pressed; detail {id, anchor: DOMRect}
 * @fires hermes-row-rename - inline rename finished; detail {id, title} (title null: cancelled)
 * @fires hermes-open-session - the row was chosen
 */
@customElement('hermes-session-row')
@localized()
export class HermesSessionRow extends LitElement {
  static override shadowRootOptions = { ...LitElement.shadowRootOptions, delegatesFocus: true };

  @property({ attribute: false }) row!: FoldedRow;
  @property({ type: Boolean, reflect: true }) active = false;
  /** The one row in the tab order (roving tabindex). */
  @property({ type: Boolean }) current = false;
  @property({ type: Boolean }) renaming = false;
  @property({ type: Boolean, attribute: 'menu-open', reflect: true }) menuOpen = false;
  /** The search text while searching (shows the match preview). */
  @property() query = '';
  @property({ attribute: false }) projectColor: string | null = null;
  /** `sidebar_density: detailed`: a second line with the message count and model, as the incumbent shows. */
  @property({ type: Boolean, reflect: true }) detailed = false;

  override updated(changed: Map<string, unknown>): void {
    if (changed.has('renaming') && this.renaming) {
      const input = this.renderRoot.querySelector('input');
      input?.focus();
      input?.select();
    }
  }

  #open(e: MouseEvent) {
    // Modified clicks keep the browser's own behaviour (new tab, new window).
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    // A hit inside the conversation opens it at the matching message.
    const inContent = !!this.query && !!this.row.match_preview && this.row.match_preview !== this.row.title;
    // A hit in a compression snapshot's own text is history inspection: that record, not its live tip.
    const inspect = inContent && this.row.pre_compression_snapshot === true;
    emit(this, 'hermes-open-session', { sessionId: this.row.session_id, ...(inContent ? { find: this.query.trim() } : {}), ...(inspect ? { inspect } : {}) });
  }

  #menu(e: Event) {
    e.stopPropagation();
    const anchor = (e.currentTarget as HTMLElement).getBoundingClientRect();
    emit(this, 'hermes-row-menu', { id: this.row.session_id, anchor });
  }

  #finish(title: string | null) {
    if (!this.renaming) return;
    emit(this, 'hermes-row-rename', { id: this.row.session_id, title });
  }

  #renameKey(e: KeyboardEvent) {
    e.stopPropagation();
    if (e.key === 'Enter') this.#finish((e.target as HTMLInputElement).value);
    else if (e.key === 'Escape') this.#finish(null);
  }

  override render() {
    const r = this.row;
    if (!r) return nothing;
    const color = safeColor(this.projectColor);
    const preview = this.query && r.match_preview && r.match_preview !== r.title ? r.match_preview : null;
    const body = this.renaming
      ? html`<input
          class="rename"
          data-role="rename-input"
          aria-label=${msg('Chat title')}
          maxlength="200"
          .value=${r.title}
          @keydown=${this.#renameKey}
          @blur=${(e: FocusEvent) => this.#finish((e.target as HTMLInputElement).value)}
        />`
      : html`<a
          class="link"
          href="/session/${encodeURIComponent(r.session_id)}"
          tabindex=${this.current ? 0 : -1}
          aria-current=${this.active ? 'page' : nothing}
          @click=${this.#open}
        >
          ${r.nested ? html`<span class="nested" data-role="subagent-nested" title=${msg('Subagent')} aria-hidden="true">↳</span>` : nothing}
          <span class="dot project" style=${color ? `--chip-color: ${color}` : ''} aria-hidden="true"></span>
          <span class="text">
            <span class="title">${r.title || msg('Untitled')}</span>
            ${preview ? html`<span class="preview" data-role="match-preview">${highlight(preview, this.query)}</span>` : nothing}
            ${!preview && this.detailed ? html`<span class="preview" data-role="session-meta">${rowMeta(r)}</span>` : nothing}
          </span>
          ${
            r.subagent_count
              ? html`<span class="count" data-role="subagent-count" title=${msg("Subagent sessions: open them from the chat's Activity")}>${formatNumber(r.subagent_count)}<span class="visually-hidden"> ${msg('subagent sessions')}</span></span>`
              : nothing
          }
          ${
            r.source_label && r.source_tag !== 'webui'
              ? html`<span class="profile" data-role="source-badge" title=${r.read_only ? msg(str`Hermes ${r.source_label} session (read from Hermes)`) : msg(str`Imported from Hermes ${r.source_label}`)}>${r.source_label}</span>`
              : r.session_source === 'cron' || r.session_id.startsWith('cron_')
                ? html`<span class="profile" data-role="task-badge" title=${msg('Scheduled task run')}>${msg('Task')}</span>`
                : nothing
          }
          ${r.other_profile ? html`<span class="profile" data-role="row-profile" title=${msg(str`Profile ${r.other_profile}`)}>${r.other_profile}</span>` : nothing}
          ${r.archived ? html`<span class="badge" title=${msg('Archived')}>${icons.archive()}<span class="visually-hidden">${msg('Archived')}</span></span>` : nothing}
          ${r.attention ? html`<span class="dot attention" data-role="attention-dot" title=${msg('Waiting for your answer')}><span class="visually-hidden">${msg('Needs attention')}</span></span>` : nothing}
          ${r.active_stream_id ? html`<span class="spinner" data-role="row-spinner" title=${msg('Running')}>${icons.spinner()}<span class="visually-hidden">${msg('Running')}</span></span>` : nothing}
        </a>`;
    return html`
      ${body}
      <button
        class="more icon-button"
        data-role="row-menu-button"
        tabindex=${this.current ? 0 : -1}
        aria-haspopup="menu"
        aria-expanded=${this.menuOpen}
        aria-label=${msg(str`Options for ${r.title || msg('Untitled')}`)}
        @click=${this.#menu}
      >
        ${icons.more()}
      </button>
    `;
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        display: flex;
        align-items: center;
        height: var(--row-h);
        padding: 0 var(--hermes-space-xs);
        border-radius: var(--hermes-radius-md);
        color: var(--hermes-fg-muted);
      }
      :host(:hover) {
        background: var(--hermes-hover);
        color: var(--hermes-fg);
      }
      :host([active]) {
        background: var(--hermes-selected);
        color: var(--hermes-fg);
      }
      .link,
      .rename {
        flex: 1;
        min-width: 0;
        height: 100%;
      }
      .link {
        display: flex;
        align-items: center;
        gap: var(--hermes-space-sm);
        padding: 0 var(--hermes-space-xs) 0 var(--hermes-space-sm);
        color: inherit;
        text-decoration: none;
        border-radius: var(--hermes-radius-md);
      }
      .link:focus-visible {
        outline-offset: -2px;
      }
      .rename {
        height: calc(var(--row-h) - 2 * var(--hermes-space-xs));
      }
      .text {
        flex: 1;
        min-width: 0;
        display: flex;
        flex-direction: column;
      }
      .title,
      .preview {
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
      }
      .title {
        font-size: var(--hermes-text-body);
      }
      .preview {
        font-size: var(--hermes-text-meta);
        color: var(--hermes-fg-faint);
      }
      mark {
        background: var(--hermes-selected);
        color: var(--hermes-fg);
        border-radius: var(--hermes-radius-sm);
      }
      .dot {
        flex: none;
        width: 8px;
        height: 8px;
        border-radius: var(--hermes-radius-pill);
      }
      .dot.project {
        width: 6px;
        height: 6px;
        /* Always there (transparent without a project) so titles line up. */
        background: var(--chip-color, transparent);
      }
      .dot.attention {
        background: var(--hermes-color-warning);
      }
      .spinner,
      .profile {
        flex: none;
        max-width: 8em;
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
        padding: 0 var(--hermes-space-xs);
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-sm);
        color: var(--hermes-fg-muted);
        font-size: var(--hermes-text-meta);
      }
      .badge {
        flex: none;
        display: inline-grid;
        color: var(--hermes-fg-faint);
      }
      .nested {
        flex: none;
        color: var(--hermes-fg-faint);
        font-size: var(--hermes-text-meta);
      }
      .count {
        flex: none;
        padding: 0 var(--hermes-space-xs);
        border-radius: 999px;
        font-size: var(--hermes-text-meta);
        font-variant-numeric: tabular-nums;
        color: var(--hermes-fg-faint);
        border: 1px solid var(--hermes-border);
      }
      .spinner {
        color: var(--hermes-accent);
      }
      .more {
        flex: none;
        min-width: 26px;
        min-height: 26px;
        padding: 0;
        color: var(--hermes-fg-muted);
        opacity: 0;
      }
      :host(:hover) .more,
      :host(:focus-within) .more,
      :host([menu-open]) .more {
        opacity: 1;
      }
      @media (hover: none) {
        .more {
          opacity: 1;
        }
      }
      @media (max-width: 639px) {
        .more {
          min-width: var(--hermes-touch-target);
          min-height: var(--hermes-touch-target);
        }
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-session-row': HermesSessionRow;
  }
}
