import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import { emit } from '../events.js';

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

/** One selectable row of the open menu. */
interface Choice {
  id: string;
  label: string;
  /** The typed id, not in any list. */
  custom?: boolean;
  context?: number;
}

const shortLabel = (id: string) => /^custom:[^:]*:(.+)$/.exec(id)?.[1] ?? id;

/** "131072" → "128k", "1000000" → "1M": the context window as a quiet hint. */
export function contextHint(n: number | undefined): string {
  if (!n || n <= 0) return '';
  if (n >= 1_000_000) return `${Math.round(n / 100_000) / 10}M`.replace('.0M', 'M');
  // Powers of two read in binary (131072 → 128k), round numbers in decimal (200000 → 200k).
  return `${Math.round(n % 1024 === 0 ? n / 1024 : n / 1000)}k`;
}

/** Every typed word must appear in the id, the label or the provider's name. */
function matches(query: string, ...texts: string[]): boolean {
  const hay = texts.join(' ').toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((w) => hay.includes(w));
}

/**
 * The composer's model chip and its menu: a search box over the models of every provider,
 * grouped by provider. Typing an id that is not listed and pressing Enter uses it as it is.
 * Shows `value` (the session's model) or, without one, the configured default.
 *
 * @fires hermes-model-change - detail: { model } (a model was picked or typed)
 * @fires hermes-models-refresh - the person asked for a fresh list (the owner refetches `catalog`)
 */
@customElement('hermes-model-picker')
export class HermesModelPicker extends LitElement {
  @property() value: string | null = null;
  @property({ attribute: false }) catalog: ModelCatalogView | null = null;
  /** Set by the owner while a refresh runs. */
  @property({ type: Boolean }) refreshing = false;
  @state() open = false;
  @state() query = '';
  @state() active = 0;

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('pointerdown', this.#onOutside, true);
  }

  #toggle(open = !this.open) {
    this.open = open;
    if (open) {
      this.query = '';
      this.active = 0;
      document.addEventListener('pointerdown', this.#onOutside, true);
      void this.updateComplete.then(() => this.#placeMenu());
    } else document.removeEventListener('pointerdown', this.#onOutside, true);
  }

  /** Keeps the menu inside the viewport (the chip sits mid-bar; phones are narrow). */
  #placeMenu() {
    const menu = this.renderRoot.querySelector<HTMLElement>('.menu');
    if (!menu) return;
    const rect = menu.getBoundingClientRect();
    const overflow = rect.right - (document.documentElement.clientWidth - 8);
    if (overflow > 0) menu.style.translate = `${-Math.min(overflow, rect.left - 8)}px`;
    // Start on the current model, scrolled into view.
    const choices = this.#choices();
    const current = this.#current();
    const at = choices.findIndex((c) => c.id === current);
    this.active = Math.max(0, at);
    this.renderRoot.querySelector<HTMLInputElement>('[data-role="model-search"]')?.focus();
    void this.updateComplete.then(() => this.#scrollActive());
  }

  #onOutside = (e: Event) => {
    if (!e.composedPath().includes(this)) this.#toggle(false);
  };

  #current(): string | null {
    return this.value || this.catalog?.default_model || null;
  }

