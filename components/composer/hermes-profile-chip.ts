import { LitElement, css, html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { localized, msg } from '@lit/localize';
import { consume } from '@lit/context';
import { uiContext } from '../state/contexts.js';
import type { UiStore } from '../state/ui-store.js';
import { profileStore } from '../state/profile-store.js';
import { StoreController } from '../state/store.js';
import { baseStyles } from '../shared/styles.js';

/**
 * The composer's profile chip: this browser's Hermes profile, and a menu to switch to another
 * (the sidebar, models and workspaces follow). Hidden while `default` is the only profile.
 */
@customElement('hermes-profile-chip')
@localized()
export class HermesProfileChip extends LitElement {
  @consume({ context: uiContext, subscribe: true }) ui?: UiStore;
  #store = new StoreController(this, () => [profileStore]);
  @state() private open = false;
  @state() private switching = false;

  override connectedCallback(): void {
    super.connectedCallback();
    void profileStore.ensure();
  }

  async #pick(name: string): Promise<void> {
    this.open = false;
    this.switching = true;
    try {
      await profileStore.switchTo(name);
    } catch (err) {
      this.ui?.notify((err as Error).message, 'error');
    } finally {
      this.switching = false;
    }
  }

  #onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && this.open) {
      e.stopPropagation();
      this.open = false;
    }
  };

  #onFocusOut = (e: FocusEvent) => {
    if (!this.renderRoot.contains(e.relatedTarget as Node | null)) this.open = false;
  };

  override render() {
    const s = profileStore;
    if (!s.several) return nothing;
    return html`<span class="wrap" @keydown=${this.#onKey} @focusout=${this.#onFocusOut}>
      <button
        class="chip"
        data-role="profile-chip"
        data-profile=${s.active}
        title=${msg('Hermes profile: its config, keys, memory and skills')}
        aria-haspopup="menu"
        aria-expanded=${this.open}
        ?disabled=${this.switching}
        @click=${() => (this.open = !this.open)}
      >
        <span class="glyph" aria-hidden="true">◉</span><span class="label">${s.active}</span>
      </button>
      ${
        this.open
          ? html`<div class="menu" role="menu" data-role="profile-menu">
            ${s.rows.map(
              (p) =>
                html`<button role="menuitemradio" aria-checked=${p.name === s.active} data-role="profile-option" data-profile=${p.name} @click=${() => void this.#pick(p.name)}>
                  <span>${p.name}</span>${p.model ? html`<span class="meta">${p.model}</span>` : nothing}
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
        min-width: 0;
      }
      .wrap {
        position: relative;
        display: inline-flex;
        min-width: 0;
      }
      .chip {
        display: inline-flex;
        align-items: center;
        gap: var(--hermes-space-xs);
        min-height: 32px;
        min-width: 0;
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
        white-space: nowrap;
      }
      .label {
        max-width: 12ch;
        overflow: hidden;
        text-overflow: ellipsis;
      }
      .chip[aria-expanded='true'] {
        color: var(--hermes-fg);
      }
      .glyph {
        font-size: var(--hermes-text-meta);
        color: var(--hermes-fg-faint);
      }
      .menu {
        position: absolute;
        bottom: calc(100% + var(--hermes-space-xs));
        left: 0;
        z-index: 2;
        display: flex;
        flex-direction: column;
        min-width: 16ch;
        max-height: 50vh;
        overflow-y: auto;
        padding: var(--hermes-space-xs);
        background: var(--hermes-panel);
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-md);
        box-shadow: var(--hermes-shadow-popover);
      }
      .menu button {
        display: flex;
        justify-content: space-between;
        gap: var(--hermes-space-md);
        text-align: left;
        padding: var(--hermes-space-xs) var(--hermes-space-sm);
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
        border-radius: var(--hermes-radius-sm);
        white-space: nowrap;
      }
      .menu button:hover,
      .menu button:focus-visible {
        color: var(--hermes-fg);
        background: var(--hermes-hover);
      }
      .menu button[aria-checked='true'] {
        color: var(--hermes-fg);
        font-weight: 600;
      }
      .meta {
        color: var(--hermes-fg-faint);
        font-weight: 400;
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-profile-chip': HermesProfileChip;
  }
}
