import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { api, type Project, type ShareLink } from '../api/client.js';
import type { SessionListRow } from '../state/sessions-store.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import { safeColor } from './hermes-session-row.js';
import type { SessionAction } from './session-actions.js';
import { emit } from '../events.js';

const GAP = 4;
const MARGIN = 8;

/**
 * A session's ⋯ menu, floating beside its button: rename, pin, move to project (a sub-view),
 * archive, duplicate, share link (make / copy / stop: the link's state is read when the menu
 * opens), export, delete (with a confirm step). Closes on outside click and Escape.
 *
 * @fires hermes-menu-action - detail: a SessionAction to run
 * @fires hermes-menu-rename - detail {id}: start renaming inline
 * @fires hermes-menu-close - detail {restoreFocus}: the menu wants to close
 */
@customElement('hermes-session-menu')
@localized()
export class HermesSessionMenu extends LitElement {
  @property({ attribute: false }) row!: SessionListRow;
  @property({ attribute: false }) projects: readonly Project[] = [];
  /** The ⋯ button's box, in viewport coordinates. */
  @property({ attribute: false }) anchor: DOMRect | null = null;
  @state() private view: 'main' | 'move' | 'confirm' = 'main';
  /** undefined while the session's link is being looked up; null when it has none. */
  @state() private share: ShareLink | null | undefined = undefined;
  #shareFor = '';

  override connectedCallback(): void {
    super.connectedCallback();
    document.addEventListener('click', this.#onDocClick);
    document.addEventListener('keydown', this.#onDocKey);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('click', this.#onDocClick);
    document.removeEventListener('keydown', this.#onDocKey);
  }

  override willUpdate(changed: Map<string, unknown>): void {
    if (changed.has('row') && this.row && this.row.session_id !== this.#shareFor) void this.#loadShare(this.row.session_id);
  }

  async #loadShare(id: string) {
    this.#shareFor = id;
    this.share = undefined;
    // A failed look-up offers to make a link (making one again keeps the same token).
    const share = await api.shareOf(id).catch(() => null);
    if (this.#shareFor === id) this.share = share;
  }

  #shareItems(id: string) {
    const s = this.share;
    if (s === undefined) return html`<button role="menuitem" data-action="share" disabled>${icons.link()}${msg('Share link…')}</button>`;
    if (!s)
      return html`<button role="menuitem" data-action="share" @click=${() => this.#act({ action: 'share', id })}>${icons.link()}${msg('Share link')}</button>`;
    return html`
      <button role="menuitem" data-action="copy-share" @click=${() => this.#act({ action: 'copy-share', id, url: s.url })}>${icons.link()}${msg('Copy share link')}</button>
      <button role="menuitem" data-action="unshare" @click=${() => this.#act({ action: 'unshare', id })}>${icons.close()}${msg('Stop sharing')}</button>
    `;
  }

  override updated(changed: Map<string, unknown>): void {
    if (changed.has('row') && changed.get('row') && (changed.get('row') as SessionListRow).session_id !== this.row.session_id) this.view = 'main';
    this.#place();
    if (changed.has('view') || changed.has('row')) this.#items()[0]?.focus();
  }

  /** Below the button, right-aligned to it; above when there is no room below. */
  #place() {
    const a = this.anchor;
    if (!a) return;
    const { offsetWidth: w, offsetHeight: h } = this;
    const left = Math.max(MARGIN, Math.min(a.right - w, innerWidth - w - MARGIN));
    let top = a.bottom + GAP;
    if (top + h > innerHeight - MARGIN) top = Math.max(MARGIN, a.top - h - GAP);
    this.style.left = `${left}px`;
    this.style.top = `${top}px`;
  }

  #items(): HTMLElement[] {
    return [...this.renderRoot.querySelectorAll<HTMLElement>('[role="menuitem"]')];
  }

  #close(restoreFocus: boolean) {
    emit(this, 'hermes-menu-close', { restoreFocus }, { local: true });
  }

