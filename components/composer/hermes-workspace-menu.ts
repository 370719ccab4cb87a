import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { icons } from '../shared/icons.js';
import { emit } from '../events.js';
import { workspacesApi, type WorkspaceEntry } from '../api/workspaces.js';
import { matchesWords } from './popover-menu.js';
import { workspaceMenuStyles } from './workspace-menu-styles.js';
import { rememberWorkspaces, workspaceLabel } from './workspace-switch.js';

/** How long typing in "Add folder…" rests before the server is asked for completions. */
const SUGGEST_DEBOUNCE_MS = 120;

/**
 * The workspace chip's open menu, a chunk of its own that the chip loads on first use (it is not
 * needed for the first paint): a searchable list of the saved workspaces (name and path, the
 * current one marked), each with "New chat here"; "Add folder…" with path completion
 * (GET /api/workspaces/suggest), which saves the folder and switches to it. The chip owns the
 * open state and the list; the menu asks it to close.
 *
 * @fires hermes-workspace-pick - detail: { path, name } (a workspace was chosen or added)
 * @fires hermes-workspace-new-chat - detail: { path, name } (start a new chat in it)
 * @fires hermes-workspace-files - the file panel's toggle
 * @fires hermes-popover-close - (not bubbling) detail: { refocus } close me
 */