  #groups(): ModelGroupView[] {
    const catalog = this.catalog;
    if (!catalog) return [];
    if (catalog.groups?.length) return catalog.groups;
    return catalog.models.length ? [{ provider: '', models: catalog.models }] : [];
  }

  /** The groups as shown now: filtered by the search, empty groups left out unless they explain an error. */
  #visibleGroups(): Array<{ group: ModelGroupView; models: ModelGroupView['models'] }> {
    const q = this.query.trim();
    return this.#groups()
      .map((group) => ({ group, models: q ? group.models.filter((m) => matches(q, m.id, m.label, group.label ?? group.provider)) : group.models }))
      .filter((g) => g.models.length || (!q && g.group.error));
  }

  /** Every row Enter or a click could pick, in order: current (if unlisted), the groups, then the typed id. */
  #choices(): Choice[] {
    const q = this.query.trim();
    const current = this.#current();
    const listed = this.#groups().some((g) => g.models.some((m) => m.id === current));
    const out: Choice[] = [];
    if (current && !listed && (!q || matches(q, current))) out.push({ id: current, label: shortLabel(current) });
    for (const { models } of this.#visibleGroups()) for (const m of models) out.push({ id: m.id, label: m.label, context: m.context_length });
    if (q && !out.some((c) => c.id === q)) out.push({ id: q, label: q, custom: true });
    return out;
  }

  #pick(id: string) {
    this.#toggle(false);
    this.renderRoot.querySelector<HTMLButtonElement>('.chip')?.focus();
    if (id && id !== this.value) emit(this, 'hermes-model-change', { model: id });
  }

  #refresh() {
    if (this.refreshing) return;
    emit(this, 'hermes-models-refresh', null);
  }

  #scrollActive() {
    this.renderRoot.querySelector<HTMLElement>(`#opt-${this.active}`)?.scrollIntoView({ block: 'nearest' });
  }

  #onKeyDown(e: KeyboardEvent) {
    if (!this.open) return;
    if (e.key === 'Escape') {
      e.stopPropagation();
      e.preventDefault();
      this.#toggle(false);
      this.renderRoot.querySelector<HTMLButtonElement>('.chip')?.focus();
      return;
    }
    const choices = this.#choices();
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!choices.length) return;
      this.active = (this.active + (e.key === 'ArrowDown' ? 1 : -1) + choices.length) % choices.length;
      void this.updateComplete.then(() => this.#scrollActive());
    } else if (e.key === 'Enter' && (e.target as HTMLElement).dataset?.role === 'model-search') {
      e.preventDefault();
      const choice = choices[Math.min(this.active, choices.length - 1)];
      if (choice) this.#pick(choice.id);
    }
  }

  #onSearch(e: Event) {
    this.query = (e.target as HTMLInputElement).value;
    this.active = 0;
  }

  override render() {
    const current = this.#current();
    const label = current ? shortLabel(current) : 'No model';
    return html`
      <div class="wrap" @keydown=${this.#onKeyDown}>
        <button class="chip" data-role="model-picker" aria-haspopup="listbox" aria-expanded=${this.open} title=${current ? `Model: ${current}` : 'No model configured'} @click=${() => this.#toggle()}>
          <span class="label">${label}</span>
          <span class="caret">${icons.chevron()}</span>
        </button>
        ${this.open ? this.#menu(current) : nothing}
      </div>
    `;
  }

  #menu(current: string | null) {
    const catalog = this.catalog;
    const choices = this.#choices();
    const active = Math.min(this.active, Math.max(0, choices.length - 1));
    const index = new Map(choices.map((c, i) => [c.custom ? `\u0000${c.id}` : c.id, i]));
    const q = this.query.trim();
    const unlisted =
      choices[0] && !choices[0].custom && current === choices[0].id && !this.#groups().some((g) => g.models.some((m) => m.id === current)) ? choices[0] : null;
    const typed = choices.find((c) => c.custom);
    const groups = this.#visibleGroups();
    return html`
      <div class="menu" data-role="model-menu">
        <div class="search">
          ${icons.search()}
          <input
            type="search"
            data-role="model-search"
            role="combobox"
            aria-label="Search models or type a model id"
            aria-expanded="true"
            aria-controls="model-list"
            aria-autocomplete="list"
            aria-activedescendant=${choices.length ? `opt-${active}` : nothing}
            placeholder="Search, or type any model id"
            autocomplete="off"
            spellcheck="false"
            .value=${this.query}
            @input=${this.#onSearch}
          />
          <button
            class="icon-button refresh"
            data-role="model-refresh"
            title="Ask the providers for their models again"
            aria-label="Refresh the model list"
            ?disabled=${this.refreshing}
            @click=${() => this.#refresh()}
          >
            ${this.refreshing ? icons.spinner() : icons.retry()}
          </button>
        </div>
        <div class="list" id="model-list" role="listbox" aria-label="Models">
          ${unlisted ? html`<div class="group meta" role="presentation">Current</div>${this.#option(unlisted, 0, active === 0, current)}` : nothing}
          ${groups.map(
            ({ group, models }) => html`<div role="group" aria-label=${group.label ?? group.provider} data-provider=${group.provider}>
              ${
                group.provider || group.label
                  ? html`<div class="group meta" data-role="model-group" role="presentation">
                    <span>${group.label ?? group.provider}</span>${group.provider && group.provider === catalog?.active_provider ? html`<span class="faint">active</span>` : nothing}
                  </div>`
                  : nothing
              }
              ${group.error && !q ? html`<div class="group-error meta" data-role="model-group-error">${group.error}</div>` : nothing}
              ${models.map((m) => {
                const i = index.get(m.id) ?? -1;
                return this.#option({ id: m.id, label: m.label, context: m.context_length }, i, i === active, current);
              })}
            </div>`,
          )}
          ${
            typed
              ? html`<div
                class="option typed"
                id=${`opt-${index.get(`\u0000${typed.id}`)}`}
                role="option"
                data-role="model-custom"
                data-typed=${typed.id}
                aria-selected=${index.get(`\u0000${typed.id}`) === active}
                ?data-active=${index.get(`\u0000${typed.id}`) === active}
                @click=${() => this.#pick(typed.id)}
              >
                <span class="check"></span><span class="label">Use <span class="mono">${typed.id}</span></span><span class="meta">model id</span>
              </div>`
              : nothing
          }
        </div>
        ${
          !catalog
            ? html`<div class="empty meta">Loading models…</div>`
            : !choices.length && !q
              ? html`<div class="empty meta">${catalog.error ?? 'No models listed. Type a model id above, or add a provider in Settings.'}</div>`
              : nothing
        }
        ${catalog?.stale ? html`<div class="foot meta" data-role="models-stale">This list may be out of date. <button class="link" @click=${() => this.#refresh()}>Refresh</button></div>` : nothing}
      </div>
    `;
  }

  #option(c: Choice, i: number, isActive: boolean, current: string | null) {
    const on = c.id === current;
    const hint = contextHint(c.context);
    return html`<div
      class="option"
      id=${`opt-${i}`}
      role="option"
      aria-selected=${isActive}
      aria-current=${on ? 'true' : nothing}
      ?data-active=${isActive}
      ?data-current=${on}
      data-model=${c.id}
      title=${c.id}
      @click=${() => this.#pick(c.id)}
      @pointermove=${() => i !== this.active && ((this.active = i))}
    >
      <span class="check">${on ? icons.check() : nothing}</span><span class="label">${c.label}</span>
      ${c.id === this.catalog?.default_model ? html`<span class="meta tag">default</span>` : nothing}
      ${hint ? html`<span class="meta faint">${hint}</span>` : nothing}
    </div>`;
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
        display: flex;
        flex-direction: column;
        width: min(var(--hermes-panel-width), calc(100vw - 2 * var(--hermes-space-lg)));
        max-height: min(60vh, 460px);
        background: var(--hermes-panel);
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-md);
        box-shadow: var(--hermes-shadow-popover);
        overflow: hidden;
      }
      .search {
        display: flex;
        align-items: center;
        gap: var(--hermes-space-xs);
        padding: var(--hermes-space-xs) var(--hermes-space-xs) var(--hermes-space-xs) var(--hermes-space-sm);
        border-bottom: var(--hermes-border-width) solid var(--hermes-border);
        color: var(--hermes-fg-muted);
      }
      .search input {
        flex: 1;
        min-width: 0;
        border: 0;
        background: transparent;
        padding: var(--hermes-space-xs) 0;
        font-size: var(--hermes-text-label);
        outline: none;
      }
      .search input::-webkit-search-cancel-button {
        appearance: none;
      }
      .refresh {
        color: var(--hermes-fg-muted);
      }
      .list {
        flex: 1;
        min-height: 0;
        overflow-y: auto;
        padding: var(--hermes-space-xs);
      }
      .group {
        display: flex;
        gap: var(--hermes-space-sm);
        align-items: baseline;
        padding: var(--hermes-space-sm) var(--hermes-space-sm) var(--hermes-space-xs);
      }
      .group-error {
        padding: 0 var(--hermes-space-sm) var(--hermes-space-xs) 28px;
        color: var(--hermes-color-warning);
      }
      .faint {
        color: var(--hermes-fg-faint);
      }
      .option {
        display: flex;
        align-items: center;
        gap: var(--hermes-space-xs);
        width: 100%;
        min-height: 30px;
        padding: var(--hermes-space-xs) var(--hermes-space-sm);
        font-size: var(--hermes-text-label);
        border-radius: var(--hermes-radius-sm);
        cursor: pointer;
      }
      .option .label {
        flex: 1;
        min-width: 0;
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
      }
      .option[data-active] {
        background: var(--hermes-hover);
      }
      .option[data-current] {
        background: var(--hermes-selected);
      }
      .option.typed {
        border-top: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: 0 0 var(--hermes-radius-sm) var(--hermes-radius-sm);
        margin-top: var(--hermes-space-xs);
      }
      .check {
        display: inline-grid;
        width: 16px;
        flex: none;
      }
      .empty,
      .foot {
        padding: var(--hermes-space-sm);
      }
      .foot {
        border-top: var(--hermes-border-width) solid var(--hermes-border);
      }
      button.link {
        padding: 0;
        border: 0;
        color: var(--hermes-accent);
        font-size: inherit;
        text-decoration: underline;
      }
      button.link:hover {
        background: transparent;
      }
      @media (max-width: 639px) {
        .chip,
        .option {
          min-height: var(--hermes-touch-target);
        }
        .search input {
          font-size: 16px; /* no zoom-on-focus on iOS */
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
