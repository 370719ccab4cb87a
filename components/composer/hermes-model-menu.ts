import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { withMarkup } from '../i18n/markup.js';
import { matchesWords, popoverMenuStyles } from './popover-menu.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import { emit } from '../events.js';
import type { ModelCatalogView, ModelGroupView } from './hermes-model-picker.js';

/** One selectable row of the open menu. */
interface Choice {
  id: string;
  label: string;
  /** The typed id, not in any list. */
  custom?: boolean;
  context?: number;
}

/** "131072" → "128k", "1000000" → "1M": the context window as a quiet hint. */
export function contextHint(n: number | undefined): string {
  if (!n || n <= 0) return '';
  if (n >= 1_000_000) return `${Math.round(n / 100_000) / 10}M`.replace('.0M', 'M');
  // Powers of two read in binary (131072 → 128k), round numbers in decimal (200000 → 200k).
  return `${Math.round(n % 1024 === 0 ? n / 1024 : n / 1000)}k`;
}

/**
 * The model chip's open menu, a chunk of its own that the chip loads on first use: a search box
 * over the models of every provider, grouped by provider. Typing an id that is not listed and
 * pressing Enter uses it as it is. The chip owns the open state; the menu asks it to close.
 *
 * @fires hermes-model-change - detail: { model } (a model was picked or typed)
 * @fires hermes-models-refresh - the person asked for a fresh list (the owner refetches `catalog`)
 * @fires hermes-popover-close - (not bubbling) detail: { refocus } close me
 */
@customElement('hermes-model-menu')
@localized()
export class HermesModelMenu extends LitElement {
  /** The model the chip shows: the session's, or the configured default. */
  @property() current: string | null = null;
  /** Its short name, as the chip shows it (a row when no provider lists it). */
  @property() currentLabel = '';
  /** The session's own model (picking it again changes nothing). */
  @property() value: string | null = null;
  @property({ attribute: false }) catalog: ModelCatalogView | null = null;
  @property({ type: Boolean }) refreshing = false;
  @state() query = '';
  @state() active = 0;

  /** Keeps the menu inside the viewport (the chip sits mid-bar; phones are narrow) and starts on the current model. */
  protected override firstUpdated(): void {
    const menu = this.renderRoot.querySelector<HTMLElement>('.menu');
    if (!menu) return;
    const rect = menu.getBoundingClientRect();
    const overflow = rect.right - (document.documentElement.clientWidth - 8);
    if (overflow > 0) menu.style.translate = `${-Math.min(overflow, rect.left - 8)}px`;
    const at = this.#choices().findIndex((c) => c.id === this.current);
    this.active = Math.max(0, at);
    this.renderRoot.querySelector<HTMLInputElement>('[data-role="model-search"]')?.focus();
    void this.updateComplete.then(() => this.#scrollActive());
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
      .map((group) => ({ group, models: q ? group.models.filter((m) => matchesWords(q, m.id, m.label, group.label ?? group.provider)) : group.models }))
      .filter((g) => g.models.length || (!q && g.group.error));
  }

  /** Every row Enter or a click could pick, in order: current (if unlisted), the groups, then the typed id. */
  #choices(): Choice[] {
    const q = this.query.trim();
    const current = this.current;
    const listed = this.#groups().some((g) => g.models.some((m) => m.id === current));
    const out: Choice[] = [];
    if (current && !listed && (!q || matchesWords(q, current))) out.push({ id: current, label: this.currentLabel || current });
    for (const { models } of this.#visibleGroups()) for (const m of models) out.push({ id: m.id, label: m.label, context: m.context_length });
    if (q && !out.some((c) => c.id === q)) out.push({ id: q, label: q, custom: true });
    return out;
  }

  #pick(id: string) {
    emit(this, 'hermes-popover-close', { refocus: true }, { local: true });
    if (id && id !== this.value) emit(this, 'hermes-model-change', { model: id });
  }

