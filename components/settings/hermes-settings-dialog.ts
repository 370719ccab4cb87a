import { LitElement, html, nothing } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import { consume } from '@lit/context';
import { localized, msg, str } from '@lit/localize';
import { api, type Settings } from '../api/client.js';
import { chatContext, uiContext } from '../state/contexts.js';
import type { ChatStore } from '../state/chat-store.js';
import type { UiStore } from '../state/ui-store.js';
import { StoreController } from '../state/store.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import { settingsStyles } from './settings-styles.js';
import { SECTIONS, sectionLabel, settingsRows, type Backend, type Models, type Providers, type Row, type SettingsRowsContext } from './settings-rows.js';
import { announceModelsChanged } from '../events.js';
import { signOut } from './sign-out.js';

/** The focused element, looking inside shadow roots (to give focus back on close). */
function deepActive(): HTMLElement | null {
  let el = document.activeElement;
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
  return el as HTMLElement | null;
}

/**
 * The settings dialog: a searchable list of settings that save as they change, plus export
 * and import of conversations. Closes on Escape, the close button or a click outside.
 */
@customElement('hermes-settings-dialog')
@localized()
export class HermesSettingsDialog extends LitElement {
  @consume({ context: uiContext, subscribe: true }) ui?: UiStore;
  @consume({ context: chatContext, subscribe: true }) chat?: ChatStore;
  #stores = new StoreController(this, () => [this.ui, this.chat]);

  @state() private query = '';
  @state() private saved = false;
  @state() private models: Models = null;
  @state() private providers: Providers | null = null;
  @state() private providersError = '';
  @state() private workspaceError = '';
  /** What the user typed for a refused workspace, kept so it can be corrected. */
  @state() private workspaceDraft: string | null = null;
  @state() private signingOut = false;
  @state() private signOutError = '';
  @query('dialog') private dialog!: HTMLDialogElement;
  #savedTimer: ReturnType<typeof setTimeout> | undefined;
  #returnFocus: HTMLElement | null = null;
  #pressedOutside = false;

  override connectedCallback(): void {
    super.connectedCallback();
    this.#returnFocus = deepActive();
    this.#loadModels();
    this.#loadProviders();
  }

