import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, query, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { api, type ModelCatalog, type Project } from '../api/client.js';
import { boundWorkspaces, projectsApi } from '../api/projects.js';
import { REASONING_EFFORTS } from '../../src/agent/reasoning.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';

interface ModelChoice {
  model: string;
  provider: string | null;
  label: string;
  group: string;
}

/** The reasoning levels' names, in the current language (made per render, so a switch applies). */
const effortLabels = (): Record<string, string> => ({
  none: msg('Off'),
  minimal: msg('Minimal'),
  low: msg('Low'),
  medium: msg('Medium'),
  high: msg('High'),
  xhigh: msg('X-High'),
  max: msg('Max'),
});
const baseName = (path: string) => path.replace(/\/+$/, '').split('/').pop() || path;

/** The catalog's models, plus the bound one when the catalog no longer lists it (so opening and saving keeps it). */
export function modelChoices(catalog: ModelCatalog | null, project: Project): ModelChoice[] {
  const choices: ModelChoice[] = (catalog?.groups ?? []).flatMap((g) =>
    g.models.map((m) => ({ model: m.id, provider: g.provider, label: m.label || m.id, group: g.label })),
  );
  if (project.model && !choices.some((c) => c.model === project.model && (!project.model_provider || c.provider === project.model_provider))) {
    choices.unshift({ model: project.model, provider: project.model_provider ?? null, label: project.model, group: msg('Bound') });
  }
  return choices;
}

/**
 * "Project settings…": a project's bindings (POST /api/projects/bind) — the workspaces a chat of
 * the project may start in and the default among them, auto-assign, the model and a stored
 * reasoning effort. A modal <dialog> (Escape and the focus trap are the browser's); nothing is
 * sent until Save, and the server's refusal is shown here.
 */
@customElement('hermes-project-settings')
@localized()
export class HermesProjectSettings extends LitElement {
  @property({ attribute: false }) project!: Project;
  /** Called once the dialog is done: with the saved project, or null when cancelled. */
  @property({ attribute: false }) onDone: (saved: Project | null) => void = () => {};

  @state() private workspaces: string[] = [];
  @state() private defaultWorkspace = '';
  @state() private autoAssign = false;
  /** Index into the model choices, '' for unbound. */
  @state() private modelIndex = '';
  @state() private effort = '';
  @state() private saved: Array<{ path: string; name: string }> = [];
  @state() private catalog: ModelCatalog | null = null;
  @state() private error = '';
  @state() private busy = false;
  @query('dialog') private dialog!: HTMLDialogElement;
  #choices: ModelChoice[] = [];

  override connectedCallback(): void {
    super.connectedCallback();
    const p = this.project;
    this.workspaces = boundWorkspaces(p);
    this.defaultWorkspace = typeof p.default_workspace === 'string' && this.workspaces.includes(p.default_workspace) ? p.default_workspace : '';
    this.autoAssign = p.auto_assign === true;
    this.effort = typeof p.reasoning_effort === 'string' ? p.reasoning_effort : '';
    this.#setCatalog(null);
    api.workspaces().then(
      (r) => (this.saved = r.workspaces),
      () => {},
    );
    api.models().then(
      (m) => this.#setCatalog(m),
      () => {},
    );
  }

  override firstUpdated(): void {
    this.dialog.showModal();
  }

