import { LitElement, css, html, nothing } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import type { Project } from '../api/client.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';

const GAP = 4;
const MARGIN = 8;

/**
 * A project chip's menu (right-click, or the active chip's ⋯): one row, "Project settings…",
 * floating at the pointer or below the chip and kept inside the viewport. Closes on an outside
 * click and on Escape.
 */
@customElement('hermes-project-menu')
@localized()
export class HermesProjectMenu extends LitElement {
  @property({ attribute: false }) project!: Project;
  /** The pointer (right-click) or the button's box, in viewport coordinates. */
  @property({ attribute: false }) anchor: { x: number; y: number } = { x: 0, y: 0 };
  @property({ attribute: false }) onPick: (action: 'settings') => void = () => {};
  @property({ attribute: false }) onClose: (restoreFocus: boolean) => void = () => {};

  override connectedCallback(): void {
    super.connectedCallback();
    // Registered after the click that opened the menu has finished bubbling.
    setTimeout(() => document.addEventListener('click', this.#onDocClick));
    document.addEventListener('keydown', this.#onDocKey);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    document.removeEventListener('click', this.#onDocClick);
    document.removeEventListener('keydown', this.#onDocKey);
  }

  override updated(): void {
    const { offsetWidth: w, offsetHeight: h } = this;
    const left = Math.max(MARGIN, Math.min(this.anchor.x, innerWidth - w - MARGIN));
    let top = this.anchor.y + GAP;
    if (top + h > innerHeight - MARGIN) top = Math.max(MARGIN, this.anchor.y - h - GAP);
    this.style.left = `${left}px`;
    this.style.top = `${top}px`;
    this.renderRoot.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }

  #onDocClick = (e: MouseEvent) => {
    if (!e.composedPath().includes(this)) this.onClose(false);
  };

  #onDocKey = (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    e.stopPropagation();
    this.onClose(true);
  };

  override render() {
    if (!this.project) return nothing;
    return html`<div class="menu" role="menu" data-role="project-menu" aria-label=${msg(str`Options for ${this.project.name}`)}>
      <button role="menuitem" data-action="project-settings" @click=${() => this.onPick('settings')}>${icons.edit()}${msg('Project settings…')}</button>
    </div>`;
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        position: fixed;
        z-index: 40;
        width: min(220px, calc(100vw - 16px));
      }
      .menu {
        display: flex;
        flex-direction: column;
        padding: var(--hermes-space-xs);
        background: var(--hermes-panel);
        color: var(--hermes-fg);
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-md);
        box-shadow: var(--hermes-shadow-popover);
      }
      [role='menuitem'] {
        display: flex;
        align-items: center;
        gap: var(--hermes-space-sm);
        min-height: 32px;
        padding: var(--hermes-space-xs) var(--hermes-space-sm);
        border-radius: var(--hermes-radius-sm);
        text-align: start;
        white-space: nowrap;
      }
      [role='menuitem']:focus-visible {
        background: var(--hermes-hover);
      }
      [role='menuitem'] svg {
        flex: none;
        color: var(--hermes-fg-muted);
      }
      @media (max-width: 639px) {
        [role='menuitem'] {
          min-height: var(--hermes-touch-target);
        }
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-project-menu': HermesProjectMenu;
  }
}
