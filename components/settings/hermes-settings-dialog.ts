import { LitElement, html, nothing, type TemplateResult } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import { consume } from '@lit/context';
import { api, type ModelCatalog, type ProviderRow, type Settings } from '../api/client.js';
import { chatContext, uiContext } from '../state/contexts.js';
import type { ChatStore } from '../state/chat-store.js';
import type { UiStore } from '../state/ui-store.js';
import { StoreController } from '../state/store.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import { settingsStyles } from './settings-styles.js';
import './hermes-session-import.js';
import './hermes-password-settings.js';
import './hermes-provider-row.js';
import './hermes-endpoint-form.js';
import './hermes-gateway-settings.js';
import { HOSTED } from './hermes-provider-add.js';
import { announceModelsChanged } from '../events.js';
import { signOut } from './sign-out.js';

interface Row {
  id: string;
  section: string;
  label: string;
  hint?: string;
  /** A line under the hint (a provider's state), for what plain text cannot say. */
  detail?: () => TemplateResult;
  /** Extra words the search matches. */
  keywords: string;
  control: () => TemplateResult | typeof nothing;
}

type Option<T> = { value: T; label: string };
const SECTIONS = ['Appearance', 'Chat', 'Agent', 'Providers', 'Workspace', 'Conversation', 'Security'];
type Providers = { active_provider: string | null; providers: ProviderRow[] };
const THEMES: Option<Settings['theme']>[] = [
  { value: 'dark', label: 'Dark' },
  { value: 'light', label: 'Light' },
  { value: 'system', label: 'System' },
];
const FONT_SIZES: Option<Settings['font_size']>[] = [
  { value: 'small', label: 'Small' },
  { value: 'default', label: 'Default' },
  { value: 'large', label: 'Large' },
  { value: 'xlarge', label: 'Extra large' },
];
type Backend = NonNullable<Settings['chat_backend']>;
const BACKENDS: Option<Backend>[] = [
  { value: 'builtin', label: 'Built-in agent' },
  { value: 'gateway', label: 'Hermes Agent' },
];
const SEND_KEYS: Option<Settings['send_key']>[] = [
  { value: 'enter', label: 'Enter' },
  { value: 'ctrl+enter', label: 'Ctrl+Enter' },
];

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
export class HermesSettingsDialog extends LitElement {
  @consume({ context: uiContext, subscribe: true }) ui?: UiStore;
  @consume({ context: chatContext, subscribe: true }) chat?: ChatStore;
  #stores = new StoreController(this, () => [this.ui, this.chat]);

  @state() private query = '';
  @state() private saved = false;
  @state() private models: Pick<ModelCatalog, 'default_model' | 'models'> & Partial<ModelCatalog> | null = null;
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
    api.models().then((m) => (this.models = m), () => (this.models ??= { default_model: null, models: [] }));
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

  /** Settings → Agent: the built-in agent or a Hermes Agent gateway (read-only where the environment decides). */
  #agentRow(s: Settings | null | undefined): Row[] {
    // An older server without the choice: no row.
    if (!s?.chat_backend) return [];
    const gateway = s.chat_backend === 'gateway';
    const fixed = !!s.chat_backend_fixed;
    return [
      {
        id: 'chat_backend',
        section: 'Agent',
        label: 'Answers come from',
        hint: fixed
          ? 'Set by HERMES_WEBUI_CHAT_BACKEND on the server; change it there (then restart Hermes).'
          : gateway
            ? 'Your Hermes Agent, through its API server: its model, tools, memory and approval rules. From the next message on.'
            : 'Hermes’ own agent, with the providers below. Or a Hermes Agent you already run.',
        keywords: 'agent backend gateway hermes api server built-in builtin answers chat_backend HERMES_WEBUI_CHAT_BACKEND API_SERVER_KEY url runs',
        control: () =>
          fixed
            ? html`<span class="readonly" data-role="backend-fixed" title=${gateway ? (s.gateway_base_url ?? '') : ''}>
                ${gateway ? html`Hermes Agent${s.gateway_base_url ? html` · <span class="mono">${s.gateway_base_url}</span>` : nothing}` : 'Built-in agent'}
              </span>`
            : html`${this.#segmented('chat_backend', BACKENDS, s.chat_backend, (v) => this.#saveBackend(v))}
              ${gateway ? html`<hermes-gateway-settings @setting-saved=${this.#flashSaved}></hermes-gateway-settings>` : nothing}`,
      },
    ];
  }

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
      this.workspaceError = this.ui?.toast?.kind === 'error' ? this.ui.toast.message : 'The server refused this folder';
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

