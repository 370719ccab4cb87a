import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized, msg } from '@lit/localize';
import { baseStyles } from '../shared/styles.js';
import { emit } from '../events.js';
import { RAIL_ENTRIES, type RailTarget } from './rail-entries.js';
import type { unseenTasks as UnseenTasks } from './tasks-unseen.js';

/**
 * The control center's navigation: a narrow vertical icon toolbar on desktop (`variant="rail"`),
 * or on phones a bottom sheet listing the same entries with their names (`variant="sheet"`).
 * A toolbar in both: one tab stop (roving tabindex), Up/Down (and Left/Right), Home/End move,
 * Enter/Space opens. The owner routes; this element only says what was chosen.
 *
 * @fires hermes-rail-select - an entry was chosen
 * @fires hermes-rail-close - (sheet, local) the scrim was clicked or Escape pressed
 */
const SHEET_COLUMNS = 3;

@customElement('hermes-rail')
@localized()
export class HermesRail extends LitElement {
  /** The entry for what the main view shows now (`aria-current="page"`). */
  @property() active: RailTarget = 'chat';
  @property({ reflect: true }) variant: 'rail' | 'sheet' = 'rail';
  /** The entry holding the tab stop; follows `active` until the keyboard moves it. */
  @state() private focusName: RailTarget | null = null;
  /** Task completions not seen yet (the Tasks entry's badge). */
  @state() private unseen = 0;
  #unseen: typeof UnseenTasks | null = null;
  #onUnseen = () => (this.unseen = this.#unseen?.jobs.size ?? 0);

  override connectedCallback() {
    super.connectedCallback();
    // Out of the first paint: the badge's counting loads after the shell.
    void import('./tasks-unseen.js').then((m) => {
      if (!this.isConnected) return;
      this.#unseen = m.unseenTasks;
      m.unseenTasks.addEventListener('change', this.#onUnseen);
      this.#onUnseen();
      m.watchUnseen();
    });
  }

  override disconnectedCallback() {
    this.#unseen?.removeEventListener('change', this.#onUnseen);
    this.#unseen = null;
    super.disconnectedCallback();
  }

  override willUpdate(changed: Map<string, unknown>) {
    if (changed.has('active')) this.focusName = null;
  }

  override firstUpdated() {
    // A sheet opens to be used: focus lands on the current entry.
    if (this.variant === 'sheet') this.#item(this.active)?.focus();
  }

  #item(name: RailTarget): HTMLButtonElement | null {
    return this.renderRoot.querySelector(`[data-role="rail-item"][data-panel="${name}"]`);
  }

  #onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && this.variant === 'sheet') {
      e.preventDefault();
      e.stopPropagation();
      emit(this, 'hermes-rail-close', null, { local: true });
      return;
    }
    const names = RAIL_ENTRIES.map((entry) => entry.name);
    const at = names.indexOf((e.target as HTMLElement).dataset.panel as RailTarget);
    if (at < 0) return;
    // The sheet is a 3-column grid: Up/Down move a row there.
    const row = this.variant === 'sheet' ? SHEET_COLUMNS : 1;
    const step: Record<string, number> = { ArrowDown: row, ArrowRight: 1, ArrowUp: -row, ArrowLeft: -1 };
    let next: number;
    if (e.key in step) next = (at + step[e.key]! + names.length) % names.length;
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = names.length - 1;
    else return;
    e.preventDefault();
    this.focusName = names[next]!;
    void this.updateComplete.then(() => this.#item(names[next]!)?.focus());
  };

  #choose(name: RailTarget) {
    emit(this, 'hermes-rail-select', { name });
  }

  override render() {
    const stop = this.focusName ?? this.active;
    const sheet = this.variant === 'sheet';
    const list = html`<div
      class="list"
      role="toolbar"
      aria-orientation=${sheet ? nothing : 'vertical'}
      aria-label=${msg('Control center')}
      data-role="rail"
      @keydown=${this.#onKeyDown}
    >
      ${RAIL_ENTRIES.map(
        (entry) => html`<button
          class="item"
          data-role="rail-item"
          data-panel=${entry.name}
          aria-label=${entry.label}
          title=${sheet ? nothing : entry.label}
          aria-current=${entry.name === this.active ? 'page' : nothing}
          tabindex=${entry.name === stop ? 0 : -1}
          ?data-last=${entry.name === 'settings'}
          @click=${() => this.#choose(entry.name)}
        >
          ${entry.icon(20)}${sheet ? html`<span class="label">${entry.label}</span>` : nothing}
          ${entry.name === 'tasks' && this.unseen ? html`<span class="badge" data-role="rail-badge" title=${msg('New task runs')}>${this.unseen > 9 ? '9+' : this.unseen}</span>` : nothing}
        </button>`,
      )}
    </div>`;
    if (!sheet) return list;
    return html`<div class="scrim" @click=${() => emit(this, 'hermes-rail-close', null, { local: true })}></div>
      <div class="sheet" role="dialog" aria-modal="true" aria-label=${msg('Panels')}>
        <div class="grip" aria-hidden="true"></div>
        ${list}
      </div>`;
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        display: block;
      }
      :host([variant='rail']) {
        width: 52px;
        height: 100%;
        background: var(--hermes-panel);
        border-right: var(--hermes-border-width) solid var(--hermes-border);
        padding: var(--hermes-space-sm) 0;
        padding-top: max(var(--hermes-space-sm), env(safe-area-inset-top));
      }
      .list {
        display: flex;
        flex-direction: column;
        align-items: center;
        gap: var(--hermes-space-xs);
        height: 100%;
      }
      .item {
        display: grid;
        place-items: center;
        width: 36px;
        height: 36px;
        padding: 0;
        color: var(--hermes-fg-muted);
        border-radius: var(--hermes-radius-md);
        position: relative;
      }
      .badge {
        position: absolute;
        top: 2px;
        right: 2px;
        min-width: 14px;
        padding: 0 3px;
        border-radius: var(--hermes-radius-pill);
        background: var(--hermes-accent);
        color: var(--hermes-on-accent);
        font-size: 10px;
        line-height: 14px;
      }
      .item:hover {
        color: var(--hermes-fg);
      }
      /* One quiet accent: the current entry's icon and a tint, no bar or glow. */
      .item[aria-current='page'] {
        color: var(--hermes-accent);
        background: var(--hermes-hover);
      }
      :host([variant='rail']) .item[data-last] {
        margin-top: auto;
      }
      .scrim {
        position: fixed;
        inset: 0;
        background: var(--hermes-scrim);
        z-index: 25;
      }
      .sheet {
        position: fixed;
        inset: auto 0 0 0;
        z-index: 26;
        background: var(--hermes-panel);
        border-top: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-lg) var(--hermes-radius-lg) 0 0;
        box-shadow: var(--hermes-shadow-popover);
        padding: var(--hermes-space-sm) var(--hermes-space-md);
        padding-bottom: max(var(--hermes-space-md), env(safe-area-inset-bottom));
      }
      .grip {
        width: 36px;
        height: 4px;
        margin: 0 auto var(--hermes-space-sm);
        border-radius: var(--hermes-radius-pill);
        background: var(--hermes-border);
      }
      :host([variant='sheet']) .list {
        display: grid;
        /* SHEET_COLUMNS */
        grid-template-columns: repeat(3, minmax(0, 1fr));
        gap: var(--hermes-space-xs);
      }
      :host([variant='sheet']) .item {
        width: auto;
        height: auto;
        min-height: 64px;
        gap: var(--hermes-space-xs);
        padding: var(--hermes-space-sm);
        font-size: var(--hermes-text-label);
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-rail': HermesRail;
  }
}
