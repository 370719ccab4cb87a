import { LitElement, css, html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { formatNumber } from '../i18n/format.js';
import { consume } from '@lit/context';
import { chatContext, sessionsContext, uiContext } from '../state/contexts.js';
import type { ChatStore } from '../state/chat-store.js';
import type { SessionListRow, SessionsStore } from '../state/sessions-store.js';
import type { UiStore } from '../state/ui-store.js';
import { StoreController } from '../state/store.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import { emit } from '../events.js';
import { runAction, type SessionAction } from './session-actions.js';
import { newChatInProject } from './project-actions.js';
import type { HermesSessionList } from './hermes-session-list.js';
import './hermes-session-list.js';
import './hermes-project-chips.js';
import { profileStore } from '../state/profile-store.js';

// Out of the first paint: the "All profiles" toggle loads when there is more than one profile,
// the row menu once the page is idle (or when it is first opened, if sooner).
const loadProfileToggle = () => {
  if (profileStore.several) void import('./hermes-all-profiles-toggle.js');
};
const loadSessionMenu = () => import('./hermes-session-menu.js');
import type { HermesEvent } from '../events.js';

/**
 * The sidebar column: "New chat" and search on top, project chips, the (virtual) session list
 * and the archived toggle at the bottom. Owns the row menu and inline rename, and runs their
 * actions against the API and the stores.
 */
@customElement('hermes-sidebar')
@localized()
export class HermesSidebar extends LitElement {
  @consume({ context: sessionsContext, subscribe: true }) sessions?: SessionsStore;
  @consume({ context: chatContext, subscribe: true }) chat?: ChatStore;
  @consume({ context: uiContext, subscribe: true }) ui?: UiStore;
  #stores = new StoreController(this, () => [this.sessions, this.chat, this.ui]);

  @state() private menu: { id: string; anchor: DOMRect } | null = null;
  @state() private renamingId: string | null = null;

  // `visible` builds a new array per read; keep one per input so the list re-buckets only
  // when rows really change (the chat store notifies every frame while streaming).
  #visibleFor: unknown[] = [];
  #visible: SessionListRow[] = [];
  #colorsFor: unknown = null;
  #colors = new Map<string, string | null>();

  get #list(): HermesSessionList | null {
    return this.renderRoot.querySelector('hermes-session-list');
  }

  #visibleRows(s: SessionsStore): SessionListRow[] {
    const key = [s.rows, s.results, s.projectFilter];
    if (key.some((k, i) => k !== this.#visibleFor[i])) {
      this.#visibleFor = key;
      this.#visible = s.visible;
    }
    return this.#visible;
  }

  #projectColors(s: SessionsStore): Map<string, string | null> {
    if (this.#colorsFor !== s.projects) {
      this.#colorsFor = s.projects;
      this.#colors = new Map(s.projects.map((p) => [p.project_id, p.color]));
    }
    return this.#colors;
  }

  #ctx() {
    return { sessions: this.sessions!, chat: this.chat, ui: this.ui, host: this };
  }

  /** New chat; while a project's filter is on, one configured for that project. */
  #newChat() {
    const s = this.sessions;
    const project = s?.projectFilter ? s.projects.find((p) => p.project_id === s.projectFilter) : undefined;
    if (project) void newChatInProject(this.#ctx(), project);
    else emit(this, 'hermes-open-session', { sessionId: null });
  }

  #clearSearch() {
    this.sessions?.setQuery('');
    this.renderRoot.querySelector<HTMLInputElement>('[data-role="session-search"]')?.focus();
  }

  #onSearchKey = (e: KeyboardEvent) => {
    const input = e.target as HTMLInputElement;
    if (e.key === 'Escape' && input.value) {
      // Clearing the search is this Escape's whole job (not closing the phone sidebar).
      e.stopPropagation();
      input.value = '';
      this.sessions?.setQuery('');
    } else if (e.key === 'ArrowDown') {
      e.preventDefault();
      const first = this.#visible.length ? this.#list?.firstSessionId() : null;
      if (first) void this.#list?.focusSession(first);
    }
  };

  override connectedCallback(): void {
    super.connectedCallback();
    profileStore.addEventListener('change', loadProfileToggle);
    void profileStore.ensure().then(loadProfileToggle, () => {});
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => void loadSessionMenu(), { timeout: 3000 });
    else setTimeout(() => void loadSessionMenu(), 1000);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    profileStore.removeEventListener('change', loadProfileToggle);
  }

  #onRowMenu = (e: CustomEvent<{ id: string; anchor: DOMRect }>) => {
    void loadSessionMenu();
    this.menu = this.menu?.id === e.detail.id ? null : e.detail;
  };

  #closeMenu(restoreFocus: boolean) {
    const id = this.menu?.id;
    this.menu = null;
    if (restoreFocus && id) void this.#list?.focusSession(id);
  }

  async #onAction(e: CustomEvent<SessionAction>) {
    const a = e.detail;
    this.#closeMenu(a.action !== 'delete');
    await runAction(this.#ctx(), a);
    if (a.action !== 'delete') this.#refocus(a.id);
  }

  /**
   * A row that changed bucket (pin, rename) was moved in the DOM, which drops its focus; give
   * it back unless the user has gone elsewhere meanwhile.
   */
  #refocus(id: string) {
    const active = document.activeElement;
    if (!active || active === document.body || this.matches(':focus-within')) void this.#list?.focusSession(id);
  }

  #onMenuRename(e: CustomEvent<{ id: string }>) {
    this.menu = null;
    this.renamingId = e.detail.id;
  }

  async #onRowRename(e: CustomEvent<{ id: string; title: string | null }>) {
    const { id, title } = e.detail;
    if (this.renamingId !== id) return;
    this.renamingId = null;
    void this.#list?.focusSession(id);
    if (title === null) return;
    await runAction(this.#ctx(), { action: 'rename', id, title });
    this.#refocus(id);
  }

  #empty(s: SessionsStore) {
    if (s.error && !s.loaded)
      return html`<div class="empty" role="alert">
        <p>${s.error}</p>
        <button class="outline" @click=${() => void s.refresh()}>${msg('Retry')}</button>
      </div>`;
    if (!s.loaded) return html`<p class="empty meta">${msg('Loading…')}</p>`;
    if (s.query.trim()) return html`<p class="empty meta">${s.searching ? msg('Searching…') : msg(str`No chats match “${s.query.trim()}”`)}</p>`;
    // The filter runs over the loaded rows: while pages remain, the project's chats may be in them.
    if (s.tasksOnly) return html`<p class="empty meta">${msg('No task runs yet.')}</p>`;
    if (s.projectFilter) return html`<p class="empty meta">${s.hasMore ? msg('Loading…') : msg('No chats in this project yet.')}</p>`;
    // Task runs are listed under the Tasks chip, not here: say where they are.
    if (s.cronCount) return html`<p class="empty meta">${msg('No chats yet. Task runs are under Tasks above; start a chat with New chat.')}</p>`;
    return html`<p class="empty meta">${msg('No chats yet. Start one with New chat.')}</p>`;
  }

  override render() {
    const s = this.sessions;
    if (!s) return nothing;
    const rows = this.#visibleRows(s);
    // While pages remain unloaded the list is the server's count, not the rows loaded so far.
    const unfiltered = !s.query.trim() && !s.projectFilter;
    const count = unfiltered && s.hasMore && s.total !== null ? Math.max(s.total, rows.length) : rows.length;
    const menuRow = this.menu ? rows.find((r) => r.session_id === this.menu!.id) : undefined;
    return html`
      <header class="top">
        <button class="new outline" data-role="new-chat" title=${msg('New chat (Ctrl+K)')} @click=${() => this.#newChat()}>
          ${icons.plus()}<span>${msg('New chat')}</span>
        </button>
        <label class="search">
          ${s.searching ? icons.spinner() : icons.search()}
          <span class="visually-hidden">${msg('Search chats')}</span>
          <input type="search" data-role="session-search" placeholder=${msg('Search chats')} autocomplete="off" spellcheck="false" .value=${s.query} @input=${(e: InputEvent) => s.setQuery((e.target as HTMLInputElement).value)} @keydown=${this.#onSearchKey} />
          ${
            s.query
              ? html`<button class="clear icon-button" data-role="clear-search" aria-label=${msg('Clear search')} @click=${() => this.#clearSearch()}>${icons.close()}</button>`
              : nothing
          }
        </label>
      </header>
      <hermes-project-chips class="chips"></hermes-project-chips>
      <hermes-session-list
        .rows=${rows}
        .activeId=${this.chat?.sessionId ?? null}
        .query=${s.query.trim()}
        .projectColors=${this.#projectColors(s)}
        .renamingId=${this.renamingId}
        .menuId=${this.menu?.id ?? null}
        density=${this.ui?.settings?.sidebar_density === 'detailed' ? 'detailed' : 'compact'}
        @hermes-row-menu=${this.#onRowMenu}
        @hermes-row-rename=${this.#onRowRename}
        @hermes-list-scroll=${() => this.menu && this.#closeMenu(false)}
        @hermes-list-end=${() => void s.loadMore()}
      >
        <div slot="empty">${this.#empty(s)}</div>
      </hermes-session-list>
      <footer class="bottom">
        <button class="archived" data-role="archived-toggle" aria-pressed=${s.showArchived} @click=${() => void s.setShowArchived(!s.showArchived)}>
          ${icons.archive()}<span>${s.showArchived ? msg('Hide archived') : msg('Show archived')}</span>
        </button>
        <hermes-all-profiles-toggle></hermes-all-profiles-toggle>
        <span class="meta count" data-role="session-count">${count === 1 ? msg(str`${formatNumber(count)} chat`) : msg(str`${formatNumber(count)} chats`)}</span>
      </footer>
      ${
        menuRow
          ? html`<hermes-session-menu
            .row=${menuRow}
            .projects=${s.projects}
            .anchor=${this.menu!.anchor}
            @hermes-menu-action=${this.#onAction}
            @hermes-menu-rename=${this.#onMenuRename}
            @hermes-menu-close=${(e: HermesEvent<'hermes-menu-close'>) => this.#closeMenu(e.detail.restoreFocus)}
          ></hermes-session-menu>`
          : nothing
      }
    `;
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        display: flex;
        flex-direction: column;
        height: 100%;
        min-height: 0;
        background: var(--hermes-panel);
        color: var(--hermes-fg);
        font-size: var(--hermes-text-body);
      }
      .top {
        display: grid;
        gap: var(--hermes-space-sm);
        padding: var(--hermes-space-md) var(--hermes-space-md) var(--hermes-space-sm);
      }
      .new {
        display: flex;
        align-items: center;
        gap: var(--hermes-space-sm);
        min-height: 34px;
        padding: 0 var(--hermes-space-md);
        font-size: var(--hermes-text-body);
      }
      .search {
        position: relative;
        display: flex;
        align-items: center;
        color: var(--hermes-fg-faint);
      }
      .search svg {
        position: absolute;
        left: var(--hermes-space-sm);
        pointer-events: none;
      }
      .search input {
        width: 100%;
        min-height: 32px;
        padding: 0 32px 0 calc(var(--hermes-space-sm) * 2 + 16px);
        font-size: var(--hermes-text-body);
        outline-offset: 0;
      }
      /* Our own clear button replaces the browser's bright one. */
      .search input::-webkit-search-cancel-button {
        display: none;
      }
      .search .clear {
        position: absolute;
        right: 2px;
        min-width: 28px;
        min-height: 28px;
        color: var(--hermes-fg-muted);
      }
      .search .clear svg {
        position: static;
      }
      .chips {
        padding: 0 var(--hermes-space-md) var(--hermes-space-sm);
      }
      hermes-session-list {
        flex: 1;
        min-height: 0;
      }
      .empty {
        margin: 0;
        padding: var(--hermes-space-lg);
        text-align: center;
        overflow-wrap: anywhere;
      }
      .empty p {
        margin: 0 0 var(--hermes-space-sm);
      }
      .bottom {
        display: flex;
        align-items: center;
        justify-content: space-between;
        gap: var(--hermes-space-sm);
        padding: var(--hermes-space-xs) var(--hermes-space-sm);
        border-top: var(--hermes-border-width) solid var(--hermes-border);
      }
      .archived {
        display: inline-flex;
        align-items: center;
        gap: var(--hermes-space-sm);
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
      }
      .archived[aria-pressed='true'] {
        color: var(--hermes-fg);
        background: var(--hermes-selected);
      }
      .count {
        padding-right: var(--hermes-space-xs);
      }
      /* Three controls share the footer when profiles exist: none wraps its words. */
      .archived,
      .count {
        white-space: nowrap;
      }
      @media (max-width: 639px) {
        .new,
        .search input,
        .archived {
          min-height: var(--hermes-touch-target);
        }
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-sidebar': HermesSidebar;
  }
}
