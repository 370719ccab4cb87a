import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';

export interface ModelOptionView {
  id: string;
  label: string;
  provider: string;
}

/** GET /api/models as the picker reads it. */
export interface ModelCatalogView {
  default_model: string | null;
  active_provider?: string | null;
  models: ModelOptionView[];
  groups?: Array<{ provider: string; models: ModelOptionView[] }>;
  error?: string;
}

const shortLabel = (id: string) => /^custom:[^:]*:(.+)$/.exec(id)?.[1] ?? id;

/**
 * The composer's model chip and its menu, grouped by provider. Shows `value` (the session's
 * model) or, without one, the configured default.
 *
 * @fires model-change - detail: { model } (an option was picked)
 */
@customElement('hermes-model-picker')
export class HermesModelPicker extends LitElement {
  @property() value: string | null = null;
  @property({ attribute: false }) catalog: ModelCatalogView | null = null;
  @state() open = false;

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('pointerdown', this.#onOutside, true);
  }

  #toggle(open = !this.open) {
    this.open = open;
    if (open) document.addEventListener('pointerdown', this.#onOutside, true);
    else document.removeEventListener('pointerdown', this.#onOutside, true);
    if (open) void this.updateComplete.then(() => this.#placeMenu());
  }

  /** Keeps the menu inside the viewport (the chip sits mid-bar; phones are narrow). */
  #placeMenu() {
    const menu = this.renderRoot.querySelector<HTMLElement>('.menu');
    if (!menu) return;
    const rect = menu.getBoundingClientRect();
    const overflow = rect.right - (document.documentElement.clientWidth - 8);
    if (overflow > 0) menu.style.translate = `${-Math.min(overflow, rect.left - 8)}px`;
    (menu.querySelector<HTMLElement>('[aria-checked="true"]') ?? menu.querySelector<HTMLElement>('[role="menuitemradio"]'))?.focus();
  }

  #onOutside = (e: Event) => {
    if (!e.composedPath().includes(this)) this.#toggle(false);
  };

  #pick(id: string) {
    this.#toggle(false);
    this.renderRoot.querySelector<HTMLButtonElement>('.chip')?.focus();
    if (id !== this.value) this.dispatchEvent(new CustomEvent('model-change', { detail: { model: id }, bubbles: true, composed: true }));
  }

  #onKeyDown(e: KeyboardEvent) {
    if (e.key === 'Escape' && this.open) {
      e.stopPropagation();
      this.#toggle(false);
      this.renderRoot.querySelector<HTMLButtonElement>('.chip')?.focus();
    } else if (this.open && (e.key === 'ArrowDown' || e.key === 'ArrowUp')) {
      e.preventDefault();
      const items = [...this.renderRoot.querySelectorAll<HTMLElement>('[role="menuitemradio"]')];
      const at = items.indexOf(this.shadowRoot?.activeElement as HTMLElement);
      items[(at + (e.key === 'ArrowDown' ? 1 : -1) + items.length) % items.length]?.focus();
    }
  }

  override render() {
    const current = this.value || this.catalog?.default_model || null;
    const label = current ? shortLabel(current) : 'No model';
    return html`
      <div class="wrap" @keydown=${this.#onKeyDown}>
        <button class="chip" data-role="model-picker" aria-haspopup="menu" aria-expanded=${this.open} title=${current ? `Model: ${current}` : 'No model configured'} @click=${() => this.#toggle()}>
          <span class="label">${label}</span>
          <span class="caret">${icons.chevron()}</span>
        </button>
        ${this.open ? this.#menu(current) : nothing}
      </div>
    `;
  }

  #menu(current: string | null) {
    const catalog = this.catalog;
    const groups = catalog?.groups ?? (catalog?.models.length ? [{ provider: '', models: catalog.models }] : []);
    const known = catalog?.models.some((m) => m.id === current);
    return html`
      <div class="menu" role="menu" aria-label="Model" data-role="model-menu">
        ${current && !known ? this.#item({ id: current, label: shortLabel(current), provider: '' }, current) : nothing}
        ${groups.map(
          (g) => html`
            ${g.provider ? html`<div class="group meta">${g.provider}</div>` : nothing}
            ${g.models.map((m) => this.#item(m, current))}
          `,
        )}
        ${!catalog
          ? html`<div class="empty meta">Loading models…</div>`
          : !catalog.models.length && !current
            ? html`<div class="empty meta">${catalog.error ?? 'No model configured. Set model.default in ~/.hermes/config.yaml.'}</div>`
            : nothing}
        <div class="foot meta">Any other id: <span class="mono">/model &lt;id&gt;</span></div>
      </div>
    `;
  }

  #item(m: ModelOptionView, current: string | null) {
    const on = m.id === current;
    return html`<button role="menuitemradio" aria-checked=${on} data-model=${m.id} title=${m.id} @click=${() => this.#pick(m.id)}>
      <span class="check">${on ? icons.check() : nothing}</span><span class="label">${m.label}</span>
      ${m.id === this.catalog?.default_model ? html`<span class="meta">default</span>` : nothing}
    </button>`;
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        display: inline-block;
        min-width: 0;
      }
      .wrap {
        position: relative;
        min-width: 0;
      }
      .chip {
        display: inline-flex;
        align-items: center;
        gap: var(--hermes-space-xs);
        max-width: 100%;
        min-height: 32px;
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
      }
      .chip .label {
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
        min-width: 0;
      }
      .caret {
        display: inline-grid;
        flex: none;
        transform: rotate(90deg);
        opacity: 0.7;
      }
      .menu {
        position: absolute;
        bottom: calc(100% + var(--hermes-space-xs));
        left: 0;
        z-index: 5;
        width: max-content;
        min-width: 220px;
        max-width: min(var(--hermes-panel-width), calc(100vw - 2 * var(--hermes-space-lg)));
        max-height: 40vh;
        overflow-y: auto;
        padding: var(--hermes-space-xs);
        background: var(--hermes-panel);
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-md);
        box-shadow: var(--hermes-shadow-popover);
      }
      .group {
        padding: var(--hermes-space-sm) var(--hermes-space-sm) var(--hermes-space-xs);
        font-family: var(--hermes-font-mono);
      }
      [role='menuitemradio'] {
        display: flex;
        align-items: center;
        gap: var(--hermes-space-xs);
        width: 100%;
        text-align: left;
        font-size: var(--hermes-text-label);
        border-radius: var(--hermes-radius-sm);
      }
      [role='menuitemradio'] .label {
        flex: 1;
        min-width: 0;
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
      }
      [aria-checked='true'] {
        background: var(--hermes-selected);
      }
      .check {
        display: inline-grid;
        width: 16px;
        flex: none;
      }
      .empty,
      .foot {
        padding: var(--hermes-space-xs) var(--hermes-space-sm);
      }
      .foot {
        border-top: var(--hermes-border-width) solid var(--hermes-border);
        margin-top: var(--hermes-space-xs);
      }
      @media (max-width: 639px) {
        .chip,
        [role='menuitemradio'] {
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
