import { LitElement, css, html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { workspacesApi, type WorkspaceEntry } from '../api/workspaces.js';
import { baseStyles } from '../shared/styles.js';
import { emit } from '../events.js';
import { inlineControlStyles } from './provider-form-styles.js';
import { rememberWorkspaces } from '../composer/workspace-switch.js';

/**
 * Settings → Workspaces: the saved workspaces (workspaces.json, shared with the incumbent) in
 * the order the composer's switcher lists them. Rename in place (Enter or leaving the field
 * saves, Escape puts the name back), move up and down, remove with a confirmation; all with
 * the keyboard. Sessions keep their folder when it leaves the list.
 *
 * @fires hermes-setting-saved - a change was written (the dialog says "Saved")
 */
@customElement('hermes-workspaces-settings')
@localized()
export class HermesWorkspacesSettings extends LitElement {
  @state() private workspaces: WorkspaceEntry[] | null = null;
  @state() private error = '';
  @state() private confirmRemove: string | null = null;
  @state() private busy = false;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  async load(): Promise<void> {
    try {
      this.#take((await workspacesApi.list()).workspaces);
      this.error = '';
    } catch (err) {
      this.error = (err as Error).message;
    }
  }

  #take(list: WorkspaceEntry[]) {
    this.workspaces = list;
    rememberWorkspaces(list);
  }

  /** Runs one change; the server's answer is the new list. Resolves true when it was kept. */
  async #act(work: () => Promise<WorkspaceEntry[]>): Promise<boolean> {
    if (this.busy) return false;
    this.busy = true;
    this.error = '';
    try {
      this.#take(await work());
      emit(this, 'hermes-setting-saved', null);
      return true;
    } catch (err) {
      this.error = (err as Error).message;
      return false;
    } finally {
      this.busy = false;
    }
  }

  #rename(w: WorkspaceEntry, input: HTMLInputElement) {
    const name = input.value.trim();
    if (!name) {
      input.value = w.name;
      this.error = msg('A workspace needs a name.');
      return;
    }
    if (name !== w.name) void this.#act(() => workspacesApi.rename(w.path, name));
  }

  async #move(index: number, by: -1 | 1) {
    const list = [...(this.workspaces ?? [])];
    const to = index + by;
    if (to < 0 || to >= list.length) return;
    [list[index], list[to]] = [list[to]!, list[index]!];
    const moved = list[to]!;
    if (await this.#act(() => workspacesApi.reorder(list.map((w) => w.path)))) {
      // The focus follows the row (its buttons were re-rendered at the new place).
      await this.updateComplete;
      const row = this.renderRoot.querySelector(`li[data-path="${CSS.escape(moved.path)}"]`);
      const button = row?.querySelector<HTMLButtonElement>(`[data-role="${by < 0 ? 'workspace-up' : 'workspace-down'}"]:not([disabled])`);
      (button ?? row?.querySelector<HTMLButtonElement>('button:not([disabled])'))?.focus();
    }
  }

  #remove(w: WorkspaceEntry) {
    this.confirmRemove = null;
    void this.#act(() => workspacesApi.remove(w.path));
  }

  #row(w: WorkspaceEntry, i: number, count: number) {
    return html`<li data-role="workspace-row" data-path=${w.path}>
      <div class="about">
        <input
          class="name"
          data-role="workspace-rename"
          aria-label=${msg(str`Name of ${w.path}`)}
          maxlength="128"
          .value=${w.name}
          ?disabled=${this.busy}
          @change=${(e: Event) => this.#rename(w, e.target as HTMLInputElement)}
          @keydown=${(e: KeyboardEvent) => {
            const input = e.target as HTMLInputElement;
            if (e.key === 'Enter') input.blur();
            else if (e.key === 'Escape' && input.value !== w.name) {
              // Not the dialog's Escape: this one undoes the typing.
              e.preventDefault();
              e.stopPropagation();
              input.value = w.name;
            }
          }}
        />
        <p class="path mono meta" title=${w.path}>${w.path}</p>
      </div>
      <div class="controls">
        <button data-role="workspace-up" aria-label=${msg(str`Move ${w.name} up`)} title=${msg('Move up')} ?disabled=${i === 0 || this.busy} @click=${() => this.#move(i, -1)}>↑</button>
        <button data-role="workspace-down" aria-label=${msg(str`Move ${w.name} down`)} title=${msg('Move down')} ?disabled=${i === count - 1 || this.busy} @click=${() => this.#move(i, 1)}>↓</button>
        ${
          this.confirmRemove === w.path
            ? html`<button class="danger" data-role="workspace-remove-confirm" @click=${() => this.#remove(w)}>${msg(str`Remove ${w.name}`)}</button>
              <button data-role="workspace-remove-keep" @click=${() => (this.confirmRemove = null)}>${msg('Keep')}</button>`
            : html`<button data-role="workspace-remove" aria-label=${msg(str`Remove ${w.name}`)} ?disabled=${this.busy} @click=${() => (this.confirmRemove = w.path)}>${msg('Remove')}</button>`
        }
      </div>
    </li>`;
  }

  override render() {
    const list = this.workspaces;
    return html`<div data-role="workspaces-settings">
      ${list === null && !this.error ? html`<p class="meta">${msg('Loading…')}</p>` : nothing}
      ${list?.length ? html`<ul>${list.map((w, i) => this.#row(w, i, list.length))}</ul>` : list ? html`<p class="meta">${msg('No saved workspaces.')}</p>` : nothing}
      <p class="field-error" role="alert">${this.error || nothing}</p>
      <p class="meta hint">${msg('Add folders from the workspace chip under the message box (“Add folder…”).')}</p>
    </div>`;
  }

  static override styles = [
    baseStyles,
    inlineControlStyles,
    css`
      ul {
        list-style: none;
        margin: 0;
        padding: 0;
        display: flex;
        flex-direction: column;
      }
      li {
        display: flex;
        justify-content: space-between;
        align-items: center;
        gap: var(--hermes-space-md);
        padding: var(--hermes-space-sm) 0;
        border-bottom: 1px solid var(--hermes-border);
      }
      .about {
        min-width: 0;
        flex: 1;
      }
      .name {
        width: 100%;
        max-width: 260px;
        font-weight: 600;
      }
      .path {
        margin: var(--hermes-space-xs) 0 0;
        max-width: 340px;
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
      }
      .controls {
        display: flex;
        align-items: center;
        gap: var(--hermes-space-xs);
        flex-shrink: 0;
      }
      .field-error {
        margin: var(--hermes-space-xs) 0 0;
        font-size: var(--hermes-text-label);
        color: var(--hermes-color-error);
      }
      .field-error:empty {
        display: none;
      }
      .hint {
        margin: var(--hermes-space-sm) 0 0;
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-workspaces-settings': HermesWorkspacesSettings;
  }
}
