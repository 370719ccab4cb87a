import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import { MESSAGE_MODES, modeLabel, type MessageMode } from './busy-input.js';

/**
 * The small menu on the Send button while a turn runs: what Send does with this message
 * (steer, queue, interrupt). `pick` is called with the choice; the composer keeps it for one
 * message, then falls back to the `default_message_mode` setting.
 */
@customElement('hermes-send-mode')
@localized()
export class HermesSendMode extends LitElement {
  @property({ attribute: false }) mode: MessageMode = 'steer';
  @property({ attribute: false }) pick: ((mode: MessageMode) => void) | null = null;
  @state() private open = false;

  async #toggle() {
    this.open = !this.open;
    if (!this.open) return;
    await this.updateComplete;
    this.renderRoot.querySelector<HTMLButtonElement>('[role="menuitemradio"][aria-checked="true"]')?.focus();
  }

  #choose(mode: MessageMode) {
    this.open = false;
    this.pick?.(mode);
    this.renderRoot.querySelector<HTMLButtonElement>('[data-role="send-mode"]')?.focus();
  }

  #onKey = (e: KeyboardEvent) => {
    if (!this.open) return;
    if (e.key === 'Escape') {
      e.stopPropagation();
      this.open = false;
      this.renderRoot.querySelector<HTMLButtonElement>('[data-role="send-mode"]')?.focus();
      return;
    }
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const options = [...this.renderRoot.querySelectorAll<HTMLButtonElement>('[role="menuitemradio"]')];
    const at = options.indexOf(this.shadowRoot?.activeElement as HTMLButtonElement);
    options[(at + (e.key === 'ArrowDown' ? 1 : -1) + options.length) % options.length]?.focus();
  };

  #onFocusOut = (e: FocusEvent) => {
    if (!this.renderRoot.contains(e.relatedTarget as Node | null)) this.open = false;
  };

  override render() {
    return html`<span class="wrap" @keydown=${this.#onKey} @focusout=${this.#onFocusOut}>
      <button
        class="toggle"
        data-role="send-mode"
        data-mode=${this.mode}
        title=${modeLabel(this.mode).title}
        aria-label=${msg(str`Send mode: ${modeLabel(this.mode).label}`)}
        aria-haspopup="menu"
        aria-expanded=${this.open}
        @click=${() => void this.#toggle()}
      >
        <span class="label">${modeLabel(this.mode).label}</span><span class="caret" aria-hidden="true">${icons.chevron()}</span>
      </button>
      ${
        this.open
          ? html`<div class="menu" role="menu" aria-label=${msg('Send mode for this message')}>
            ${MESSAGE_MODES.map(
              (
                m,
              ) => html`<button role="menuitemradio" data-role="send-mode-option" data-mode=${m} aria-checked=${m === this.mode} @click=${() => this.#choose(m)}>
                <span class="name">${modeLabel(m).label}</span><span class="hint">${modeLabel(m).hint}</span>
              </button>`,
            )}
          </div>`
          : nothing
      }
    </span>`;
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        display: inline-flex;
      }
      .wrap {
        position: relative;
        display: inline-flex;
      }
      .toggle {
        display: inline-flex;
        align-items: center;
        gap: 2px;
        min-height: 32px;
        padding: 0 var(--hermes-space-xs);
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
        border-radius: var(--hermes-radius-md);
      }
      .toggle[aria-expanded='true'] {
        color: var(--hermes-fg);
      }
      .caret {
        display: inline-grid;
        transform: rotate(-90deg);
      }
      .menu {
        position: absolute;
        bottom: calc(100% + var(--hermes-space-xs));
        right: 0;
        z-index: 5;
        display: flex;
        flex-direction: column;
        min-width: 28ch;
        padding: var(--hermes-space-xs);
        background: var(--hermes-panel);
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-md);
        box-shadow: var(--hermes-shadow-popover);
      }
      .menu button {
        display: flex;
        flex-direction: column;
        align-items: flex-start;
        text-align: left;
        padding: var(--hermes-space-xs) var(--hermes-space-sm);
        border-radius: var(--hermes-radius-sm);
        color: var(--hermes-fg-muted);
      }
      .menu button:hover,
      .menu button:focus-visible {
        color: var(--hermes-fg);
        background: var(--hermes-hover);
      }
      .menu button[aria-checked='true'] .name {
        color: var(--hermes-fg);
        font-weight: 600;
      }
      .name {
        font-size: var(--hermes-text-label);
      }
      .hint {
        font-size: var(--hermes-text-meta);
        color: var(--hermes-fg-faint);
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-send-mode': HermesSendMode;
  }
}
