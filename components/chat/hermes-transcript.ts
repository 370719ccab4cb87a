import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import { consume } from '@lit/context';
import { localized, msg } from '@lit/localize';
import { chatContext, sessionsContext, uiContext } from '../state/contexts.js';
import type { ChatStore } from '../state/chat-store.js';
import type { SessionsStore } from '../state/sessions-store.js';
import type { UiStore } from '../state/ui-store.js';
import { StoreController } from '../state/store.js';
import type { AssistantTurn, Turn } from '../state/turns.js';
import { emit } from '../events.js';
import { baseStyles, dividerStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import type { MessageActionDetail } from '../render/message-actions.js';
import './hermes-user-message.js';
import './hermes-assistant-turn.js';
import { ScrollAnchor } from './scroll-anchor.js';
import { userJumpButtons, userJumpStyles, userJumpTarget } from './user-jumps.js';
import { MAX_RENDERED, StableTurns, TURN_PAGE, firstAtOrAfter, turnHolding } from './turn-window.js';

export { TURN_PAGE } from './turn-window.js';
/** Within this many pixels of the bottom counts as "at the bottom" (the stream is followed). */
const NEAR_BOTTOM = 48;
/** Within this many pixels of either end of the rendered turns, more are rendered (or fetched). */
const EDGE = 600;

/**
 * The conversation: settled turns plus the live one, newest at the bottom, in a centred column.
 * Renders a window of at most MAX_RENDERED turns (the last TURN_PAGE at first; more as the reader
 * scrolls toward either end, fetching earlier pages of a long session), follows the stream while
 * the reader is at the bottom and otherwise keeps what they read in place (ScrollAnchor), with
 * "Jump to latest". Jumps to a message on request (`chat.reveal`). Handles the message actions.
 */
@customElement('hermes-transcript')
@localized()
export class HermesTranscript extends LitElement {
  @consume({ context: chatContext, subscribe: true }) chat?: ChatStore;
  @consume({ context: uiContext, subscribe: true }) ui?: UiStore;
  @consume({ context: sessionsContext, subscribe: true }) sessions?: SessionsStore;
  #stores = new StoreController(this, () => [this.chat, this.ui]);

  @state() private atBottom = true;
  /** The rendered window, by stored message index: turns from `#from` (-1: the last TURN_PAGE) up to `#to` (null: the end, live turn included). */
  @state() private from = -1;
  @state() private to: number | null = null;

  #stable = new StableTurns();
  #sessionId: string | null = null;
  #lastUserIndex = -1;
  #jumpOnRender = false;
  #revealSeq = 0;
  #revealAt: number | null = null;
  #extending = false;
  #observed: Element | null = null;
  #anchor = new ScrollAnchor(
    () => this.#scroller,
    () => this.renderRoot.querySelectorAll('.turn'),
  );
  #resize = new ResizeObserver(() => (this.atBottom && this.to === null ? this.#follow() : this.#anchor.restore()));

  /** Settled turns (stored indexes), regrouped only when the messages array is replaced (not every stream frame). */
  get turns(): Turn[] {
    return this.#stable.get(this.chat?.messages ?? [], this.chat?.messageOffset ?? 0);
  }

  /** The rendered slice of `turns`: [start, end) positions. */
  #range(turns: readonly Turn[]): [number, number] {
    const start = this.from < 0 ? Math.max(0, turns.length - TURN_PAGE) : Math.min(firstAtOrAfter(turns, this.from), Math.max(0, turns.length - 1));
    const end = this.to === null ? turns.length : Math.max(start + 1, firstAtOrAfter(turns, this.to));
    return [start, Math.min(end, turns.length)];
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
      this.from = -1;
      this.to = null;
      this.atBottom = true;
      this.#jumpOnRender = true;
      this.#anchor.clear();
      this.#lastUserIndex = -1;
    }
    const rel = this.chat?.lastUserIndex() ?? -1;
    // Stored indexes: an earlier page put in front is not "the reader just sent".
    const lastUser = rel < 0 ? -1 : rel + (this.chat?.messageOffset ?? 0);
    if (lastUser > this.#lastUserIndex && this.#lastUserIndex !== -1) {
      // The reader just sent: back to the latest turns.
      this.#jumpOnRender = true;
      this.from = -1;
      this.to = null;
    }
    this.#lastUserIndex = lastUser;
    const reveal = this.chat?.reveal;
    if (reveal && reveal.seq !== this.#revealSeq) {
      this.#revealSeq = reveal.seq;
      this.#windowAround(reveal.index);
    } else if (!this.#jumpOnRender && !(this.atBottom && this.to === null)) this.#anchor.capture();
  }

  /** Renders the turns around stored message `index` and scrolls to it once they are drawn. */
  #windowAround(index: number): void {
    const turns = this.turns;
    if (!turns.length) return;
    const at = turnHolding(turns, index);
    this.from = turns[Math.max(0, at - 5)]!.index;
    this.to = turns[at + TURN_PAGE]?.index ?? null;
    this.atBottom = false;
    this.#jumpOnRender = false;
    this.#revealAt = turns[at]!.index;
  }

  protected override updated(_changed: PropertyValues<this>): void {
    // Async growth (markdown parsed per frame, KaTeX, turns laying out) also keeps us at the bottom.
    const column = this.renderRoot.querySelector('.column');
    if (column && column !== this.#observed) {
      this.#resize.disconnect();
      this.#resize.observe(column);
      this.#observed = column;
    }
    if (this.#revealAt !== null) {
      const target = this.renderRoot.querySelector<HTMLElement>(`.turn[data-index="${this.#revealAt}"]`);
      this.#revealAt = null;
      if (target) {
        target.scrollIntoView({ block: 'start' });
        target.setAttribute('data-revealed', '');
        setTimeout(() => target.removeAttribute('data-revealed'), 2500);
        this.#anchor.pin(target);
      }
    } else if (this.#jumpOnRender) {
      this.#jumpOnRender = false;
      this.scrollToLatest();
    } else if (this.atBottom && this.to === null) this.#follow();
    else this.#anchor.restore();
    this.#fill();
  }

  /** Keeps the newest content in view while the reader is at the bottom (unless `auto_scroll_follow` is off). */
  #follow(): void {
    const s = this.#scroller;
    if (s && this.atBottom && this.ui?.settings?.auto_scroll_follow !== false) s.scrollTop = s.scrollHeight;
  }

  scrollToLatest(): void {
    if (this.to !== null || this.from >= 0) {
      // Back to the latest turns; the render scrolls down.
      this.to = null;
      this.from = -1;
      this.#jumpOnRender = true;
    }
    const s = this.#scroller;
    if (s) s.scrollTop = s.scrollHeight;
    this.atBottom = true;
  }

  /** `session_jump_buttons`: to the previous or next message of the user (past the last: the latest). */
  #jumpUser = (dir: 'prev' | 'next') => {
    const s = this.#scroller;
    if (!s) return;
    const target = userJumpTarget(s, this.renderRoot.querySelectorAll<HTMLElement>('.turn[data-message-role="user"]'), dir);
    if (target) {
      target.scrollIntoView({ block: 'start' });
      this.#anchor.pin(target);
    } else if (dir === 'next') this.scrollToLatest();
    else if (s.scrollTop > 0) s.scrollTop = 0;
  };

  #onScroll = () => {
    const s = this.#scroller;
    if (!s) return;
    const fromBottom = s.scrollHeight - s.scrollTop - s.clientHeight;
    const near = this.to === null && fromBottom <= NEAR_BOTTOM;
    if (near !== this.atBottom) this.atBottom = near;
    if (!near) {
      // Scrolled up: the window's top stays where it is as turns arrive below.
      if (this.from < 0) this.from = this.turns[this.#range(this.turns)[0]]?.index ?? -1;
      this.#anchor.capture();
    }
    if (s.scrollTop < EDGE) void this.#showEarlier();
    else if (this.to !== null && fromBottom < EDGE) this.#showLater();
  };

  /** A short window (or a short first page) does not scroll: reach for more until it does. */
  #fill(): void {
    const s = this.#scroller;
    // Not while hidden or detached (no height): it would fetch every page.
    if (!s || !this.isConnected || s.clientHeight === 0 || this.#extending) return;
    const more = this.chat?.hasEarlier || this.#range(this.turns)[0] > 0;
    if (more && s.scrollHeight <= s.clientHeight + EDGE) void this.#showEarlier();
  }

  /** Renders TURN_PAGE earlier turns, fetching the page before the loaded ones when none are left. */
  async #showEarlier(): Promise<void> {
    const chat = this.chat;
    if (!chat || this.#extending) return;
    let turns = this.turns;
    let [start, end] = this.#range(turns);
    if (start === 0) {
      if (!chat.hasEarlier) return;
      this.#extending = true;
      const first = turns[0]?.index;
      try {
        await chat.loadEarlier();
      } finally {
        this.#extending = false;
      }
      turns = this.turns;
      // Where the rendered window began, now that turns are regrouped with the new page in front.
      start = first === undefined ? turns.length : firstAtOrAfter(turns, first);
      end = this.to === null ? turns.length : firstAtOrAfter(turns, this.to);
    }
    this.#anchor.capture();
    const next = Math.max(0, start - TURN_PAGE);
    this.from = turns[next]?.index ?? 0;
    // Past MAX_RENDERED, the turns furthest below go (Jump to latest brings them back).
    if (end - next > MAX_RENDERED) {
      this.to = turns[next + MAX_RENDERED]!.index;
      this.atBottom = false;
    }
  }

  /** Renders TURN_PAGE later turns of a window that does not reach the end. */
  #showLater(): void {
    const turns = this.turns;
    const [start, end] = this.#range(turns);
    this.#anchor.capture();
    const next = end + TURN_PAGE;
    this.to = next >= turns.length ? null : turns[next]!.index;
    const last = this.to === null ? turns.length : next;
    if (last - start > MAX_RENDERED) this.from = turns[last - MAX_RENDERED]!.index;
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
    // The turns carry stored indexes; the store takes positions in what is loaded.
    const offset = chat.messageOffset;
    if (d.action === 'fork') {
      const r = await chat.fork(d.end === undefined ? undefined : d.end - offset);
      void this.sessions?.refresh();
      emit(this, 'hermes-open-session', { sessionId: r.session_id });
    } else if (d.action === 'edit') await chat.edit(d.index - offset, d.text ?? '');
    else if (chat.status === 'idle') await chat.retry();
  }

  override render() {
    const chat = this.chat;
    if (!chat) return nothing;
    const turns = this.turns;
    const [start, end] = this.#range(turns);
    const visible = turns.slice(start, end);
    const busy = chat.status !== 'idle';
    const offset = chat.messageOffset;
    const lastUser = chat.lastUserIndex() < 0 ? -1 : chat.lastUserIndex() + offset;
    const last = turns[turns.length - 1];
    const retryIndex = !chat.live && last?.kind === 'assistant' && lastUser >= 0 ? last.index : -1;
    const sessionId = chat.sessionId ?? '';
    // The live turn is mutated in place by the store: a fresh copy per render lets Lit see it.
    // It shares the settled turn's key, so the same element carries on when the turn settles.
    // Where a compression summary begins to stand in for earlier messages (manual or automatic).
    const anchor = chat.session?.compression_anchor_visible_idx;
    const compressedAt = typeof anchor === 'number' && anchor > 0 ? (turns.find((t) => t.index >= anchor)?.index ?? -1) : -1;
    // The live turn follows the loaded messages: its stored index is past them (its key is the settled turn's).
    const live: AssistantTurn | null =
      chat.live && end === turns.length && this.to === null
        ? { ...chat.live, index: offset + chat.messages.length, tools: chat.live.tools.map((t) => ({ ...t })), warnings: [...chat.live.warnings] }
        : null;
    return html`
      <div class="scroller" @scroll=${this.#onScroll} @hermes-message-action=${this.#onAction}>
        <div class="column" role="log" aria-live="off">
          ${start > 0 || chat.hasEarlier ? html`<button class="earlier outline" data-role="show-earlier" @click=${this.#showEarlier}>${msg('Show earlier messages')}</button>` : nothing}
          ${chat.loading && !turns.length ? html`<div class="meta loading">${msg('Loading…')}</div>` : nothing}
          ${repeat(
            live ? [...visible, live] : visible,
            (t) => `${t.kind}:${t.index}`,
            (t) =>
              html`${t.index === compressedAt ? html`<div class="divider" data-role="compression-divider" role="note">${msg('Earlier messages compressed into a summary')}</div>` : nothing}${
                t.kind === 'user'
                  ? html`<hermes-user-message class="turn" data-role="message" data-message-role="user" data-index=${t.index}
                    .turn=${t} editable ?rewinds=${t.index !== lastUser} ?busy=${busy}></hermes-user-message>`
                  : html`<hermes-assistant-turn class="turn" data-role="message" data-message-role="assistant" data-index=${t.index}
                    data-live=${t === live ? 'true' : nothing} .turn=${t} .sessionId=${sessionId} ?live=${t === live}
                    ?retryable=${t.index === retryIndex} ?busy=${busy && t.index === retryIndex}></hermes-assistant-turn>`
              }`,
          )}
          ${end < turns.length ? html`<button class="earlier outline" data-role="show-later" @click=${this.#showLater}>${msg('Show later messages')}</button>` : nothing}
        </div>
      </div>
      ${this.ui?.settings?.session_jump_buttons === true && turns.length ? userJumpButtons(this.#jumpUser) : nothing}
      ${
        this.atBottom
          ? nothing
          : html`<button class="jump" data-role="jump-latest" @click=${() => this.scrollToLatest()}>${icons.chevron()} ${msg('Jump to latest')}</button>`
      }
    `;
  }

  static override styles = [
    baseStyles,
    dividerStyles,
    userJumpStyles,
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
        /* The browser's anchoring absorbs turns resizing above the view (content-visibility), which
           would otherwise read as the reader scrolling away from the bottom; ScrollAnchor does the rest. */
        overflow-anchor: auto;
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
      .turn[data-revealed] {
        outline: var(--hermes-border-width) solid var(--hermes-accent);
        outline-offset: var(--hermes-space-xs);
        border-radius: var(--hermes-radius-md);
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
