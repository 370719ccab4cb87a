import { LitElement, css, html, nothing, unsafeCSS, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { provide } from '@lit/context';
import { api, ApiError, configureApi, type Message } from '../api/client.js';
import { ChatStore } from '../state/chat-store.js';
import { SessionsStore } from '../state/sessions-store.js';
import { UiStore } from '../state/ui-store.js';
import { chatContext, sessionsContext, uiContext } from '../state/contexts.js';
import { StoreController } from '../state/store.js';
import { baseStyles } from '../shared/styles.js';
import { embedTokensCss } from './host-tokens.js';
import { emit, type HermesEventMap } from '../events.js';
import { embedLanguage } from './embed-language.js';
import '../chat/hermes-chat-view.js';

/** The events <hermes-chat> fires (all bubble and are composed); declared in the app's one event map. */
export type HermesChatEventMap = Pick<
  HermesEventMap,
  'hermes-ready' | 'hermes-message' | 'hermes-run-start' | 'hermes-run-end' | 'hermes-approval' | 'hermes-error'
>;

declare global {
  interface HTMLElementTagNameMap {
    'hermes-chat': HermesChat;
  }
}

type Phase = 'connecting' | 'ready' | 'unauthorised' | 'unreachable';
type Theme = 'dark' | 'light' | 'system';
const textOf = (m: Message): string =>
  typeof m.content === 'string' ? m.content : Array.isArray(m.content) ? (m.content as Array<{ text?: string }>).map((p) => p.text ?? '').join('') : '';

/**
 * A complete Hermes chat for any page: transcript (with Activity rows), composer, approval and
 * clarify cards, live resume — the app's own elements, given their stores through context.
 *
 * @example
 * <script type="module" src="https://hermes.example.com/embed/hermes-chat.js"></script>
 * <hermes-chat server="https://hermes.example.com" token="hemb_…" theme="light" skin="paper"></hermes-chat>
 *
 * @csspart frame - the box around everything
 * @csspart header - the bar with the title and New chat (hidden when compact)
 * @csspart title - the session's title
 * @csspart new-session - the New chat button
 * @csspart chat - the chat column (transcript, cards, composer)
 * @csspart notice - "Not authorised" / "cannot be reached" / connecting states
 * @csspart toast - a passing notification
 */
@customElement('hermes-chat')
@localized()
export class HermesChat extends LitElement {
  /** Base URL of the Hermes server; the page's own origin when empty. */
  @property() server = '';
  /** An existing session id; none creates one on the first send. */
  @property() session: string | null = null;
  /** An embed token (POST /api/embed/tokens) for cross-origin use. */
  @property() token: string | null = null;
  @property() theme: Theme = 'system';
  /** A skin of Settings → Appearance (src/shared/skins.ts); "default" is Calm Console. */
  @property() skin = 'default';
  /** Model for new sessions and sends. */
  @property() model: string | null = null;
  @property() placeholder: string | null = null;
  @property({ type: Boolean, reflect: true }) compact = false;

  @provide({ context: chatContext }) readonly chat = new ChatStore();
  @provide({ context: sessionsContext }) readonly sessions = new SessionsStore();
  @provide({ context: uiContext }) readonly ui = new UiStore();

  @state() private phase: Phase = 'connecting';
  @state() private notice = '';
  #stores = new StoreController(this, () => [this.chat, this.ui]);
  #startToken = 0;
  /** `server|token` the API was last configured with. */
  #startedWith: string | null = null;
  #seen = 0;
  #seenSession: string | null = null;
  #runStream: string | null = null;
  #runSession: string | null = null;
  #approvalId: string | null = null;
  #lastError: string | null = null;
  /** The host page's `lang` (on this element or an ancestor), else the browser's languages. */
  #language = embedLanguage(this);

  constructor() {
    super();
    // Settings are the server owner's; the embed shows neutral defaults and never restyles the page.
    this.ui.settings = { theme: 'system', send_key: 'enter', show_thinking: true, font_size: 'default', default_workspace: '', bot_name: 'Hermes' };
    this.chat.addEventListener('change', () => this.#observe());
    // The app's own navigation events stop here: the page only sees hermes-* element events.
    const swallow = (e: Event) => e.stopPropagation();
    this.addEventListener('hermes-open-file', swallow);
    this.addEventListener('hermes-open-session', (e) => {
      e.stopPropagation();
      const id = e.detail.sessionId;
      if (id === null) void this.newSession();
      else if (id !== this.chat.sessionId) void this.chat.open(id).then(() => (this.session = id));
      else this.session = id;
    });
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#language.connect();
    void this.#start();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#language.disconnect();
    ++this.#startToken;
    this.#startedWith = null;
    void this.chat.open(null);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!this.isConnected) return;
    // Properties set just after insertion land here: (re)connect when server or token changed.
    if ((changed.has('server') || changed.has('token')) && `${this.server}|${this.token}` !== this.#startedWith) void this.#start();
    else if (changed.has('session') && this.phase === 'ready' && (this.session ?? null) !== this.chat.sessionId) void this.#open(this.session ?? null);
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (changed.has('theme')) this.dataset.theme = ['dark', 'light'].includes(this.theme) ? this.theme : 'system';
    if (changed.has('skin')) this.dataset.skin = this.skin || 'default';
    void this.#configureComposer();
  }

  /** Sends a message (creating the session if there is none). */
  async send(text: string): Promise<void> {
    if (this.phase !== 'ready') throw new Error(this.notice || msg('Hermes is not ready'));
    const options = this.model ? { model: this.model } : {};
    if (this.chat.targetId) await this.chat.send(text, options);
    else this.session = (await this.chat.startNew(text, options)) ?? this.session;
  }

  /** Stops the running turn, if any. */
  async stop(): Promise<void> {
    await this.chat.cancel();
  }

  /** Leaves the current session; the next send starts a new one. */
  async newSession(): Promise<void> {
    this.session = null;
    await this.#open(null);
  }

  async #start(): Promise<void> {
    const token = ++this.#startToken;
    this.#startedWith = `${this.server}|${this.token}`;
    configureApi({ base: this.server || '', token: this.token || null });
    this.phase = 'connecting';
    this.notice = '';
    try {
      const who = await api.embedWhoami();
      if (token !== this.#startToken) return;
      await this.#open(this.session ?? who.session_id ?? null);
      if (token !== this.#startToken) return;
      this.phase = 'ready';
      this.#emit('hermes-ready', { sessionId: this.chat.sessionId });
    } catch (err) {
      if (token !== this.#startToken) return;
      const status = err instanceof ApiError ? err.status : 0;
      this.phase = status === 401 || status === 403 ? 'unauthorised' : 'unreachable';
      this.notice = (err as Error).message;
      this.#emit('hermes-error', { message: this.notice, status });
    }
  }

  async #open(id: string | null): Promise<void> {
    this.#seenSession = id;
    this.#seen = Number.MAX_SAFE_INTEGER;
    await this.chat.open(id);
    // Stored indexes: earlier pages loaded later are not new messages.
    this.#seen = this.chat.messageOffset + this.chat.messages.filter((m) => !m._optimistic).length;
    if (id && this.chat.error && !this.chat.session) this.#emit('hermes-error', { message: this.chat.error });
  }

  /** Turns store changes into element events. */
  #observe(): void {
    const chat = this.chat;
    const sid = chat.sessionId;
    if (sid !== this.#seenSession) {
      // A session this element just created (first send): every message in it is new.
      this.#seenSession = sid;
      this.#seen = 0;
    }
    if (sid) {
      const offset = chat.messageOffset;
      for (let i = Math.max(0, this.#seen - offset); i < chat.messages.length; i++) {
        const m = chat.messages[i]!;
        if (m._optimistic) break;
        this.#seen = offset + i + 1;
        if (m.role === 'user' || (m.role === 'assistant' && textOf(m)))
          this.#emit('hermes-message', { sessionId: sid, role: m.role, content: textOf(m), message: m });
      }
    }
    if (chat.streamId && chat.status !== 'idle' && chat.streamId !== this.#runStream && sid) {
      this.#runStream = chat.streamId;
      this.#runSession = sid;
      this.#emit('hermes-run-start', { sessionId: sid, streamId: chat.streamId });
    } else if (chat.status === 'idle' && this.#runStream) {
      this.#emit('hermes-run-end', { sessionId: this.#runSession!, streamId: this.#runStream });
      this.#runStream = null;
    }
    const a = chat.approval;
    if (a && sid && a.approval_id !== this.#approvalId) this.#emit('hermes-approval', { sessionId: sid, approval: a });
    this.#approvalId = a?.approval_id ?? null;
    if (chat.error && chat.error !== this.#lastError) this.#emit('hermes-error', { message: chat.error });
    this.#lastError = chat.error;
  }

  #emit<K extends keyof HermesChatEventMap>(name: K, detail: HermesEventMap[K]): void {
    emit(this, name, detail);
  }

  /** The composer lives in the chat view's shadow root: pass the placeholder and model on. */
  async #configureComposer(): Promise<void> {
    const view = this.renderRoot.querySelector('hermes-chat-view');
    if (!view) return;
    await view.updateComplete;
    const composer = view.renderRoot.querySelector('hermes-composer');
    if (!composer) return;
    composer.placeholderText = this.placeholder || null;
    if (!this.chat.sessionId && this.model) composer.pendingModel = this.model;
  }

  override render() {
    if (this.phase !== 'ready') {
      const [title, body] =
        this.phase === 'connecting'
          ? [msg('Connecting…'), '']
          : this.phase === 'unauthorised'
            ? [msg('Not authorised'), msg(str`${this.notice}. Ask the owner of this Hermes server for an embed token for this site.`)]
            : [msg('Hermes cannot be reached'), this.notice];
      return html`<div part="frame" class="frame">
        <div part="notice" class="notice" data-role="embed-${this.phase}" role=${this.phase === 'connecting' ? 'status' : 'alert'}>
          <strong>${title}</strong>${body ? html`<p>${body}</p>` : nothing}
        </div>
      </div>`;
    }
    const toast = this.ui.toast;
    return html`<div part="frame" class="frame">
      ${
        this.compact
          ? nothing
          : html`<header part="header">
            <span part="title" class="title" data-role="embed-title">${this.chat.session?.title || msg('New chat')}</span>
            <button part="new-session" class="ghost" data-role="embed-new" @click=${() => void this.newSession()}>${msg('New chat')}</button>
          </header>`
      }
      <hermes-chat-view part="chat"></hermes-chat-view>
      ${toast ? html`<div part="toast" class="toast" role="status" data-kind=${toast.kind}>${toast.message}</div>` : nothing}
    </div>`;
  }

  static override styles = [
    unsafeCSS(embedTokensCss),
    baseStyles,
    css`
      :host {
        display: block;
        height: var(--hermes-chat-height, 600px);
        min-height: 280px;
        position: relative;
        background: var(--hermes-bg);
        color: var(--hermes-fg);
        font-family: var(--hermes-font-sans);
        font-size: var(--hermes-text-body);
        line-height: var(--hermes-leading-ui);
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-chat-radius, var(--hermes-radius-lg));
        overflow: hidden;
        contain: content;
        -webkit-font-smoothing: antialiased;
      }
      :host([hidden]) {
        display: none;
      }
      :host([compact]) {
        --hermes-transcript-width: 100%;
        --hermes-font-scale: 0.93;
        min-height: 200px;
      }
      .frame {
        display: flex;
        flex-direction: column;
        height: 100%;
      }
      header {
        display: flex;
        align-items: center;
        gap: var(--hermes-space-sm);
        padding: var(--hermes-space-sm) var(--hermes-space-md);
        border-bottom: var(--hermes-border-width) solid var(--hermes-border);
      }
      .title {
        flex: 1;
        min-width: 0;
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
        font-weight: 600;
      }
      header button {
        font: inherit;
        font-size: var(--hermes-text-label);
        color: inherit;
        background: none;
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-md);
        padding: var(--hermes-space-xs) var(--hermes-space-sm);
        cursor: pointer;
      }
      hermes-chat-view {
        flex: 1;
        min-height: 0;
      }
      .notice {
        margin: auto;
        max-width: 36ch;
        text-align: center;
        padding: var(--hermes-space-xl);
      }
      .notice p {
        color: var(--hermes-fg-muted);
      }
      .toast {
        position: absolute;
        left: 50%;
        bottom: 6rem;
        transform: translateX(-50%);
        background: var(--hermes-color-surface);
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-md);
        padding: var(--hermes-space-xs) var(--hermes-space-md);
        font-size: var(--hermes-text-label);
      }
      .toast[data-kind='error'] {
        border-color: var(--hermes-color-error);
      }
    `,
  ];
}