  #refresh() {
    if (this.refreshing) return;
    emit(this, 'hermes-models-refresh', null);
  }

  #scrollActive() {
    this.renderRoot.querySelector<HTMLElement>(`#opt-${this.active}`)?.scrollIntoView({ block: 'nearest' });
  }

  /** The arrows move the highlight; the chip forwards them while the focus is on it. */
  move(by: 1 | -1): void {
    const n = this.#choices().length;
    if (!n) return;
    this.active = (this.active + by + n) % n;
    void this.updateComplete.then(() => this.#scrollActive());
  }

  #onKeyDown(e: KeyboardEvent) {
    if (e.key === 'Escape') {
      e.stopPropagation();
      e.preventDefault();
      emit(this, 'hermes-popover-close', { refocus: true }, { local: true });
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      this.move(e.key === 'ArrowDown' ? 1 : -1);
    } else if (e.key === 'Enter' && (e.target as HTMLElement).dataset?.role === 'model-search') {
      e.preventDefault();
      const choices = this.#choices();
      const choice = choices[Math.min(this.active, choices.length - 1)];
      if (choice) this.#pick(choice.id);
    }
  }

  #onSearch(e: Event) {
    this.query = (e.target as HTMLInputElement).value;
    this.active = 0;
  }

  override render() {
    const current = this.current;
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
      <div class="menu" data-role="model-menu" @keydown=${this.#onKeyDown}>
        <div class="search">
          ${icons.search()}
          <input
            type="search"
            data-role="model-search"
            role="combobox"
            aria-label=${msg('Search models or type a model id')}
            aria-expanded="true"
            aria-controls="model-list"
            aria-autocomplete="list"
            aria-activedescendant=${choices.length ? `opt-${active}` : nothing}
            placeholder=${msg('Search, or type any model id')}
            autocomplete="off"
            spellcheck="false"
            .value=${this.query}
            @input=${this.#onSearch}
          />
          <button
            class="icon-button refresh"
            data-role="model-refresh"
            title=${msg('Ask the providers for their models again')}
            aria-label=${msg('Refresh the model list')}
            ?disabled=${this.refreshing}
            @click=${() => this.#refresh()}
          >
            ${this.refreshing ? icons.spinner() : icons.retry()}
          </button>
        </div>
        <div class="list" id="model-list" role="listbox" aria-label=${msg('Models')}>
          ${unlisted ? html`<div class="group meta" role="presentation">${msg('Current')}</div>${this.#option(unlisted, 0, active === 0, current)}` : nothing}
          ${groups.map(
            ({ group, models }) => html`<div role="group" aria-label=${group.label ?? group.provider} data-provider=${group.provider}>
              ${
                group.provider || group.label
                  ? html`<div class="group meta" data-role="model-group" role="presentation">
                    <span>${group.label ?? group.provider}</span>${group.provider && group.provider === catalog?.active_provider ? html`<span class="faint">${msg('active')}</span>` : nothing}
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
                <span class="check"></span><span class="label">${withMarkup((v) => msg(str`Use ${v}`), html`<span class="mono">${typed.id}</span>`)}</span><span class="meta">${msg('model id')}</span>
              </div>`
              : nothing
          }
        </div>
        ${
          !catalog
            ? html`<div class="empty meta">${msg('Loading models…')}</div>`
            : !choices.length && !q
              ? html`<div class="empty meta">${catalog.error ?? msg('No models listed. Type a model id above, or add a provider in Settings.')}</div>`
              : nothing
        }
        ${catalog?.stale ? html`<div class="foot meta" data-role="models-stale">${msg('This list may be out of date.')} <button class="link" @click=${() => this.#refresh()}>${msg('Refresh')}</button></div>` : nothing}
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
      ${c.id === this.catalog?.default_model ? html`<span class="meta tag">${msg('default')}</span>` : nothing}
      ${hint ? html`<span class="meta faint">${hint}</span>` : nothing}
    </div>`;
  }

  static override styles = [
    baseStyles,
    popoverMenuStyles,
    css`
      .search {
        padding: var(--hermes-space-xs) var(--hermes-space-xs) var(--hermes-space-xs) var(--hermes-space-sm);
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
    'hermes-model-menu': HermesModelMenu;
  }
}
