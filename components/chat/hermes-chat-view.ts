import { LitElement, css, html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { consume } from '@lit/context';
import { localized, msg, str } from '@lit/localize';
import { withMarkup } from '../i18n/markup.js';
import { chatContext, uiContext } from '../state/contexts.js';
import type { ChatStore } from '../state/chat-store.js';
import type { UiStore } from '../state/ui-store.js';
import { StoreController } from '../state/store.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import { emit } from '../events.js';
import './hermes-transcript.js';
import '../composer/hermes-composer.js';

/**
 * The approval and clarify cards are out of the first paint: fetched once the page is idle, and
 * at the latest when one is needed (a card asked for before then shows as soon as its chunk runs).
 */
const loadCards = () => Promise.all([import('../composer/hermes-approval-card.js'), import('../composer/hermes-clarify-card.js')]);
let cardsRequested = false;
function requestCards(): void {
  if (cardsRequested) return;
  cardsRequested = true;
  void loadCards();
}
if (typeof requestIdleCallback === 'function') requestIdleCallback(requestCards, { timeout: 3000 });
else setTimeout(requestCards, 1000);
import { TurnAlerts } from './turn-alerts.js';
import { TurnAnnouncer } from './turn-announcer.js';

/** xterm.js and the panel: a chunk of their own, fetched the first time a terminal opens. */
const loadTerminal = () => import('../terminal/hermes-terminal-panel.js');

/** The empty chat's starters (the incumbent's three); `hide_empty_state_suggestions` hides them. */
const suggestions = () => [
  msg('What files are in this workspace?'),
  msg('Summarise what changed in this project recently.'),
  msg('Help me plan a small project.'),
];

/**
 * The chat column: transcript, then the cards that need an answer (approval, clarify), then
 * the composer. An empty state greets a new chat. With the `rtl` setting the messages and the
 * composer read right to left (as the incumbent: the chat only, not the app around it).
 */
@customElement('hermes-chat-view')
@localized()
export class HermesChatView extends LitElement {
  @consume({ context: chatContext, subscribe: true }) chat?: ChatStore;
  @consume({ context: uiContext, subscribe: true }) ui?: UiStore;
  #stores = new StoreController(this, () => [this.chat, this.ui]);
  /** The session whose terminal is docked (another session's is not shown; its shell lives on). */
  @state() terminalFor: string | null = null;

  constructor() {
    super();
    this.addEventListener('hermes-terminal-open', () => {
      const sid = this.chat?.sessionId;
      if (!sid) return;
      void loadTerminal();
      this.terminalFor = sid;
    });
  }
  #alerts = new TurnAlerts(
    this,
    () => this.chat,
    () => this.ui,
  );
  #announcer = new TurnAnnouncer(this, () => this.chat);

  /** Whether the composer holds text that was not sent. */
  get hasDraft(): boolean {
    return !!this.renderRoot.querySelector('hermes-composer')?.hasDraft;
  }

  focusComposer(): void {
    this.renderRoot.querySelector('hermes-composer')?.focus();
  }

  /** A starter sends at once, as the incumbent's do. */
  async #suggest(text: string): Promise<void> {
    const composer = this.renderRoot.querySelector('hermes-composer');
    if (!composer || composer.hasDraft) return composer?.focus();
    composer.restoreText(text);
    await composer.send();
  }

  /** Explicit history inspection of a compression snapshot: say so, and lead back to the live conversation. */
  #snapshotNote() {
    const chat = this.chat!;
    const tip = chat.session?.canonical_visible_session_id;
    if (!chat.inspecting || !tip || tip === chat.sessionId) return nothing;
    return html`<div class="status" role="status" data-role="snapshot-note">
      ${msg('A read-only snapshot from before compression; the conversation goes on in a newer session.')}
      <button type="button" class="link" data-role="open-continuation" @click=${() => emit(this, 'hermes-open-session', { sessionId: tip })}>${msg('Open the live conversation')}</button>
    </div>`;
  }

  override render() {
    const chat = this.chat;
    if (!chat) return nothing;
    if (chat.approval || chat.clarify) requestCards();
    const empty = !chat.loading && !chat.error && !chat.unreachable && chat.messages.length === 0 && !chat.live;
    this.dir = this.ui?.settings?.rtl === true ? 'rtl' : '';
    return html`
      <div class="visually-hidden" role="status" aria-live="polite" data-role="announcer">${this.#announcer.text}</div>
      ${
        chat.error && !chat.session
          ? html`<div class="empty" data-role=${chat.missing ? 'session-missing' : 'chat-error'}><p>${chat.error}</p></div>`
          : empty
            ? html`<div class="empty">
              <h1>${this.ui?.settings?.bot_name ?? 'Hermes'}</h1>
              <p class="meta">${withMarkup((slash) => msg(str`Ask for anything in your workspace. Type ${slash} for commands.`), html`<span class="mono">/</span>`)}</p>
              ${
                this.ui?.settings?.hide_empty_state_suggestions === true
                  ? nothing
                  : html`<div class="suggestions" data-role="empty-suggestions">
                    ${suggestions().map((t) => html`<button class="outline" data-role="suggestion" @click=${() => this.#suggest(t)}>${t}</button>`)}
                  </div>`
              }
            </div>`
            : html`<hermes-transcript></hermes-transcript>`
      }
      <div class="dock">
        ${
          chat.cached && chat.session
            ? html`<div class="status" role="status" data-role="cached-note">${msg('Cached — the copy saved on this device; it updates when the server answers.')}</div>`
            : nothing
        }
        ${
          chat.unreachable
            ? html`<div class="status" role="status" data-role="unreachable-note">${msg('Offline — this conversation is not saved on this device. What you send waits here and goes to it when the server is back.')}</div>`
            : nothing
        }
        ${
          chat.status === 'reconnecting'
            ? html`<div class="status" role="status" data-role="reconnecting">${icons.spinner()} ${msg('Connection lost — reconnecting; the turn goes on on the server…')}</div>`
            : nothing
        }
        ${chat.error && chat.session ? html`<div class="error" role="alert">${chat.error}</div>` : nothing}
        ${this.#snapshotNote()}
        ${chat.approval ? html`<hermes-approval-card></hermes-approval-card>` : nothing}
        ${chat.clarify ? html`<hermes-clarify-card></hermes-clarify-card>` : nothing}
        ${
          this.terminalFor && this.terminalFor === chat.sessionId
            ? html`<hermes-terminal-panel .sessionId=${this.terminalFor} @hermes-terminal-close=${() => (this.terminalFor = null)}></hermes-terminal-panel>`
            : nothing
        }
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
      .suggestions {
        display: flex;
        flex-wrap: wrap;
        justify-content: center;
        gap: var(--hermes-space-sm);
        margin-top: var(--hermes-space-lg);
      }
      .suggestions button {
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
        border-radius: var(--hermes-radius-pill);
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
      .status button.link {
        background: none;
        border: 0;
        padding: 0;
        font: inherit;
        color: var(--hermes-accent);
        text-decoration: underline;
        cursor: pointer;
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
