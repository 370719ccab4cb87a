import { LitElement, css, html, nothing } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { formatNumber } from '../i18n/format.js';
import { repeat } from 'lit/directives/repeat.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import type { QueuedMessage } from '../state/message-queue.js';

/** What the chips change (BusyInput does it on the open session's queue). */
export interface QueueActions {
  edit(id: number, text: string): void;
  remove(id: number): void;
  move(id: number, to: number): void;
}

const preview = (text: string) => (text.length > 80 ? `${text.slice(0, 80)}…` : text);

/**
 * The queued messages above the composer, in sending order: each can be edited (click its text;
 * Enter or leaving the field saves, Escape cancels), removed, and moved (drag, or the up/down
 * buttons, which the keyboard reaches).
 */
@customElement('hermes-queue-chips')
@localized()
export class HermesQueueChips extends LitElement {
  @property({ attribute: false }) items: QueuedMessage[] = [];
  @property({ attribute: false }) actions: QueueActions | null = null;
  @state() private editing: number | null = null;
  @state() private dragging: number | null = null;

  async #startEdit(id: number) {
    this.editing = id;
    await this.updateComplete;
    const field = this.renderRoot.querySelector<HTMLTextAreaElement>('[data-role="queued-edit-input"]');
    field?.focus();
    field?.select();
  }

  #finishEdit(id: number, field: HTMLTextAreaElement, save: boolean) {
    if (this.editing !== id) return;
    this.editing = null;
    if (save && field.value !== this.items.find((i) => i._queued_at === id)?.text) this.actions?.edit(id, field.value);
  }

  #onEditKey(e: KeyboardEvent, id: number) {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      this.#finishEdit(id, e.target as HTMLTextAreaElement, true);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      this.#finishEdit(id, e.target as HTMLTextAreaElement, false);
    }
  }

  #onDrop(e: DragEvent, to: number) {
    e.preventDefault();
    const id = this.dragging;
    this.dragging = null;
    if (id !== null) this.actions?.move(id, to);
  }

  override render() {
    if (!this.items.length) return nothing;
    const last = this.items.length - 1;
    return html`<ol class="queue" aria-label=${msg('Queued messages')}>
      ${repeat(
        this.items,
        (m) => m._queued_at,
        (m, i) => html`<li
          class="chip"
          data-role="queued-message"
          data-index=${i}
          draggable=${this.editing === m._queued_at ? 'false' : 'true'}
          ?data-dragging=${this.dragging === m._queued_at}
          @dragstart=${(e: DragEvent) => {
            this.dragging = m._queued_at;
            e.dataTransfer?.setData('text/plain', m.text);
            if (e.dataTransfer) e.dataTransfer.effectAllowed = 'move';
          }}
          @dragend=${() => (this.dragging = null)}
          @dragover=${(e: DragEvent) => this.dragging !== null && e.preventDefault()}
          @drop=${(e: DragEvent) => this.#onDrop(e, i)}
        >
          <span class="order" aria-hidden="true">${formatNumber(i + 1)}</span>
          ${
            this.editing === m._queued_at
              ? html`<textarea
                  data-role="queued-edit-input"
                  rows="1"
                  aria-label=${msg(str`Edit queued message ${formatNumber(i + 1)}`)}
                  .value=${m.text}
                  @keydown=${(e: KeyboardEvent) => this.#onEditKey(e, m._queued_at)}
                  @blur=${(e: FocusEvent) => this.#finishEdit(m._queued_at, e.target as HTMLTextAreaElement, true)}
                ></textarea>`
              : html`<button class="text" data-role="queued-edit" title=${msg(str`Edit: ${m.text}`)} @click=${() => void this.#startEdit(m._queued_at)}>
                  ${preview(m.text)}${m.files.length ? html`<span class="files"> · ${m.files.length > 1 ? msg(str`${formatNumber(m.files.length)} files`) : msg('1 file')}</span>` : nothing}
                </button>`
          }
          <button class="icon" data-role="queued-up" aria-label=${msg(str`Move queued message ${formatNumber(i + 1)} up`)} title=${msg('Move up')} ?disabled=${i === 0} @click=${() => this.actions?.move(m._queued_at, i - 1)}>
            <span class="up">${icons.chevron()}</span>
          </button>
          <button class="icon" data-role="queued-down" aria-label=${msg(str`Move queued message ${formatNumber(i + 1)} down`)} title=${msg('Move down')} ?disabled=${i === last} @click=${() => this.actions?.move(m._queued_at, i + 1)}>
            <span class="down">${icons.chevron()}</span>
          </button>
          <button class="icon" data-role="queued-remove" aria-label=${msg(str`Remove queued message ${formatNumber(i + 1)}`)} title=${msg('Remove')} @click=${() => this.actions?.remove(m._queued_at)}>${icons.close()}</button>
        </li>`,
      )}
    </ol>`;
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        display: block;
      }
      .queue {
        list-style: none;
        margin: 0;
        padding: 0 var(--hermes-space-xs);
        display: flex;
        flex-direction: column;
        gap: var(--hermes-space-xs);
      }
      .chip {
        display: flex;
        align-items: center;
        gap: var(--hermes-space-xs);
        min-height: 32px;
        padding: 0 var(--hermes-space-xs);
        border: var(--hermes-border-width) dashed var(--hermes-border);
        border-radius: var(--hermes-radius-md);
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
        background: var(--hermes-panel);
      }
      .chip[data-dragging] {
        opacity: 0.5;
      }
      .order {
        flex: none;
        min-width: 2ch;
        text-align: center;
        font-size: var(--hermes-text-meta);
        color: var(--hermes-fg-faint);
      }
      .text {
        flex: 1 1 auto;
        min-width: 0;
        text-align: left;
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
        color: var(--hermes-fg);
        padding: var(--hermes-space-xs);
        border-radius: var(--hermes-radius-sm);
      }
      .files {
        color: var(--hermes-fg-faint);
      }
      textarea {
        flex: 1 1 auto;
        min-width: 0;
        resize: vertical;
        font: inherit;
        color: var(--hermes-fg);
        background: transparent;
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-sm);
        padding: var(--hermes-space-xs);
      }
      .icon {
        flex: none;
        display: inline-grid;
        place-items: center;
        width: 28px;
        height: 28px;
        border-radius: var(--hermes-radius-sm);
        color: var(--hermes-fg-muted);
      }
      .icon:disabled {
        opacity: 0.35;
      }
      .icon:hover:not(:disabled),
      .text:hover {
        background: var(--hermes-hover);
      }
      .up,
      .down {
        display: inline-grid;
      }
      .up {
        transform: rotate(-90deg);
      }
      .down {
        transform: rotate(90deg);
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-queue-chips': HermesQueueChips;
  }
}
