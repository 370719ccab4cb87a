import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import { consume } from '@lit/context';
import { chatContext, sessionsContext, uiContext } from '../state/contexts.js';
import type { ChatStore } from '../state/chat-store.js';
import type { SessionsStore } from '../state/sessions-store.js';
import type { UiStore } from '../state/ui-store.js';
import { StoreController } from '../state/store.js';
import { groupTurns, type AssistantTurn, type Turn } from '../state/turns.js';
import type { Message } from '../api/client.js';
import { emit } from '../events.js';
import { baseStyles, dividerStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import type { MessageActionDetail } from '../render/message-actions.js';
import './hermes-user-message.js';
import './hermes-assistant-turn.js';

/** Turns rendered at first, and added by each "Show earlier messages". */
export const TURN_PAGE = 40;
/** Within this many pixels of the bottom counts as "at the bottom" (the stream is followed). */
const NEAR_BOTTOM = 48;

/**
 * The conversation: settled turns plus the live one, newest at the bottom, in a centred column.
 * Renders only the last TURN_PAGE turns (more on request), follows the stream while the reader
 * is at the bottom and offers "Jump to latest" otherwise. Handles the message actions.
 */
@customElement('hermes-transcript')
export class HermesTranscript extends LitElement {
  @consume({ context: chatContext, subscribe: true }) chat?: ChatStore;
  @consume({ context: uiContext, subscribe: true }) ui?: UiStore;
  @consume({ context: sessionsContext, subscribe: true }) sessions?: SessionsStore;
  #stores = new StoreController(this, () => [this.chat]);

  @state() private shown = TURN_PAGE;
  @state() private atBottom = true;

  #turnsOf: readonly Message[] | null = null;
  #turns: Turn[] = [];
  #sessionId: string | null = null;
  #lastUserIndex = -1;
  #jumpOnRender = false;
  #observed: Element | null = null;
  #resize = new ResizeObserver(() => this.#follow());

  /** Settled turns, regrouped only when the messages array is replaced (not every stream frame). */
  get turns(): Turn[] {
    const messages = this.chat?.messages ?? [];
    if (messages !== this.#turnsOf) {
      this.#turnsOf = messages;
      this.#turns = groupTurns(messages);
    }
    return this.#turns;
  }

  get #scroller(): HTMLElement | null {
    return this.renderRoot.querySelector('.scroller');
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#resize.disconnect();
    this.#observed = null;
  }

  protected override willUpdate(): void {
    const id = this.chat?.sessionId ?? null;
    if (id !== this.#sessionId) {
      // A different chat: start at its latest turns, scrolled to the bottom.
      this.#sessionId = id;
      this.shown = TURN_PAGE;
      this.atBottom = true;
      this.#jumpOnRender = true;
    }
    const lastUser = this.chat?.lastUserIndex() ?? -1;
    if (lastUser > this.#lastUserIndex && this.#lastUserIndex !== -1) this.#jumpOnRender = true; // the reader just sent
    this.#lastUserIndex = lastUser;
  }

  protected override updated(_changed: PropertyValues<this>): void {
    // Async growth (markdown parsed per frame, KaTeX, turns laying out) also keeps us at the bottom.
    const column = this.renderRoot.querySelector('.column');
    if (column && column !== this.#observed) {
      this.#resize.disconnect();
      this.#resize.observe(column);
      this.#observed = column;
    }
    if (this.#jumpOnRender) {
      this.#jumpOnRender = false;
      this.scrollToLatest();
    } else this.#follow();
  }

  /** Keeps the newest content in view while the reader is at the bottom. */
  #follow(): void {
    const s = this.#scroller;
    if (s && this.atBottom) s.scrollTop = s.scrollHeight;
  }

  scrollToLatest(): void {
    const s = this.#scroller;
    if (s) s.scrollTop = s.scrollHeight;
    this.atBottom = true;
  }

  #onScroll = () => {
    const s = this.#scroller;
    if (!s) return;
    const near = s.scrollHeight - s.scrollTop - s.clientHeight <= NEAR_BOTTOM;
    if (near !== this.atBottom) this.atBottom = near;
  };

  async #showEarlier(): Promise<void> {
    const s = this.#scroller;
    const fromBottom = s ? s.scrollHeight - s.scrollTop : 0;
    this.shown += TURN_PAGE;
    await this.updateComplete;
    // Keep the turn the reader was looking at in place.
    if (s) s.scrollTop = s.scrollHeight - fromBottom;
  }

  #onAction = async (e: HTMLElementEventMap['hermes-message-action']): Promise<void> => {
    e.stopPropagation();
    const chat = this.chat;
    if (!chat?.sessionId) return;
    try {
      await this.#run(chat, e.detail);
    } catch (err) {
      this.ui?.notify((err as Error).message, 'error');
    }
  };

  async #run(chat: ChatStore, d: MessageActionDetail): Promise<void> {
    if (d.action === 'fork') {
      const r = await chat.fork(d.end);
      void this.sessions?.refresh();
      emit(this, 'hermes-open-session', { sessionId: r.session_id });
    } else if (d.action === 'edit') await chat.edit(d.index, d.text ?? '');
    else if (chat.status === 'idle') await chat.retry();
  }

  override render() {
    const chat = this.chat;
    if (!chat) return nothing;
    const turns = this.turns;
    const start = Math.max(0, turns.length - this.shown);
    const visible = turns.slice(start);
    const busy = chat.status !== 'idle';
    const lastUser = chat.lastUserIndex();
    const last = turns[turns.length - 1];
    const retryIndex = !chat.live && last?.kind === 'assistant' && lastUser >= 0 ? last.index : -1;
    const sessionId = chat.sessionId ?? '';
    // The live turn is mutated in place by the store: a fresh copy per render lets Lit see it.
    // It shares the settled turn's key, so the same element carries on when the turn settles.
    // Where a compression summary begins to stand in for earlier messages (manual or automatic).
    const anchor = chat.session?.compression_anchor_visible_idx;
    const compressedAt = typeof anchor === 'number' && anchor > 0 ? (turns.find((t) => t.index >= anchor)?.index ?? -1) : -1;
    const live: AssistantTurn | null = chat.live ? { ...chat.live, tools: chat.live.tools.map((t) => ({ ...t })), warnings: [...chat.live.warnings] } : null;
    return html`
      <div class="scroller" @scroll=${this.#onScroll} @hermes-message-action=${this.#onAction}>
        <div class="column" role="log" aria-live="polite" aria-relevant="additions">
          ${start > 0 ? html`<button class="earlier outline" data-role="show-earlier" @click=${this.#showEarlier}>Show earlier messages</button>` : nothing}
          ${chat.loading && !turns.length ? html`<div class="meta loading">Loading…</div>` : nothing}
          ${repeat(
            live ? [...visible, live] : visible,
            (t) => `${t.kind}:${t.index}`,
            (t) =>
              html`${t.index === compressedAt ? html`<div class="divider" data-role="compression-divider" role="note">Earlier messages compressed into a summary</div>` : nothing}${
                t.kind === 'user'
                  ? html`<hermes-user-message class="turn" data-role="message" data-message-role="user" data-index=${t.index}
                    .turn=${t} editable ?rewinds=${t.index !== lastUser} ?busy=${busy}></hermes-user-message>`
                  : html`<hermes-assistant-turn class="turn" data-role="message" data-message-role="assistant" data-index=${t.index}
                    data-live=${t === live ? 'true' : nothing} .turn=${t} .sessionId=${sessionId} ?live=${t === live}
                    ?retryable=${t.index === retryIndex} ?busy=${busy}></hermes-assistant-turn>`
              }`,
          )}
        </div>
      </div>
      ${
        this.atBottom
          ? nothing
          : html`<button class="jump" data-role="jump-latest" @click=${() => this.scrollToLatest()}>${icons.chevron()} Jump to latest</button>`
      }
    `;
  }

  static override styles = [
    baseStyles,
    dividerStyles,
    css`
      :host {
        position: relative;
        display: flex;
        flex-direction: column;
        min-height: 0;
      }
      .scroller {
        flex: 1;
        min-height: 0;
        overflow-y: auto;
        overscroll-behavior: contain;
        scrollbar-gutter: stable both-edges;
      }
      .column {
        width: 100%;
        max-width: var(--hermes-transcript-width);
        margin: 0 auto;
        padding: var(--hermes-space-xl) var(--hermes-space-lg) var(--hermes-space-lg);
        display: flex;
        flex-direction: column;
        gap: var(--hermes-space-lg);
      }
      .turn {
        /* Off-screen turns skip layout and paint; "auto" remembers their last real height. */
        content-visibility: auto;
        contain-intrinsic-size: auto 160px;
      }
      .earlier {
        align-self: center;
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
      }
      .loading {
        align-self: center;
      }
      .jump {
        position: absolute;
        left: 50%;
        bottom: var(--hermes-space-md);
        transform: translateX(-50%);
        display: inline-flex;
        align-items: center;
        gap: var(--hermes-space-xs);
        padding: var(--hermes-space-xs) var(--hermes-space-md);
        border-radius: var(--hermes-radius-pill);
        border-color: var(--hermes-border);
        background: var(--hermes-panel);
        box-shadow: var(--hermes-shadow-popover);
        font-size: var(--hermes-text-label);
      }
      .jump:hover:not(:disabled) {
        background: var(--hermes-panel);
        color: var(--hermes-fg);
      }
      .jump svg {
        transform: rotate(90deg);
      }
      @media (max-width: 639px) {
        .column {
          padding: var(--hermes-space-lg) var(--hermes-space-sm) var(--hermes-space-md);
        }
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-transcript': HermesTranscript;
  }
}