  #act(a: SessionAction) {
    emit(this, 'hermes-menu-action', a, { local: true });
  }

  // A link removed from the page during its click no longer downloads: close a tick later.
  #afterDownload = () => setTimeout(() => this.#close(false));

  #onDocClick = (e: MouseEvent) => {
    const path = e.composedPath();
    // A ⋯ button toggles menus itself; anything else outside closes this one.
    if (path.includes(this) || path.some((n) => n instanceof HTMLElement && n.dataset.role === 'row-menu-button')) return;
    this.#close(false);
  };

  #onDocKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') {
      // Only the menu closes (not the phone sidebar behind it).
      e.stopPropagation();
      if (this.view === 'main') this.#close(true);
      else this.view = 'main';
      return;
    }
    if (!e.composedPath().includes(this)) return;
    const items = this.#items();
    const at = items.indexOf(this.shadowRoot!.activeElement as HTMLElement);
    const moves: Record<string, number> = { ArrowDown: at + 1, ArrowUp: at - 1 + items.length, Home: 0, End: items.length - 1 };
    if (!(e.key in moves) || !items.length) return;
    e.preventDefault();
    items[moves[e.key]! % items.length]?.focus();
  };

  #main(r: SessionListRow) {
    const id = r.session_id;
    return html`
      <button role="menuitem" data-action="rename" @click=${() => emit(this, 'hermes-menu-rename', { id }, { local: true })}>${icons.edit()}${msg('Rename')}</button>
      <button role="menuitem" data-action="regenerate-title" @click=${() => this.#act({ action: 'regenerate-title', id })}>${icons.retry()}${msg('Regenerate title')}</button>
      <button role="menuitem" data-action="pin" @click=${() => this.#act({ action: 'pin', id, pinned: !r.pinned })}>${icons.pin()}${r.pinned ? msg('Unpin') : msg('Pin')}</button>
      <button role="menuitem" data-action="move" aria-haspopup="menu" @click=${() => (this.view = 'move')}>
        ${icons.folder()}${msg('Move to project')}<span class="end">${icons.chevron()}</span>
      </button>
      <button role="menuitem" data-action="archive" @click=${() => this.#act({ action: 'archive', id, archived: !r.archived })}>${icons.archive()}${r.archived ? msg('Unarchive') : msg('Archive')}</button>
      <button role="menuitem" data-action="duplicate" @click=${() => this.#act({ action: 'duplicate', id })}>${icons.copy()}${msg('Duplicate')}</button>
      <div class="sep" role="separator"></div>
      ${this.#shareItems(id)}
      <div class="sep" role="separator"></div>
      <a role="menuitem" data-action="export-md" href=${api.exportUrl(id, 'md')} download @click=${this.#afterDownload}>${icons.download()}${msg('Export Markdown')}</a>
      <a role="menuitem" data-action="export-html" href=${api.exportUrl(id, 'html')} download @click=${this.#afterDownload}>${icons.download()}${msg('Export HTML')}</a>
      <a role="menuitem" data-action="export-json" href=${api.exportUrl(id, 'json')} download @click=${this.#afterDownload}>${icons.download()}${msg('Export JSON')}</a>
      <div class="sep" role="separator"></div>
      <button role="menuitem" class="danger" data-action="delete" @click=${() => (this.view = 'confirm')}>${icons.trash()}${msg('Delete…')}</button>
    `;
  }

  #move(r: SessionListRow) {
    const choose = (projectId: string | null) => this.#act({ action: 'move', id: r.session_id, projectId });
    const option = (projectId: string | null, name: string, color: string | null) => html`
      <button role="menuitem" data-project-id=${projectId ?? ''} aria-current=${r.project_id === projectId ? 'true' : nothing} @click=${() => choose(projectId)}>
        <span class="swatch" style=${color ? `--chip-color: ${color}` : ''}></span>${name}${r.project_id === projectId ? html`<span class="end">${icons.check()}</span>` : nothing}
      </button>
    `;
    return html`
      <button role="menuitem" class="back" @click=${() => (this.view = 'main')}><span class="flip">${icons.chevron()}</span>${msg('Move to project')}</button>
      <div class="sep" role="separator"></div>
      ${option(null, msg('No project'), null)} ${this.projects.map((p) => option(p.project_id, p.name, safeColor(p.color)))}
    `;
  }

  #confirm(r: SessionListRow) {
    return html`
      <p class="confirm">${msg(str`Delete “${r.title || msg('Untitled')}”? This cannot be undone.`)}</p>
      <div class="buttons">
        <button role="menuitem" class="outline" data-action="cancel-delete" @click=${() => (this.view = 'main')}>${msg('Cancel')}</button>
        <button role="menuitem" class="danger outline" data-role="confirm-delete" @click=${() => this.#act({ action: 'delete', id: r.session_id })}>${msg('Delete')}</button>
      </div>
    `;
  }

  override render() {
    const r = this.row;
    if (!r) return nothing;
    const body = this.view === 'move' ? this.#move(r) : this.view === 'confirm' ? this.#confirm(r) : this.#main(r);
    return html`<div class="menu" role="menu" aria-label=${msg(str`Options for ${r.title || msg('Untitled')}`)} data-view=${this.view}>${body}</div>`;
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        position: fixed;
        z-index: 40;
        /* One width for every view, so the confirm step doesn't jump sideways. */
        width: min(232px, calc(100vw - 16px));
      }
      .menu {
        display: flex;
        flex-direction: column;
        padding: var(--hermes-space-xs);
        max-height: min(420px, calc(100dvh - 16px));
        overflow-y: auto;
        background: var(--hermes-panel);
        color: var(--hermes-fg);
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-md);
        box-shadow: var(--hermes-shadow-popover);
        font-size: var(--hermes-text-body);
      }
      [role='menuitem'] {
        display: flex;
        align-items: center;
        gap: var(--hermes-space-sm);
        min-height: 32px;
        padding: var(--hermes-space-xs) var(--hermes-space-sm);
        border-radius: var(--hermes-radius-sm);
        text-align: start;
        color: inherit;
        text-decoration: none;
        white-space: nowrap;
      }
      a[role='menuitem']:hover,
      [role='menuitem']:focus-visible {
        background: var(--hermes-hover);
      }
      [role='menuitem'] svg {
        flex: none;
        color: var(--hermes-fg-muted);
      }
      .danger,
      .danger svg {
        color: var(--hermes-color-error);
      }
      .end {
        margin-inline-start: auto;
        display: inline-grid;
      }
      .flip {
        display: inline-grid;
        transform: scaleX(-1);
      }
      .back {
        color: var(--hermes-fg-muted);
      }
      .swatch {
        flex: none;
        width: 8px;
        height: 8px;
        margin: 0 4px;
        border-radius: var(--hermes-radius-pill);
        background: var(--chip-color, transparent);
        border: var(--hermes-border-width) solid var(--chip-color, var(--hermes-fg-faint));
      }
      .sep {
        height: var(--hermes-border-width);
        margin: var(--hermes-space-xs) 0;
        background: var(--hermes-border);
      }
      .confirm {
        margin: var(--hermes-space-xs) var(--hermes-space-sm) var(--hermes-space-sm);
        white-space: normal;
        overflow-wrap: anywhere;
      }
      .buttons {
        display: flex;
        justify-content: flex-end;
        gap: var(--hermes-space-sm);
        padding: 0 var(--hermes-space-xs) var(--hermes-space-xs);
      }
      .buttons [role='menuitem'] {
        justify-content: center;
      }
      @media (max-width: 639px) {
        [role='menuitem'] {
          min-height: var(--hermes-touch-target);
        }
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-session-menu': HermesSessionMenu;
  }
}