@customElement('hermes-workspace-menu')
@localized()
export class HermesWorkspaceMenu extends LitElement {
  /** The current workspace's path. */
  @property() value = '';
  @property({ type: Boolean }) panelOpen = false;
  /** The saved workspaces (null while the chip loads them). */
  @property({ attribute: false }) workspaces: WorkspaceEntry[] | null = null;
  @property() loadError = '';
  @state() query = '';
  @state() active = 0;
  /** "Add folder…": the typed path, its completions and the highlighted one (-1: none). */
  @state() adding = false;
  @state() addPath = '';
  @state() suggestions: string[] = [];
  @state() suggestionIndex = -1;
  @state() addError = '';
  @state() saving = false;
  #suggestTimer: ReturnType<typeof setTimeout> | undefined;
  #suggestFor = '';

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#suggestTimer);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Each fresh list starts on the current workspace.
    if (changed.has('workspaces') && this.workspaces)
      this.active = Math.max(
        0,
        this.#visible().findIndex((w) => w.path === this.value),
      );
  }

  /** Keeps the menu inside the viewport and puts the focus in its search box. */
  protected override firstUpdated(): void {
    const menu = this.renderRoot.querySelector<HTMLElement>('.menu');
    if (!menu) return;
    const rect = menu.getBoundingClientRect();
    const overflow = rect.right - (document.documentElement.clientWidth - 8);
    if (overflow > 0) menu.style.translate = `${-Math.min(overflow, rect.left - 8)}px`;
    this.#focusSearch();
  }

  #focusSearch() {
    this.renderRoot.querySelector<HTMLInputElement>('[data-role="workspace-search"]')?.focus();
  }

  #visible(): WorkspaceEntry[] {
    const q = this.query.trim();
    return (this.workspaces ?? []).filter((w) => !q || matchesWords(q, w.name, w.path));
  }

  #close() {
    emit(this, 'hermes-popover-close', { refocus: true }, { local: true });
  }

  #pick(w: WorkspaceEntry) {
    this.#close();
    if (w.path !== this.value) emit(this, 'hermes-workspace-pick', { path: w.path, name: w.name });
  }

  #newChat(w: WorkspaceEntry, e?: Event) {
    e?.stopPropagation();
    this.#close();
    emit(this, 'hermes-workspace-new-chat', { path: w.path, name: w.name });
  }

  #onKeyDown(e: KeyboardEvent) {
    if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      if (this.adding) {
        this.adding = false;
        void this.updateComplete.then(() => this.#focusSearch());
      } else this.#close();
      return;
    }
    if ((e.target as HTMLElement).dataset?.role !== 'workspace-search') return;
    const list = this.#visible();
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (list.length) this.active = (this.active + (e.key === 'ArrowDown' ? 1 : -1) + list.length) % list.length;
      void this.updateComplete.then(() => this.renderRoot.querySelector(`#ws-${this.active}`)?.scrollIntoView({ block: 'nearest' }));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const w = list[Math.min(this.active, list.length - 1)];
      // Shift+Enter: a new chat there instead of moving this one.
      if (w) e.shiftKey ? this.#newChat(w) : this.#pick(w);
    }
  }

  // ---- Add folder… ---------------------------------------------------------------------

  #startAdd() {
    this.adding = true;
    this.addError = '';
    this.addPath = this.addPath || (this.value ? `${this.value.replace(/\/+$/, '')}/` : '');
    this.#suggest(this.addPath, 0);
    void this.updateComplete.then(() => this.renderRoot.querySelector<HTMLInputElement>('[data-role="workspace-add-input"]')?.focus());
  }

  #suggest(prefix: string, delay = SUGGEST_DEBOUNCE_MS) {
    clearTimeout(this.#suggestTimer);
    this.#suggestTimer = setTimeout(async () => {
      this.#suggestFor = prefix;
      try {
        const found = await workspacesApi.suggest(prefix);
        // A later keystroke's answer wins.
        if (this.#suggestFor !== prefix) return;
        this.suggestions = found;
        this.suggestionIndex = -1;
      } catch {
        if (this.#suggestFor === prefix) this.suggestions = [];
      }
    }, delay);
  }

  #onAddInput(e: Event) {
    this.addPath = (e.target as HTMLInputElement).value;
    this.addError = '';
    this.#suggest(this.addPath);
  }

  /** Puts a completion in the box, with a slash so its own folders come next. */
  #complete(path: string) {
    this.addPath = `${path.replace(/\/+$/, '')}/`;
    this.#suggest(this.addPath, 0);
    this.renderRoot.querySelector<HTMLInputElement>('[data-role="workspace-add-input"]')?.focus();
  }

  #onAddKey(e: KeyboardEvent) {
    const n = this.suggestions.length;
    if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && n) {
      e.preventDefault();
      this.suggestionIndex = (this.suggestionIndex + (e.key === 'ArrowDown' ? 1 : -1) + n + 1) % (n + 1);
      if (this.suggestionIndex === n) this.suggestionIndex = -1;
    } else if (e.key === 'Tab' && n && !e.shiftKey) {
      e.preventDefault();
      this.#complete(this.suggestions[Math.max(0, this.suggestionIndex)]!);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const chosen = this.suggestions[this.suggestionIndex];
      void this.#addFolder(chosen ?? this.addPath);
    }
  }

  /** Saves the folder in the list (if new) and switches to it. */
  async #addFolder(typed: string) {
    const path = typed.trim().replace(/(.)\/+$/, '$1');
    if (!path || this.saving) return;
    this.saving = true;
    this.addError = '';
    try {
      const before = new Set((this.workspaces ?? []).map((w) => w.path));
      let list: WorkspaceEntry[];
      try {
        list = await workspacesApi.add(path);
      } catch (err) {
        // Already saved: switching to it is what was asked.
        if (!/already in list/i.test((err as Error).message)) throw err;
        list = (await workspacesApi.list()).workspaces;
      }
      this.workspaces = list;
      rememberWorkspaces(list);
      const entry = list.find((w) => w.path === path) ?? list.find((w) => !before.has(w.path)) ?? { path, name: workspaceLabel(path) };
      this.addPath = '';
      this.suggestions = [];
      this.#pick(entry);
    } catch (err) {
      this.addError = (err as Error).message;
    } finally {
      this.saving = false;
    }
  }

  // ---- Rendering -------------------------------------------------------------------------

  override render() {
    const list = this.#visible();
    const active = Math.min(this.active, Math.max(0, list.length - 1));
    return html`<div class="menu" data-role="workspace-menu" @keydown=${this.#onKeyDown}>
      <div class="search">
        ${icons.search()}
        <input
          type="search"
          data-role="workspace-search"
          role="combobox"
          aria-label=${msg('Search workspaces')}
          aria-expanded="true"
          aria-controls="workspace-list"
          aria-autocomplete="list"
          aria-activedescendant=${list.length ? `ws-${active}` : nothing}
          placeholder=${msg('Search workspaces')}
          autocomplete="off"
          spellcheck="false"
          .value=${this.query}
          @input=${(e: Event) => ((this.query = (e.target as HTMLInputElement).value), (this.active = 0))}
        />
      </div>
      <div class="list" id="workspace-list" role="listbox" aria-label=${msg('Workspaces')}>
        ${list.map((w, i) => this.#option(w, i, i === active))}
        ${
          this.loadError
            ? html`<div class="empty error" role="alert">${this.loadError}</div>`
            : !this.workspaces
              ? html`<div class="empty meta">${msg('Loading workspaces…')}</div>`
              : !list.length
                ? html`<div class="empty meta">${msg(str`No workspace matches “${this.query}”.`)}</div>`
                : nothing
        }
      </div>
      ${this.adding ? this.#addForm() : nothing}
      <div class="foot">
        ${this.adding ? nothing : html`<button data-role="workspace-add" @click=${() => this.#startAdd()}>${icons.plus()} ${msg('Add folder…')}</button>`}
        <button data-role="workspace-files-item" @click=${() => (this.#close(), emit(this, 'hermes-workspace-files', null))}>
          ${icons.panel()} ${this.panelOpen ? msg('Hide files') : msg('Show files')}
        </button>
      </div>
    </div>`;
  }

  #option(w: WorkspaceEntry, i: number, isActive: boolean) {
    const current = w.path === this.value;
    return html`<div
      class="option"
      id=${`ws-${i}`}
      role="option"
      data-role="workspace-option"
      data-path=${w.path}
      aria-selected=${isActive}
      aria-current=${current ? 'true' : nothing}
      ?data-active=${isActive}
      ?data-current=${current}
      title=${w.path}
      @click=${() => this.#pick(w)}
      @pointermove=${() => i !== this.active && ((this.active = i))}
    >
      <span class="check">${current ? icons.check() : nothing}</span>
      <span class="text"><span class="name">${w.name}</span><span class="path">${w.path}</span></span>
      <button class="icon-button here" data-role="workspace-new-chat" title=${msg('New chat here')} aria-label=${msg(str`New chat in ${w.name}`)} @click=${(e: Event) => this.#newChat(w, e)}>
        ${icons.plus()}
      </button>
    </div>`;
  }

  #addForm() {
    return html`<div class="add" data-role="workspace-add-form">
      <div class="row">
        <input
          data-role="workspace-add-input"
          role="combobox"
          aria-label=${msg('Folder path to add')}
          aria-expanded=${this.suggestions.length > 0}
          aria-controls="workspace-suggestions"
          aria-autocomplete="list"
          aria-activedescendant=${this.suggestionIndex >= 0 ? `sug-${this.suggestionIndex}` : nothing}
          aria-invalid=${this.addError ? 'true' : 'false'}
          placeholder="/path/to/project"
          autocomplete="off"
          spellcheck="false"
          .value=${this.addPath}
          @input=${this.#onAddInput}
          @keydown=${this.#onAddKey}
        />
        <button class="primary" data-role="workspace-add-confirm" ?disabled=${!this.addPath.trim() || this.saving} @click=${() => void this.#addFolder(this.addPath)}>${msg('Add')}</button>
      </div>
      ${this.addError ? html`<div class="error" role="alert" data-role="workspace-add-error">${this.addError}</div>` : nothing}
      <div id="workspace-suggestions" role="listbox" aria-label=${msg('Folders')}>
        ${this.suggestions.map(
          (s, i) => html`<div
            class="suggestion"
            id=${`sug-${i}`}
            role="option"
            data-role="workspace-suggestion"
            data-path=${s}
            aria-selected=${i === this.suggestionIndex}
            ?data-active=${i === this.suggestionIndex}
            title=${s}
            @click=${() => this.#complete(s)}
          >
            ${s}
          </div>`,
        )}
      </div>
    </div>`;
  }

  static override styles = workspaceMenuStyles;
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-workspace-menu': HermesWorkspaceMenu;
  }
}