  #setCatalog(catalog: ModelCatalog | null) {
    const picked = this.#choices[Number(this.modelIndex)];
    this.catalog = catalog;
    this.#choices = modelChoices(catalog, this.project);
    // Keep what is picked (or bound) selected across the catalog's arrival.
    const want = picked ?? (this.project.model ? { model: this.project.model, provider: this.project.model_provider ?? null } : null);
    const at = want ? this.#choices.findIndex((c) => c.model === want.model && (!want.provider || c.provider === want.provider)) : -1;
    this.modelIndex = at >= 0 ? String(at) : '';
  }

  #nameOf(path: string) {
    return this.saved.find((w) => w.path === path)?.name ?? baseName(path);
  }

  #addPath(path: string) {
    if (path && !this.workspaces.includes(path)) this.workspaces = [...this.workspaces, path];
  }

  #remove(path: string) {
    this.workspaces = this.workspaces.filter((w) => w !== path);
    if (this.defaultWorkspace === path) this.defaultWorkspace = '';
  }

  #finish(saved: Project | null) {
    if (this.dialog?.open) this.dialog.close();
    this.onDone(saved);
  }

  async #save(e: SubmitEvent) {
    e.preventDefault();
    if (this.busy) return;
    const choice = this.#choices[Number(this.modelIndex)];
    const list = this.workspaces;
    this.busy = true;
    this.error = '';
    try {
      const saved = await projectsApi.bind(this.project.project_id, {
        workspaces: list.length ? list : null,
        default_workspace: list.length && this.defaultWorkspace ? this.defaultWorkspace : null,
        auto_assign: this.autoAssign,
        model: this.modelIndex !== '' && choice ? choice.model : null,
        model_provider: this.modelIndex !== '' && choice ? choice.provider : null,
        reasoning_effort: this.effort || null,
      });
      this.#finish(saved);
    } catch (err) {
      this.error = (err as Error).message;
    } finally {
      this.busy = false;
    }
  }

  #workspaceRows() {
    if (!this.workspaces.length)
      return html`<p class="meta empty" data-role="project-no-workspaces">${msg('No workspaces bound: new chats start in the usual one.')}</p>`;
    return html`<ul class="ws" role="list">
      ${this.workspaces.map(
        (path) => html`<li data-role="project-workspace" data-path=${path}>
          <span class="ws-text"><span class="ws-name">${this.#nameOf(path)}</span><span class="meta ws-path">${path}</span></span>
          <button type="button" class="icon-button" data-role="project-workspace-remove" aria-label=${msg(str`Unbind ${path}`)} title=${msg('Unbind')} @click=${() => this.#remove(path)}>${icons.close()}</button>
        </li>`,
      )}
    </ul>`;
  }

  #workspaceFields() {
    const addable = this.saved.filter((w) => !this.workspaces.includes(w.path));
    return html`
      <fieldset>
        <legend>${msg('Workspaces')}</legend>
        ${this.#workspaceRows()}
        <div class="row">
          <select data-role="project-workspace-add" aria-label=${msg('Add a saved workspace')} ?disabled=${!addable.length} @change=${(e: Event) => {
            const select = e.target as HTMLSelectElement;
            this.#addPath(select.value);
            select.value = '';
          }}>
            <option value="">${addable.length ? msg('Add a saved workspace…') : msg('Every saved workspace is bound')}</option>
            ${addable.map((w) => html`<option value=${w.path}>${w.name} — ${w.path}</option>`)}
          </select>
          <button type="button" class="outline" data-role="project-workspaces-clear" ?disabled=${!this.workspaces.length} @click=${() => ((this.workspaces = []), (this.defaultWorkspace = ''))}>
            ${msg('Clear')}
          </button>
        </div>
        <label class="field">
          <span>${msg('Default workspace (new chats start here)')}</span>
          <select data-role="project-default-workspace" ?disabled=${!this.workspaces.length} .value=${this.defaultWorkspace} @change=${(e: Event) => (this.defaultWorkspace = (e.target as HTMLSelectElement).value)}>
            <option value="" ?selected=${this.defaultWorkspace === ''}>${msg('First in the list')}</option>
            ${this.workspaces.map((path) => html`<option value=${path} ?selected=${this.defaultWorkspace === path}>${this.#nameOf(path)}</option>`)}
          </select>
        </label>
        <label class="check">
          <input type="checkbox" data-role="project-auto-assign" .checked=${this.autoAssign} @change=${(e: Event) => (this.autoAssign = (e.target as HTMLInputElement).checked)} />
          <span>${msg('Auto-assign: new chats started in these workspaces join this project')}</span>
        </label>
      </fieldset>
    `;
  }

  #modelFields() {
    const efforts = effortLabels();
    const groups = [...new Set(this.#choices.map((c) => c.group))];
    return html`
      <label class="field">
        <span>${msg('Model')}</span>
        <select data-role="project-model" .value=${this.modelIndex} @change=${(e: Event) => (this.modelIndex = (e.target as HTMLSelectElement).value)}>
          <option value="" ?selected=${this.modelIndex === ''}>${msg('Not bound (the default model)')}</option>
          ${groups.map(
            (g) => html`<optgroup label=${g}>
              ${this.#choices.map((c, i) => (c.group === g ? html`<option value=${String(i)} data-model=${c.model} ?selected=${this.modelIndex === String(i)}>${c.label}</option>` : nothing))}
            </optgroup>`,
          )}
        </select>
        ${this.catalog ? nothing : html`<span class="meta">${msg('Loading models…')}</span>`}
      </label>
      <label class="field">
        <span>${msg('Reasoning effort')}</span>
        <select data-role="project-reasoning" .value=${this.effort} @change=${(e: Event) => (this.effort = (e.target as HTMLSelectElement).value)}>
          <option value="" ?selected=${this.effort === ''}>${msg('Not bound')}</option>
          ${REASONING_EFFORTS.map((e) => html`<option value=${e} ?selected=${this.effort === e}>${efforts[e] ?? e}</option>`)}
        </select>
        <span class="meta">${msg("Stored with the project; chats follow the reasoning setting in config.yaml (the composer's chip).")}</span>
      </label>
    `;
  }

  override render() {
    const p = this.project;
    if (!p) return nothing;
    return html`<dialog data-role="project-settings" aria-labelledby="project-settings-title" @cancel=${(e: Event) => (e.preventDefault(), this.#finish(null))}>
      <form @submit=${this.#save}>
        <header>
          <h2 id="project-settings-title">${msg(str`Project settings · ${p.name}`)}</h2>
          <button type="button" class="icon-button" data-role="project-settings-close" aria-label=${msg('Close')} @click=${() => this.#finish(null)}>${icons.close()}</button>
        </header>
        ${this.#workspaceFields()} ${this.#modelFields()}
        ${this.error ? html`<p class="error" role="alert" data-role="project-settings-error">${this.error}</p>` : nothing}
        <footer>
          <button type="button" class="outline" data-role="project-settings-cancel" @click=${() => this.#finish(null)}>${msg('Cancel')}</button>
          <button type="submit" class="primary" data-role="project-settings-save" ?disabled=${this.busy}>${this.busy ? msg('Saving…') : msg('Save')}</button>
        </footer>
      </form>
    </dialog>`;
  }

  static override styles = [
    baseStyles,
    css`
      dialog {
        width: min(520px, 94vw);
        max-height: 88vh;
        padding: var(--hermes-space-md) var(--hermes-space-lg);
        background: var(--hermes-bg);
        color: var(--hermes-fg);
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-lg);
        box-shadow: var(--hermes-shadow-popover);
      }
      dialog::backdrop {
        background: var(--hermes-scrim);
      }
      dialog * {
        box-sizing: border-box;
      }
      /* Long paths in the selects must not widen the dialog: every track may shrink. */
      form {
        display: grid;
        grid-template-columns: minmax(0, 1fr);
        gap: var(--hermes-space-md);
      }
      select {
        width: 100%;
        min-width: 0;
      }
      header,
      footer,
      .row {
        display: flex;
        align-items: center;
        gap: var(--hermes-space-sm);
      }
      header h2 {
        flex: 1;
        margin: 0;
        font-size: var(--hermes-text-h3);
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
      }
      footer {
        justify-content: flex-end;
      }
      fieldset {
        display: grid;
        grid-template-columns: minmax(0, 1fr);
        min-inline-size: 0;
        gap: var(--hermes-space-sm);
        margin: 0;
        padding: var(--hermes-space-sm);
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-md);
      }
      legend {
        padding: 0 var(--hermes-space-xs);
      }
      .row select {
        flex: 1;
        min-width: 0;
      }
      .field {
        display: grid;
        gap: var(--hermes-space-xs);
      }
      .check {
        display: flex;
        align-items: flex-start;
        gap: var(--hermes-space-sm);
      }
      .ws {
        display: grid;
        gap: var(--hermes-space-xs);
        margin: 0;
        padding: 0;
        list-style: none;
      }
      .ws li {
        display: flex;
        align-items: center;
        gap: var(--hermes-space-sm);
      }
      .ws-text {
        display: grid;
        flex: 1;
        min-width: 0;
      }
      .ws-path,
      .ws-name {
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
      }
      .empty {
        margin: 0;
      }
      .error {
        margin: 0;
        color: var(--hermes-color-error);
        overflow-wrap: anywhere;
      }
      @media (max-width: 639px) {
        select,
        footer button {
          min-height: var(--hermes-touch-target);
        }
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-project-settings': HermesProjectSettings;
  }
}
