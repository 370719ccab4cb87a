import { LitElement, css, html, nothing } from 'lit';
import { customElement, query, state } from 'lit/decorators.js';
import { api, apiUrl, type Message } from '../api/client.js';
import { groupTurns } from '../state/turns.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import '../chat/hermes-user-message.js';
import '../chat/hermes-assistant-turn.js';

/** GET /api/agent/sessions rows (src/ports/agent-sessions.ts). */
interface AgentSessionRow {
  session_id: string;
  title: string;
  source: string;
  source_label: string;
  model: string | null;
  created_at: number;
  updated_at: number;
  message_count: number;
}

interface AgentSessionDetail extends AgentSessionRow {
  messages: Message[];
  _messages_truncated: boolean;
}

const REFRESH_MS = 60_000;

async function getJson<T>(path: string): Promise<T | null> {
  try {
    const res = await fetch(apiUrl(path), { credentials: 'same-origin' });
    return res.ok ? ((await res.json()) as T) : null;
  } catch {
    return null;
  }
}

function when(seconds: number): string {
  const d = new Date(seconds * 1000);
  const today = new Date();
  return d.toDateString() === today.toDateString()
    ? d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
    : d.toLocaleDateString([], { month: 'short', day: 'numeric' });
}

/**
 * The Hermes Agent's own sessions (CLI, Telegram, … in `$HERMES_HOME/state.db`) under the
 * sidebar's list: a collapsible section with a source badge per row, each opened read-only in
 * a dialog. Shown only where a state.db exists; off until asked for (`show_cli_sessions`).
 */
@customElement('hermes-agent-sessions')
export class HermesAgentSessions extends LitElement {
  @state() private available = false;
  @state() private enabled = false;
  @state() private rows: AgentSessionRow[] = [];
  @state() private expanded = true;
  @state() private viewing: AgentSessionDetail | null = null;
  @state() private loadingId: string | null = null;
  @query('dialog') private dialog?: HTMLDialogElement;
  #timer: ReturnType<typeof setInterval> | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.#load();
    this.#timer = setInterval(() => void this.#load(), REFRESH_MS);
    window.addEventListener('focus', this.#onFocus);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearInterval(this.#timer);
    window.removeEventListener('focus', this.#onFocus);
  }

  #onFocus = () => void this.#load();

  async #load(): Promise<void> {
    const r = await getJson<{ available: boolean; enabled: boolean; sessions: AgentSessionRow[] }>('/api/agent/sessions');
    if (!r) return;
    this.available = r.available;
    this.enabled = r.enabled;
    this.rows = r.sessions;
  }