  /** What the password row says: whether one is needed, and who decides. */
  #passwordHint(s: Settings | null | undefined): string {
    if (s?.password_env_var) return 'Required. Set by HERMES_WEBUI_PASSWORD on the server, so it can only be changed there (then restart Hermes).';
    if (s?.auth_enabled) return 'Required to open Hermes in a browser.';
    return 'Not set: anyone who can open this address can use Hermes.';
  }

  #segmented<T extends string>(name: string, options: Option<T>[], value: T | undefined, save: (v: T) => void) {
    const all = value && !options.some((o) => o.value === value) ? [...options, { value, label: value }] : options;
    return html`<div class="segmented" role="radiogroup" aria-label=${name}>
      ${all.map(
        (o) => html`<label>
          <input type="radio" name=${name} value=${o.value} .checked=${o.value === value} @change=${() => save(o.value)} />
          <span>${o.label}</span>
        </label>`,
      )}
    </div>`;
  }

  #rows(): Row[] {
    const s = this.ui?.settings;
    const sid = this.chat?.sessionId;
    const models = this.models;
    const model = models?.models.find((m) => m.id === models.default_model);
    return [
      { id: 'theme', section: 'Appearance', label: 'Theme', keywords: 'dark light system color mode', control: () => this.#segmented('theme', THEMES, s?.theme, (theme) => this.#save({ theme })) },
      {
        id: 'font_size',
        section: 'Appearance',
        label: 'Font size',
        keywords: 'text scale zoom small large',
        control: () => html`<select id="font_size" @change=${(e: Event) => this.#save({ font_size: (e.target as HTMLSelectElement).value as Settings['font_size'] })}>
          ${FONT_SIZES.map((o) => html`<option value=${o.value} ?selected=${o.value === s?.font_size}>${o.label}</option>`)}
        </select>`,
      },
      { id: 'send_key', section: 'Chat', label: 'Send with', hint: 'The other combination adds a new line.', keywords: 'send key enter ctrl keyboard shortcut newline', control: () => this.#segmented('send_key', SEND_KEYS, s?.send_key, (send_key) => this.#save({ send_key })) },
      {
        id: 'show_thinking',
        section: 'Chat',
        label: 'Show thinking',
        hint: 'Show the model’s reasoning in each reply’s activity.',
        keywords: 'reasoning thoughts',
        control: () => html`<input id="show_thinking" type="checkbox" role="switch" class="switch" .checked=${s?.show_thinking ?? true} @change=${(e: Event) => this.#save({ show_thinking: (e.target as HTMLInputElement).checked })} />`,
      },
      {
        id: 'default_model',
        section: 'Chat',
        label: 'Default model',
        hint: models && !models.models.length ? 'No model is configured yet: set model.default in $HERMES_HOME/config.yaml.' : 'Used by new conversations (saved as model.default in config.yaml).',
        keywords: 'model llm provider config',
        control: () =>
          models?.models.length
            ? html`<select id="default_model" @change=${(e: Event) => this.#saveModel((e.target as HTMLSelectElement).value)}>
                ${models.default_model && !models.models.some((m) => m.id === models.default_model)
                  ? html`<option value=${models.default_model} selected>${models.default_model}</option>`
                  : nothing}
                ${models.groups?.length
                  ? models.groups.map(
                      (g) => html`<optgroup label=${g.label ?? g.provider}>
                        ${g.models.map((m) => html`<option value=${m.id} ?selected=${m.id === models.default_model}>${m.label}</option>`)}
                      </optgroup>`,
                    )
                  : models.models.map((m) => html`<option value=${m.id} ?selected=${m.id === models.default_model}>${m.label}</option>`)}
              </select>`
            : html`<span class="readonly mono" title=${models?.default_model ?? ''}>${models ? (model?.label ?? models.default_model ?? 'Not configured') : '…'}</span>`,
      },
      ...this.#agentRow(s),
      ...this.#providerRows(),
      {
        id: 'default_workspace',
        section: 'Workspace',
        label: 'Default workspace',
        hint: 'The folder new conversations work in.',
        keywords: 'folder directory path files',
        control: () => html`<input
            id="default_workspace"
            class="mono path"
            spellcheck="false"
            autocomplete="off"
            .value=${this.workspaceDraft ?? s?.default_workspace ?? ''}
            aria-invalid=${this.workspaceError ? 'true' : 'false'}
            @change=${(e: Event) => this.#saveWorkspace(e.target as HTMLInputElement)}
          />
          ${this.workspaceError ? html`<p class="field-error" role="alert">${this.workspaceError}</p>` : nothing}`,
      },
      {
        id: 'export',
        section: 'Conversation',
        label: 'Export conversation',
        hint: sid ? 'Download the open conversation.' : 'Open a conversation to export it.',
        keywords: 'download save markdown json backup',
        control: () =>
          sid
            ? html`<span class="links">
                <a class="button" data-format="md" href=${api.exportUrl(sid, 'md')} download>${icons.download()} Markdown</a>
                <a class="button" data-format="json" href=${api.exportUrl(sid, 'json')} download>${icons.download()} JSON</a>
              </span>`
            : nothing,
      },
      { id: 'import', section: 'Conversation', label: 'Import conversation', hint: 'From a JSON export.', keywords: 'upload load json restore', control: () => html`<hermes-session-import></hermes-session-import>` },
      {
        id: 'password',
        section: 'Security',
        label: 'Password',
        hint: this.#passwordHint(s),
        keywords: 'password login sign in lock protect auth set change remove clear HERMES_WEBUI_PASSWORD',
        control: () => html`<hermes-password-settings></hermes-password-settings>`,
      },
      {
        id: 'api_redact_enabled',
        section: 'Security',
        label: 'Mask secrets',
        hint: 'Hide API keys, tokens and passwords in conversations, tool output and exports. Stored data is unchanged.',
        keywords: 'redact redaction hide api key token secret mask privacy',
        control: () => html`<input id="api_redact_enabled" type="checkbox" role="switch" class="switch" .checked=${s?.api_redact_enabled !== false} @change=${(e: Event) => this.#save({ api_redact_enabled: (e.target as HTMLInputElement).checked })} />`,
      },
      ...(s?.auth_enabled
        ? [
            {
              id: 'sign_out',
              section: 'Security',
              label: 'Sign out',
              hint: 'End this browser’s sign-in and forget its offline copy of your conversations.',
              keywords: 'logout log out sign off session',
              control: () => html`<button class="outline" data-action="sign-out" ?disabled=${this.signingOut} @click=${() => this.#signOut()}>
                  ${this.signingOut ? 'Signing out…' : 'Sign out'}
                </button>
                ${this.signOutError ? html`<p class="field-error" role="alert">${this.signOutError}</p>` : nothing}`,
            },
          ]
        : []),
    ];
  }

  /** Settings → Providers: one row per provider (state, masked key, its actions), then "add an endpoint". */
  #providerRows(): Row[] {
    const list = this.providers;
    const common = 'provider providers api key keys model models endpoint';
    if (!list) {
      return [
        {
          id: 'providers',
          section: 'Providers',
          label: 'Providers',
          hint: this.providersError ? `Could not load the providers: ${this.providersError}` : 'Loading…',
          keywords: common,
          control: () => nothing,
        },
      ];
    }
    const rows: Row[] = list.providers.map((p) => ({
      id: `provider:${p.id}`,
      section: 'Providers',
      label: p.label,
      hint: providerHint(p),
      detail: () => providerState(p),
      keywords: `${common} ${p.id} ${p.kind} ${p.kind === 'custom' ? 'self-hosted openai-compatible' : ''} ${p.key_env ?? ''} ${p.base_url ?? ''} ${p.active ? 'active default' : ''} ${p.status} ${p.error ?? ''}`,
      control: () => html`<hermes-provider-row .provider=${p} @provider-changed=${this.#onProviderChanged}></hermes-provider-row>`,
    }));
    const keyless = HOSTED.filter((h) => !list.providers.some((p) => p.id === h.id && p.key_set));
    if (keyless.length) {
      rows.push({
        id: 'add_provider',
        section: 'Providers',
        label: 'Hosted provider',
        hint: `Add an API key for ${keyless.map((h) => h.label).join(', ').replace(/, ([^,]*)$/, ' or $1')}.`,
        keywords: `${common} add hosted ${keyless.map((h) => `${h.id} ${h.key_env}`).join(' ')}`,
        control: () => html`<hermes-provider-add .options=${keyless} @provider-changed=${this.#onProviderChanged}></hermes-provider-add>`,
      });
    }
    rows.push({
      id: 'add_endpoint',
      section: 'Providers',
      label: 'Self-hosted endpoint',
      hint: 'Any OpenAI-compatible API: vLLM, llama.cpp, TabbyAPI, Ollama or LM Studio on another machine.',
      keywords: `${common} add custom self-hosted openai-compatible base url vllm llama ollama lm studio local server`,
      control: () => html`<hermes-endpoint-form @provider-changed=${this.#onProviderChanged}></hermes-endpoint-form>`,
    });
    return rows;
  }

  /** Every typed word must start a word of the row's text ("the" finds Theme, not "other"). */
  #matches(row: Row): boolean {
    const words = `${row.section} ${row.label} ${row.hint ?? ''} ${row.keywords}`.toLowerCase().split(/[^a-z0-9$+]+/);
    // The query is cut like the text, so a variable name (ANTHROPIC_API_KEY) finds its row.
    return this.query.toLowerCase().split(/[^a-z0-9$+]+/).filter(Boolean).every((q) => words.some((w) => w.startsWith(q)));
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
    const rows = this.#rows().filter((r) => this.#matches(r));
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
          <h2 id="title">Settings</h2>
          <span class="saved meta" role="status" ?data-on=${this.saved}>${this.saved ? html`${icons.check()} Saved` : nothing}</span>
          <button class="icon-button" aria-label="Close settings" title="Close (Esc)" data-action="close" @click=${() => this.close()}>${icons.close()}</button>
        </header>
        <label class="search">
          ${icons.search()}
          <input type="search" placeholder="Search settings" aria-label="Search settings" .value=${this.query} @input=${(e: Event) => (this.query = (e.target as HTMLInputElement).value)} @keydown=${this.#onSearchKey} />
        </label>
        <div class="content">
          ${SECTIONS.map((section) => {
            const inSection = rows.filter((r) => r.section === section);
            if (!inSection.length) return nothing;
            return html`<section>
              <h3>${section}</h3>
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
          ${rows.length ? nothing : html`<p class="empty meta">No settings match “${this.query}”.</p>`}
        </div>
        ${this.ui?.settings?.webui_version ? html`<footer class="meta">Hermes WebUI ${this.ui.settings.webui_version}</footer>` : nothing}
      </div>
    </dialog>`;
  }

  static override styles = [baseStyles, settingsStyles];
}

/** A provider row's quiet description: where it is, and which key it reads. */
function providerHint(p: ProviderRow): string {
  const parts: string[] = [];
  if (p.base_url) parts.push(p.base_url);
  if (p.key_env && p.kind !== 'custom') parts.push(p.key_env);
  return parts.join(' · ');
}

/** Whether it works: ok (with its model count), its error, or that it needs a key. */
function providerState(p: ProviderRow): TemplateResult {
  const active = p.active ? html`<span class="tag">active</span>` : nothing;
  switch (p.status) {
    case 'ok':
      return html`<p class="state ok meta" data-role="provider-status" data-status="ok">
        ${icons.check()} Works${p.models_count !== undefined ? html` · ${p.models_count === 1 ? '1 model' : `${p.models_count} models`}` : nothing} ${active}
      </p>`;
    case 'error':
      return html`<p class="state error meta" data-role="provider-status" data-status="error">${icons.alert()} ${p.error ?? 'Not working'} ${active}</p>`;
    case 'no_key':
      return html`<p class="state meta" data-role="provider-status" data-status="no_key">No key yet ${active}</p>`;
    default:
      return html`<p class="state meta" data-role="provider-status" data-status="unknown">Not checked yet ${active}</p>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-settings-dialog': HermesSettingsDialog;
  }
}
