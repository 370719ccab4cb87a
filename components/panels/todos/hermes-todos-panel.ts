import { LitElement, css, html, nothing } from 'lit';
import { customElement } from 'lit/decorators.js';
import { localized, msg, str } from '@lit/localize';
import { consume } from '@lit/context';
import { baseStyles } from '../../shared/styles.js';
import { panelStyles } from '../panel-styles.js';
import { panelState } from '../panel-state.js';
import { chatContext } from '../../state/contexts.js';
import type { ChatStore } from '../../state/chat-store.js';
import { StoreController } from '../../state/store.js';
import { formatNumber } from '../../i18n/format.js';

const STATUSES = new Set(['pending', 'in_progress', 'completed', 'cancelled']);
/** Read at render time, so a language switch shows the new words. */
const statusLabel = (status: string): string =>
  ({ pending: msg('Pending'), in_progress: msg('In progress'), completed: msg('Done'), cancelled: msg('Cancelled') })[status] ?? status;
const MARKS: Record<string, string> = { pending: '○', in_progress: '◐', completed: '●', cancelled: '×' };

interface Item {
  id: string;
  content: string;
  status: string;
}

/** What the agent wrote, kept to what can be shown (an older writer's list may hold odd entries). */
function items(todos: readonly unknown[]): Item[] {
  return todos.flatMap((t, i) => {
    if (!t || typeof t !== 'object') return [];
    const { id, content, status } = t as Record<string, unknown>;
    if (typeof content !== 'string' || !content) return [];
    return [{ id: typeof id === 'string' ? id : String(i), content, status: typeof status === 'string' && STATUSES.has(status) ? status : 'pending' }];
  });
}

/** Whether this page was loaded (or reloaded) at the Todos panel, rather than arriving from a chat. */
function loadedHere(): boolean {
  const nav = performance.getEntriesByType('navigation')[0];
  return !!nav && /\/panel\/todos\/?$/.test(new URL(nav.name).pathname);
}
let restored = false;

/**
 * The Todos panel: the todo list of the session open in the chat (the agent's `todo` tool),
 * live while a turn runs (the chat store takes `todo_state` events). A page reloaded here opens
 * the session it showed last, so the list comes back with it.
 */
@customElement('hermes-todos-panel')
@localized()
export class HermesTodosPanel extends LitElement {
  static override styles = [
    baseStyles,
    panelStyles,
    css`
      ol {
        list-style: none;
        margin: 0;
        padding: 0;
      }
      [data-role='todo-item'] {
        display: flex;
        align-items: baseline;
        gap: var(--hermes-space-sm);
        padding: var(--hermes-space-xs) 0;
        border-bottom: var(--hermes-border-width) solid var(--hermes-color-border-subtle);
      }
      .mark {
        width: 1em;
        flex: none;
        color: var(--hermes-fg-faint);
        text-align: center;
      }
      .content {
        flex: 1;
        min-width: 0;
        overflow-wrap: anywhere;
      }
      .status {
        flex: none;
        font-size: var(--hermes-text-meta);
        color: var(--hermes-fg-muted);
      }
      [data-status='in_progress'] .mark {
        color: var(--hermes-accent);
      }
      [data-status='in_progress'] .content {
        font-weight: 600;
      }
      [data-status='completed'] .content,
      [data-status='cancelled'] .content {
        color: var(--hermes-fg-muted);
      }
      [data-status='cancelled'] .content {
        text-decoration: line-through;
      }
      .summary {
        font-size: var(--hermes-text-meta);
      }
    `,
  ];

  @consume({ context: chatContext, subscribe: true }) chat?: ChatStore;
  #stores = new StoreController(this, () => [this.chat]);
  #state = panelState('todos', { session: null as string | null });

  override connectedCallback(): void {
    super.connectedCallback();
    const chat = this.chat;
    const last = this.#state.get().session;
    // Once per page, and only for a page loaded here: arriving from a new chat shows that chat (empty).
    if (chat && !restored && !chat.openedId && last && loadedHere()) void chat.open(last);
    restored = true;
  }

  override willUpdate(): void {
    const id = this.chat?.sessionId;
    if (id && id !== this.#state.get().session) this.#state.set({ session: id });
  }

  override render() {
    const chat = this.chat;
    const open = !!chat?.sessionId;
    const list = open ? items(chat!.todos) : [];
    const done = list.filter((t) => t.status === 'completed').length;
    return html`<section data-role="panel" data-panel="todos">
      <header class="panel-head">
        <h2>${msg('Todos')}</h2>
        ${list.length ? html`<span class="summary muted" data-role="todo-summary">${msg(str`${formatNumber(done)} of ${formatNumber(list.length)} done`)}</span>` : nothing}
      </header>
      <div class="panel-body">
        ${
          !open
            ? html`<p class="empty" data-role="todo-empty">${chat?.loading ? msg('Loading…') : msg('Open a conversation to see its todo list.')}</p>`
            : list.length
              ? html`<p class="muted" data-role="todo-session">${chat!.session?.title ?? ''}</p>
                <ol>
                  ${list.map(
                    (t) =>
                      html`<li data-role="todo-item" data-status=${t.status} data-id=${t.id}>
                        <span class="mark" aria-hidden="true">${MARKS[t.status]}</span><span class="content">${t.content}</span
                        ><span class="status">${statusLabel(t.status)}</span>
                      </li>`,
                  )}
                </ol>`
              : html`<p class="empty" data-role="todo-empty">${msg('No todos in this conversation yet. The agent keeps one for longer tasks.')}</p>`
        }
      </div>
    </section>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-todos-panel': HermesTodosPanel;
  }
}
