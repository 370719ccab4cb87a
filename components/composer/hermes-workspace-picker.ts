import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { chipStyles } from './chip-styles.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import { emit, type HermesEvent } from '../events.js';
import { workspacesApi, type WorkspaceEntry } from '../api/workspaces.js';
import { rememberWorkspaces, workspaceLabel } from './workspace-switch.js';

let menuModule: Promise<unknown> | null = null;
/** The menu's chunk, fetched once: on the first hover or focus of the chip, or the first open. */
const loadMenu = () =>
  (menuModule ??= import('./hermes-workspace-menu.js').catch(() => {
    menuModule = null; // offline and not cached: the next open tries again
  }));

/**
 * The composer's workspace chip and the file panel's toggle beside it. Its switcher menu
 * (search, "New chat here", "Add folder…") is hermes-workspace-menu, a lazy chunk: the chip
 * paints at once and the menu's code comes on first use. The owner does the switching (it knows
 * the session); the menu's events bubble out through this element.
 *
 * @fires hermes-workspace-pick - detail: { path, name } (a workspace was chosen or added)
 * @fires hermes-workspace-new-chat - detail: { path, name } (start a new chat in it)
 * @fires hermes-workspace-files - the file panel's toggle
 */
@customElement('hermes-workspace-picker')
@localized()
export class HermesWorkspacePicker extends LitElement {
  /** The current workspace's path ('' when none is known yet). */
  @property() value = '';
  /** Whether the file panel is open (the toggle shows it pressed). */
  @property({ type: Boolean }) panelOpen = false;
  @state() open = false;
  @state() workspaces: WorkspaceEntry[] | null = null;
  @state() loadError = '';

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('pointerdown', this.#onOutside, true);
  }

  /** Opens the menu (and loads the list); public for /workspace-less callers and tests. */
  toggle(open = !this.open): void {
    this.open = open;
    if (open) {
      void loadMenu();
      document.addEventListener('pointerdown', this.#onOutside, true);
      void this.#load();
    } else document.removeEventListener('pointerdown', this.#onOutside, true);
  }

  async #load() {
    try {
      this.workspaces = (await workspacesApi.list()).workspaces;
      rememberWorkspaces(this.workspaces);
      this.loadError = '';
    } catch (err) {
      this.loadError = (err as Error).message;
    }
  }

  #onOutside = (e: Event) => {
    if (!e.composedPath().includes(this)) this.toggle(false);
  };

  #close(refocus: boolean) {
    this.toggle(false);
    if (refocus) this.renderRoot.querySelector<HTMLButtonElement>('[data-role="workspace-chip"]')?.focus();
  }

  /** Escape with the focus on the chip (the menu handles its own keys). */
  #onKeyDown(e: KeyboardEvent) {
    if (!this.open || e.key !== 'Escape') return;
    e.preventDefault();
    e.stopPropagation();
    this.#close(true);
  }

  override render() {
    const label = this.value ? ((this.workspaces ?? []).find((w) => w.path === this.value)?.name ?? workspaceLabel(this.value)) : msg('Workspace');
    return html`
      <div class="wrap" @keydown=${this.#onKeyDown}>
        <button
          class="chip workspace"
          data-role="workspace-chip"
          aria-haspopup="listbox"
          aria-expanded=${this.open}
          title=${this.value ? msg(str`Workspace: ${this.value}`) : msg('Choose a workspace')}
          @pointerenter=${loadMenu}
          @focus=${loadMenu}
          @click=${() => this.toggle()}
        >
          ${icons.folder()}<span class="label">${label}</span>
        </button>
        <button
          class="icon-button files"
          data-role="workspace-files"
          title=${msg('Show the workspace files')}
          aria-label=${msg('Toggle the workspace file panel')}
          aria-pressed=${this.panelOpen}
          @click=${() => emit(this, 'hermes-workspace-files', null)}
        >
          ${icons.panel()}
        </button>
        ${
          this.open
            ? html`<hermes-workspace-menu
              .value=${this.value}
              .panelOpen=${this.panelOpen}
              .workspaces=${this.workspaces}
              .loadError=${this.loadError}
              @hermes-popover-close=${(e: HermesEvent<'hermes-popover-close'>) => this.#close(e.detail.refocus)}
            ></hermes-workspace-menu>`
            : nothing
        }
      </div>
    `;
  }

  static override styles = [
    baseStyles,
    chipStyles,
    css`
      :host {
        display: inline-flex;
        min-width: 0;
      }
      .wrap {
        display: inline-flex;
        align-items: center;
      }
      .files {
        color: var(--hermes-fg-muted);
      }
      .files[aria-pressed='true'] {
        color: var(--hermes-accent);
      }
      @media (max-width: 639px) {
        .chip {
          min-height: var(--hermes-touch-target);
        }
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-workspace-picker': HermesWorkspacePicker;
  }
}
