import { LitElement, css, html, nothing } from 'lit';
import { customElement } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { consume } from '@lit/context';
import { chatContext } from '../state/contexts.js';
import type { ChatStore } from '../state/chat-store.js';
import { StoreController } from '../state/store.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import { formatNumber } from '../i18n/format.js';

type Choice = 'once' | 'session' | 'always' | 'deny';

// Labels are read when shown, so a language switch re-renders them.
const BUTTONS: Array<{ choice: Choice; label: () => string; className: string }> = [
  { choice: 'once', label: () => msg('Allow once'), className: 'primary' },
  { choice: 'session', label: () => msg('Allow for session'), className: 'outline' },
  { choice: 'always', label: () => msg('Always'), className: 'outline' },
  { choice: 'deny', label: () => msg('Deny'), className: 'outline danger' },
];

/**
 * A command or a file edit waiting for permission (above the composer). It takes focus when it
 * appears so Enter allows once; the other buttons are a Tab away. A file edit shows its path and
 * the diff it would make instead of the command (the diff view loads only then).
 */
@customElement('hermes-approval-card')
@localized()
export class HermesApprovalCard extends LitElement {
  @consume({ context: chatContext, subscribe: true }) chat?: ChatStore;
  #stores = new StoreController(this, () => [this.chat]);
  /** The approval that already took focus, so a re-render does not steal it back. */
  #focusedFor: string | null = null;

  override willUpdate(): void {
    if (this.chat?.approval?.diff !== undefined) void import('../diff/hermes-diff-view.js');
  }

  override updated(): void {
    const id = this.chat?.approval?.approval_id ?? null;
    if (id && id !== this.#focusedFor) {
      this.#focusedFor = id;
      this.renderRoot.querySelector<HTMLButtonElement>('[data-choice="once"]')?.focus();
    }
  }

  #answer(choice: Choice) {
    void this.chat?.answerApproval(choice);
  }

  #onKeyDown(e: KeyboardEvent) {
    // On a button Enter presses that button; anywhere else in the card it means "Allow once".
    if (e.key !== 'Enter' || e.isComposing || (e.composedPath()[0] as HTMLElement).tagName === 'BUTTON') return;
    e.preventDefault();
    this.#answer('once');
  }

  override render() {
    const a = this.chat?.approval;
    if (!a) return nothing;
    const offered = a.choices?.length ? BUTTONS.filter((b) => a.choices.includes(b.choice)) : BUTTONS;
    return html`
      <section class="card" data-role="approval-card" tabindex="-1" role="alertdialog" aria-labelledby="title" aria-describedby="desc" @keydown=${this.#onKeyDown}>
        <header>
          <span class="icon">${icons.alert()}</span>
          <h2 id="title">${msg('Approval needed')}</h2>
          ${a.pending_count > 1 ? html`<span class="count meta" data-role="approval-count">${msg(str`1 of ${formatNumber(a.pending_count)}`)}</span>` : nothing}
        </header>
        ${a.description ? html`<p id="desc" class="desc">${a.description}</p>` : nothing}
        ${
          a.diff !== undefined
            ? html`<div class="path mono" data-role="approval-path">${a.path ?? a.command}</div>
                <div class="diff" data-role="approval-diff" tabindex="0" aria-label=${msg('Proposed change')}>
                  <hermes-diff-view .diff=${a.diff} empty=${msg('The file would stay as it is')}></hermes-diff-view>
                </div>`
            : html`<pre class="command mono" data-role="approval-command" tabindex="0" aria-label=${msg('Command')}>${a.command}</pre>`
        }
        <div class="actions">
          ${offered.map((b) => html`<button class=${b.className} data-choice=${b.choice} @click=${() => this.#answer(b.choice)}>${b.label()}</button>`)}
        </div>
      </section>
    `;
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        display: block;
      }
      .card {
        display: flex;
        flex-direction: column;
        gap: var(--hermes-space-sm);
        padding: var(--hermes-space-md);
        border: var(--hermes-border-width) solid var(--hermes-color-warning);
        border-radius: var(--hermes-radius-lg);
        background: var(--hermes-warning-bg);
      }
      .card:focus {
        outline: none;
      }
      header {
        display: flex;
        align-items: center;
        gap: var(--hermes-space-sm);
      }
      .icon {
        display: inline-grid;
        color: var(--hermes-color-warning);
      }
      h2 {
        margin: 0;
        font-size: var(--hermes-text-body);
        font-weight: 600;
      }
      .count {
        margin-left: auto;
        font-variant-numeric: tabular-nums;
      }
      .desc {
        margin: 0;
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
      }
      .command {
        margin: 0;
        padding: var(--hermes-space-sm);
        max-height: 30vh;
        overflow: auto;
        white-space: pre-wrap;
        overflow-wrap: anywhere;
        font-size: var(--hermes-text-label);
        background: var(--hermes-code-bg);
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-md);
      }
      .path {
        font-size: var(--hermes-text-label);
        overflow-wrap: anywhere;
      }
      /* A long diff scrolls here (focusable, so arrow keys scroll it) and the buttons stay in reach. */
      .diff {
        max-height: 40vh;
        overflow-y: auto;
        border-radius: var(--hermes-radius-md);
        --hermes-diff-max-height: none;
      }
      .actions {
        display: flex;
        flex-wrap: wrap;
        gap: var(--hermes-space-sm);
      }
      .actions button {
        font-size: var(--hermes-text-label);
        padding: var(--hermes-space-xs) var(--hermes-space-md);
        min-height: 32px;
      }
      @media (max-width: 639px) {
        .actions button {
          flex: 1 1 auto;
          min-height: var(--hermes-touch-target);
        }
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-approval-card': HermesApprovalCard;
  }
}