  #loadModels() {
    api.models().then(
      (m) => (this.models = m),
      () => (this.models ??= { default_model: null, models: [] }),
    );
  }

  #loadProviders() {
    api.providers().then(
      (p) => ((this.providers = p), (this.providersError = '')),
      (err: Error) => (this.providersError = err.message),
    );
  }

  /** A key or endpoint changed: the models (which checks every provider), then the list with those states. */
  #onProviderChanged = () => {
    this.#loadProviders();
    api
      .models()
      .then((m) => (this.models = m))
      .catch(() => {})
      .finally(() => this.#loadProviders());
    announceModelsChanged();
  };

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.#savedTimer);
    this.#returnFocus?.focus();
  }

  override firstUpdated(): void {
    this.dialog.showModal();
    this.renderRoot.querySelector<HTMLInputElement>('input[type="search"]')?.focus();
  }

  close(): void {
    this.ui?.openSettings(false);
  }

  /** Saves one change; resolves true when the server kept it. */
  async #save(patch: Partial<Settings>): Promise<boolean> {
    const ui = this.ui;
    if (!ui) return false;
    const before = ui.settings;
    await ui.save(patch);
    // UiStore puts the previous object back when the server refuses.
    const ok = ui.settings !== before;
    if (ok) {
      this.saved = true;
      clearTimeout(this.#savedTimer);
      this.#savedTimer = setTimeout(() => (this.saved = false), 1600);
    }
    return ok;
  }

  /** Who answers from the next turn on; the model list (and the composer's badge) follow. */
  async #saveBackend(chat_backend: Backend): Promise<void> {
    if (chat_backend === this.ui?.settings?.chat_backend) return;
    if (!(await this.#save({ chat_backend }))) return;
    this.#loadModels();
    announceModelsChanged();
  }

  #flashSaved = () => {
    this.saved = true;
    clearTimeout(this.#savedTimer);
    this.#savedTimer = setTimeout(() => (this.saved = false), 1600);
  };

  async #saveModel(id: string): Promise<void> {
    try {
      await api.setDefaultModel(id);
      if (this.models) this.models = { ...this.models, default_model: id };
      announceModelsChanged();
      this.saved = true;
      clearTimeout(this.#savedTimer);
      this.#savedTimer = setTimeout(() => (this.saved = false), 1600);
    } catch (err) {
      this.ui?.notify((err as Error).message, 'error');
    }
  }

  async #saveWorkspace(input: HTMLInputElement): Promise<void> {
    const value = input.value.trim();
    if (!value || value === this.ui?.settings?.default_workspace) return;
    this.workspaceError = '';
    this.workspaceDraft = null;
    if (!(await this.#save({ default_workspace: value }))) {
      this.workspaceDraft = value;
      this.workspaceError = this.ui?.toast?.kind === 'error' ? this.ui.toast.message : msg('The server refused this folder');
    }
  }

  async #signOut(): Promise<void> {
    if (this.signingOut) return;
    this.signingOut = true;
    this.signOutError = '';
    try {
      await signOut();
    } catch (err) {
      this.signOutError = (err as Error).message;
      this.signingOut = false;
    }
  }

  /** The rows' view of this dialog: its state now, and its actions. */
  #rowsContext(): SettingsRowsContext {
    return {
      settings: this.ui?.settings,
      sessionId: this.chat?.sessionId,
      models: this.models,
      providers: this.providers,
      providersError: this.providersError,
      workspaceDraft: this.workspaceDraft,
      workspaceError: this.workspaceError,
      signingOut: this.signingOut,
      signOutError: this.signOutError,
      save: (patch) => this.#save(patch),
      saveBackend: (chat_backend) => this.#saveBackend(chat_backend),
      saveModel: (id) => this.#saveModel(id),
      saveWorkspace: (input) => this.#saveWorkspace(input),
      signOut: () => this.#signOut(),
      onProviderChanged: this.#onProviderChanged,
      flashSaved: this.#flashSaved,
      notify: (message) => this.ui?.notify(message, 'error'),
    };
  }

  /** Every typed word must start a word of the row's text ("the" finds Theme, not "other"). */
  #matches(row: Row): boolean {
    // Letters of any script, so the search finds a row by its translated words too (and the English section and keywords).
    const cut = /[^\p{L}\p{N}$+]+/u;
    const words = `${row.section} ${sectionLabel(row.section)} ${row.label} ${row.hint ?? ''} ${row.keywords}`.toLocaleLowerCase().split(cut);
    // The query is cut like the text, so a variable name (ANTHROPIC_API_KEY) finds its row.
    return this.query
      .toLocaleLowerCase()
      .split(cut)
      .filter(Boolean)
      .every((q) => words.some((w) => w.startsWith(q)));
  }

  #onSearchKey(e: KeyboardEvent): void {
    // Esc clears a search first; a second Esc closes.
    if (e.key === 'Escape' && this.query) {
      e.preventDefault();
      e.stopPropagation();
      this.query = '';
    }
  }

  override render() {
    const rows = settingsRows(this.#rowsContext()).filter((r) => this.#matches(r));
    return html`<dialog
      data-role="settings"
      aria-labelledby="title"
      @cancel=${(e: Event) => {
        e.preventDefault();
        this.close();
      }}
      @close=${() => this.close()}
      @pointerdown=${(e: Event) => (this.#pressedOutside = e.target === this.dialog)}
      @click=${(e: Event) => e.target === this.dialog && this.#pressedOutside && this.close()}
    >
      <div class="box">
        <header>
          <h2 id="title">${msg('Settings')}</h2>
          <span class="saved meta" role="status" ?data-on=${this.saved}>${this.saved ? html`${icons.check()} ${msg('Saved')}` : nothing}</span>
          <button class="icon-button" aria-label=${msg('Close settings')} title=${msg('Close (Esc)')} data-action="close" @click=${() => this.close()}>${icons.close()}</button>
        </header>
        <label class="search">
          ${icons.search()}
          <input type="search" placeholder=${msg('Search settings')} aria-label=${msg('Search settings')} .value=${this.query} @input=${(e: Event) => (this.query = (e.target as HTMLInputElement).value)} @keydown=${this.#onSearchKey} />
        </label>
        <div class="content">
          ${SECTIONS.map((section) => {
            const inSection = rows.filter((r) => r.section === section);
            if (!inSection.length) return nothing;
            return html`<section>
              <h3>${sectionLabel(section)}</h3>
              ${inSection.map(
                (r) => html`<div class="row" data-setting=${r.id}>
                  <div class="text">
                    <label for=${r.id}>${r.label}</label>
                    ${r.hint ? html`<p class="hint meta">${r.hint}</p>` : nothing}
                    ${r.detail ? r.detail() : nothing}
                  </div>
                  <div class="control">${r.control()}</div>
                </div>`,
              )}
            </section>`;
          })}
          ${rows.length ? nothing : html`<p class="empty meta">${msg(str`No settings match “${this.query}”.`)}</p>`}
        </div>
        ${this.ui?.settings?.webui_version ? html`<footer class="meta">${msg(str`Hermes WebUI ${this.ui.settings.webui_version}`)}</footer>` : nothing}
      </div>
    </dialog>`;
  }

  static override styles = [baseStyles, settingsStyles];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-settings-dialog': HermesSettingsDialog;
  }
}
