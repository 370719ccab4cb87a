import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { chipStyles } from './chip-styles.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import type { HermesEvent } from '../events.js';
import type { HermesModelMenu } from './hermes-model-menu.js';

export interface ModelOptionView {
  id: string;
  label: string;
  provider: string;
}

export interface ModelGroupView {
  provider: string;
  label?: string;
  models: Array<{ id: string; label: string; context_length?: number }>;
  /** Why this provider's list is missing or partial. */
  error?: string;
  source?: string;
}

/** GET /api/models as the picker reads it (older servers send only `models` and bare groups). */
export interface ModelCatalogView {
  default_model: string | null;
  active_provider?: string | null;
  models: ModelOptionView[];
  groups?: ModelGroupView[];
  /** The list is older than the server likes; a refresh would ask the providers again. */
  stale?: boolean;
  fetched_at?: number | null;
  error?: string;
}

/** The short name of a model id (a custom provider's prefix left out). */
const modelLabel = (id: string) => /^custom:[^:]*:(.+)$/.exec(id)?.[1] ?? id;

let menuModule: Promise<unknown> | null = null;
/** The menu's chunk, fetched once: on the first hover or focus of the chip, or the first open. */
const loadMenu = () =>
  (menuModule ??= import('./hermes-model-menu.js').catch(() => {
    menuModule = null; // offline and not cached: the next open tries again
  }));

/**
 * The composer's model chip. Shows `value` (the session's model) or, without one, the configured
 * default. Its menu (search over every provider's models, grouped; a typed id) is
 * hermes-model-menu, a lazy chunk: the chip paints at once, the menu's code comes on first use,
 * and the menu's events bubble out through this element.
 *
 * @fires hermes-model-change - detail: { model } (a model was picked or typed)
 * @fires hermes-models-refresh - the person asked for a fresh list (the owner refetches `catalog`)
 */
@customElement('hermes-model-picker')
@localized()
export class HermesModelPicker extends LitElement {
  @property() value: string | null = null;
  @property({ attribute: false }) catalog: ModelCatalogView | null = null;
  /** Set by the owner while a refresh runs. */
  @property({ type: Boolean }) refreshing = false;
  @state() open = false;

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('pointerdown', this.#onOutside, true);
  }

  #toggle(open = !this.open) {
    this.open = open;
    if (open) {
      void loadMenu();
      document.addEventListener('pointerdown', this.#onOutside, true);
    } else document.removeEventListener('pointerdown', this.#onOutside, true);
  }

  #onOutside = (e: Event) => {
    if (!e.composedPath().includes(this)) this.#toggle(false);
  };

  #close(refocus: boolean) {
    this.#toggle(false);
    if (refocus) this.renderRoot.querySelector<HTMLButtonElement>('.chip')?.focus();
  }

  /** Keys pressed on the chip while the menu is open (the menu handles its own). */
  #onKeyDown(e: KeyboardEvent) {
    const menu = this.renderRoot.querySelector<HermesModelMenu>('hermes-model-menu');
    if (!this.open || e.target === menu) return;
    if (e.key === 'Escape') {
      e.stopPropagation();
      e.preventDefault();
      this.#close(true);
    } else if ((e.key === 'ArrowDown' || e.key === 'ArrowUp') && menu?.move) {
      e.preventDefault();
      menu.move(e.key === 'ArrowDown' ? 1 : -1);
    }
  }

  override render() {
    const current = this.value || this.catalog?.default_model || null;
    const label = current ? modelLabel(current) : msg('No model');
    return html`
      <div class="wrap" @keydown=${this.#onKeyDown}>
        <button
          class="chip"
          data-role="model-picker"
          aria-haspopup="listbox"
          aria-expanded=${this.open}
          title=${current ? msg(str`Model: ${current}`) : msg('No model configured')}
          @pointerenter=${loadMenu}
          @focus=${loadMenu}
          @click=${() => this.#toggle()}
        >
          <span class="label">${label}</span>
          <span class="caret">${icons.chevron()}</span>
        </button>
        ${
          this.open
            ? html`<hermes-model-menu
              .current=${current}
              .currentLabel=${label}
              .value=${this.value}
              .catalog=${this.catalog}
              .refreshing=${this.refreshing}
              @hermes-popover-close=${(e: HermesEvent<'hermes-popover-close'>) => this.#close(e.detail.refocus)}
            ></hermes-model-menu>`
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
        display: inline-block;
        min-width: 0;
      }
      .caret {
        display: inline-grid;
        flex: none;
        transform: rotate(90deg);
        opacity: 0.7;
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
    'hermes-model-picker': HermesModelPicker;
  }
}
