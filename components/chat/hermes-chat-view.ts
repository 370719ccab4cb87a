import { LitElement, css, html, nothing } from 'lit';
import { customElement } from 'lit/decorators.js';
import { consume } from '@lit/context';
import { chatContext, uiContext } from '../state/contexts.js';
import type { ChatStore } from '../state/chat-store.js';
import type { UiStore } from '../state/ui-store.js';
import { StoreController } from '../state/store.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import './hermes-transcript.js';
import '../composer/hermes-composer.js';
import '../composer/hermes-approval-card.js';
import '../composer/hermes-clarify-card.js';

/**
 * The chat column: transcript, then the cards that need an answer (approval, clarify), then
 * the composer. An empty state greets a new chat.
 */
@customElement('hermes-chat-view')
export class HermesChatView extends LitElement {
  @consume({ context: chatContext, subscribe: true }) chat?: ChatStore;
  @consume({ context: uiContext, subscribe: true }) ui?: UiStore;
  #stores = new StoreController(this, () => [this.chat]);

  /** Whether the composer holds text that was not sent. */
  get hasDraft(): boolean {
    return !!this.renderRoot.querySelector('hermes-composer')?.hasDraft;
  }

  focusComposer(): void {
    this.renderRoot.querySelector('hermes-composer')?.focus();
  }

  override render() {
    const chat = this.chat;
    if (!chat) return nothing;
    const empty = !chat.loading && !chat.error && !chat.unreachable && chat.messages.length === 0 && !chat.live;
    return html`
      ${
        chat.error && !chat.session
          ? html`<div class="empty"><p>${chat.error}</p></div>`
          : empty
            ? html`<div class="empty">
              <h1>${this.ui?.settings?.bot_name ?? 'Hermes'}</h1>
              <p class="meta">Ask for anything in your workspace. Type <span class="mono">/</span> for commands.</p>
            </div>`
            : html`<hermes-transcript></hermes-transcript>`
      }
      <div class="dock">
        ${
          chat.cached && chat.session
            ? html`<div class="status" role="status" data-role="cached-note">Cached — the copy saved on this device; it updates when the server answers.</div>`
            : nothing
        }
        ${
          chat.unreachable
            ? html`<div class="status" role="status" data-role="unreachable-note">Offline — this conversation is not saved on this device. What you send waits here and goes to it when the server is back.</div>`
            : nothing
        }
        ${
          chat.status === 'reconnecting'
            ? html`<div class="status" role="status" data-role="reconnecting">${icons.spinner()} Connection lost — reconnecting; the turn goes on on the server…</div>`
            : nothing
        }
        ${chat.error && chat.session ? html`<div class="error" role="alert">${chat.error}</div>` : nothing}
        ${chat.approval ? html`<hermes-approval-card></hermes-approval-card>` : nothing}
        ${chat.clarify ? html`<hermes-clarify-card></hermes-clarify-card>` : nothing}
        <hermes-composer></hermes-composer>
      </div>
    `;
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        display: flex;
        flex-direction: column;
        min-height: 0;
      }
      hermes-transcript {
        flex: 1;
        min-height: 0;
      }
      .empty {
        flex: 1;
        display: grid;
        place-content: center;
        text-align: center;
        padding: var(--hermes-space-xl);
      }
      .empty h1 {
        font-family: var(--hermes-font-serif);
        font-weight: 400;
        font-size: var(--hermes-text-h1);
        margin: 0 0 var(--hermes-space-sm);
      }
      .dock {
        width: 100%;
        max-width: var(--hermes-transcript-width);
        margin: 0 auto;
        padding: 0 var(--hermes-space-lg) max(var(--hermes-space-md), env(safe-area-inset-bottom));
        display: flex;
        flex-direction: column;
        gap: var(--hermes-space-sm);
      }
      .status {
        display: flex;
        align-items: center;
        gap: var(--hermes-space-sm);
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
        padding: var(--hermes-space-xs) var(--hermes-space-sm);
      }
      .error {
        border: var(--hermes-border-width) solid var(--hermes-color-error);
        background: var(--hermes-error-bg);
        border-radius: var(--hermes-radius-md);
        padding: var(--hermes-space-sm) var(--hermes-space-md);
        font-size: var(--hermes-text-label);
      }
      @media (max-width: 639px) {
        .dock {
          padding: 0 var(--hermes-space-sm) max(var(--hermes-space-sm), env(safe-area-inset-bottom));
        }
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-chat-view': HermesChatView;
  }
}