  async #setEnabled(on: boolean): Promise<void> {
    try {
      await api.saveSettings({ show_cli_sessions: on });
    } catch {
      return;
    }
    await this.#load();
  }

  async #open(row: AgentSessionRow): Promise<void> {
    this.loadingId = row.session_id;
    const r = await getJson<{ session: AgentSessionDetail }>(`/api/agent/session?session_id=${encodeURIComponent(row.session_id)}`);
    this.loadingId = null;
    if (!r) return;
    this.viewing = r.session;
    await this.updateComplete;
    this.dialog?.showModal();
  }

  #close = () => {
    this.dialog?.close();
    this.viewing = null;
  };

  override render() {
    if (!this.available) return nothing;
    if (!this.enabled) {
      return html`<button class="enable meta" data-role="agent-sessions-enable" @click=${() => void this.#setEnabled(true)}>Show Hermes sessions (CLI, messaging)</button>`;
    }
    return html`
      <section class="section" data-role="agent-sessions">
        <header>
          <button class="toggle" aria-expanded=${this.expanded} @click=${() => (this.expanded = !this.expanded)}>
            <span class="chev" ?data-open=${this.expanded}>${icons.chevron()}</span>Hermes sessions
            <span class="meta">${this.rows.length}</span>
          </button>
          <button class="hide meta" data-role="agent-sessions-hide" title="Stop listing Hermes sessions" @click=${() => void this.#setEnabled(false)}>Hide</button>
        </header>
        ${
          this.expanded
            ? html`<ul role="list">
              ${
                this.rows.length
                  ? this.rows.map(
                      (r) => html`<li>
                      <button class="row" data-role="agent-session-row" data-source=${r.source} title="${r.title} (${r.source_label}, read-only)" @click=${() => void this.#open(r)}>
                        <span class="badge" data-role="source-badge">${r.source_label}</span>
                        <span class="title">${r.title}</span>
                        <span class="meta">${this.loadingId === r.session_id ? icons.spinner() : when(r.updated_at)}</span>
                      </button>
                    </li>`,
                    )
                  : html`<li class="meta empty">No Hermes sessions yet</li>`
              }
            </ul>`
            : nothing
        }
      </section>
      <dialog data-role="agent-session-viewer" aria-labelledby="viewer-title" @close=${() => (this.viewing = null)} @cancel=${this.#close}>
        ${this.viewing ? this.#viewer(this.viewing) : nothing}
      </dialog>
    `;
  }

  #viewer(s: AgentSessionDetail) {
    const turns = groupTurns(s.messages);
    return html`
      <header class="viewer-head">
        <span class="badge">${s.source_label}</span>
        <h2 id="viewer-title">${s.title}</h2>
        <button class="icon-button" data-role="viewer-close" aria-label="Close" @click=${this.#close}>${icons.close()}</button>
      </header>
      <p class="meta note" data-role="read-only-note">Read-only: a ${s.source_label} session of your Hermes Agent${s.model ? ` (${s.model})` : ''}. Continue it there.</p>
      ${s._messages_truncated ? html`<p class="meta note">Showing the latest ${s.messages.length} of ${s.message_count} messages.</p>` : nothing}
      <div class="turns">
        ${turns.map((t) =>
          t.kind === 'user'
            ? html`<hermes-user-message data-role="message" data-message-role="user" .turn=${t}></hermes-user-message>`
            : html`<hermes-assistant-turn data-role="message" data-message-role="assistant" .turn=${t} .sessionId=${s.session_id}></hermes-assistant-turn>`,
        )}
      </div>
    `;
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        display: block;
      }
      .enable {
        margin: var(--hermes-space-xs) var(--hermes-space-sm);
        color: var(--hermes-fg-faint);
        font-size: var(--hermes-text-meta);
      }
      .section {
        border-top: var(--hermes-border-width) solid var(--hermes-color-border-subtle);
        padding: var(--hermes-space-xs) var(--hermes-space-xs) 0;
        max-height: 40vh;
        overflow-y: auto;
      }
      header {
        display: flex;
        align-items: center;
        justify-content: space-between;
      }
      .toggle {
        display: inline-flex;
        align-items: center;
        gap: var(--hermes-space-xs);
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
      }
      .chev {
        display: inline-flex;
        transition: transform var(--hermes-duration);
      }
      .chev[data-open] {
        transform: rotate(90deg);
      }
      .meta {
        font-size: var(--hermes-text-meta);
        color: var(--hermes-fg-faint);
      }
      ul {
        list-style: none;
        margin: 0;
        padding: 0;
      }
      .row {
        display: flex;
        align-items: center;
        gap: var(--hermes-space-xs);
        width: 100%;
        text-align: left;
        min-height: 32px;
      }
      .title {
        flex: 1;
        min-width: 0;
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
        color: var(--hermes-fg-muted);
      }
      .badge {
        flex: none;
        font-size: var(--hermes-text-meta);
        padding: 0 var(--hermes-space-xs);
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-pill);
        color: var(--hermes-fg-faint);
      }
      .empty {
        padding: var(--hermes-space-xs) var(--hermes-space-sm);
      }
      dialog {
        width: min(860px, 94vw);
        max-height: 88vh;
        padding: var(--hermes-space-md) var(--hermes-space-lg);
        background: var(--hermes-bg);
        color: var(--hermes-fg);
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-lg);
        box-shadow: var(--hermes-shadow-popover);
      }
      dialog::backdrop {
        background: var(--hermes-scrim);
      }
      .viewer-head {
        gap: var(--hermes-space-sm);
        justify-content: flex-start;
      }
      .viewer-head h2 {
        flex: 1;
        margin: 0;
        font-size: var(--hermes-text-h3);
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
      }
      .note {
        margin: var(--hermes-space-xs) 0 var(--hermes-space-md);
      }
      .turns {
        display: flex;
        flex-direction: column;
        gap: var(--hermes-space-md);
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-agent-sessions': HermesAgentSessions;
  }
}
