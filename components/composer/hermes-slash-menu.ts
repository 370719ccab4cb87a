import { LitElement, css, html } from 'lit';
import { customElement, property } from 'lit/decorators.js';
import { localized, msg } from '@lit/localize';
import { baseStyles } from '../shared/styles.js';
import type { SlashItem } from './slash-commands.js';
import { emit } from '../events.js';

/**
 * The slash-command autocomplete list. Keyboard focus stays in the composer's textarea, which
 * moves `active`; this element only draws the rows and reports clicks.
 *
 * @fires hermes-slash-pick - detail: { index } (a row was clicked)
 */
@customElement('hermes-slash-menu')
@localized()
export class HermesSlashMenu extends LitElement {
  @property({ attribute: false }) items: SlashItem[] = [];
  @property({ type: Number }) active = 0;

  override updated(): void {
    this.renderRoot.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }

  override render() {
    return html`
      <ul role="listbox" aria-label=${msg('Commands')} data-role="slash-menu">
        ${this.items.map(
          (item, i) => html`
            <li
              role="option"
              data-role="slash-item"
              data-value=${item.label}
              aria-selected=${i === this.active ? 'true' : 'false'}
              @mousedown=${(e: Event) => e.preventDefault()}
              @click=${() => emit(this, 'hermes-slash-pick', { index: i })}
            >
              <span class="label mono">${item.label}</span>
              ${item.hint ? html`<span class="hint mono">${item.hint}</span>` : ''}
              <span class="description">${item.description}</span>
            </li>
          `,
        )}
      </ul>
    `;
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        display: block;
      }
      ul {
        list-style: none;
        margin: 0;
        padding: var(--hermes-space-xs);
        max-height: 40vh;
        overflow-y: auto;
        background: var(--hermes-panel);
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-md);
        box-shadow: var(--hermes-shadow-popover);
      }
      li {
        display: flex;
        align-items: baseline;
        gap: var(--hermes-space-sm);
        padding: var(--hermes-space-xs) var(--hermes-space-sm);
        border-radius: var(--hermes-radius-sm);
        cursor: pointer;
        min-width: 0;
      }
      li:hover {
        background: var(--hermes-hover);
      }
      li[aria-selected='true'] {
        background: var(--hermes-selected);
      }
      .label {
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg);
        flex: none;
      }
      .hint {
        font-size: var(--hermes-text-meta);
        color: var(--hermes-fg-faint);
        flex: none;
      }
      .description {
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
        margin-left: auto;
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
        min-width: 0;
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-slash-menu': HermesSlashMenu;
  }
}
