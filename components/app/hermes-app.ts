import { LitElement, css, html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { provide } from '@lit/context';
import { ChatStore } from '../state/chat-store.js';
import { SessionsStore } from '../state/sessions-store.js';
import { UiStore } from '../state/ui-store.js';
import { ConnectionStore } from '../state/connection-store.js';
import { chatContext, sessionsContext, uiContext } from '../state/contexts.js';
import { StoreController } from '../state/store.js';
import { baseStyles } from '../shared/styles.js';
import { icons } from '../shared/icons.js';
import { emit } from '../events.js';
import { api, authEvents, type OnboardingStatus } from '../api/client.js';
import { bucketize } from '../sidebar/date-buckets.js';
import '../sidebar/hermes-sidebar.js';
import '../chat/hermes-chat-view.js';
import './hermes-update-prompt.js';
import '../panels/hermes-panel-host.js';
import { isPanelName, type PanelName } from '../panels/registry.js';

const MOBILE = '(max-width: 639px)';
/** How long the first paint waits for the onboarding check before showing the app anyway. */
const ONBOARDING_CHECK_MS = 4000;

/** The control-center panel a path names (`/panel/<name>`), or null for the chat. */
function panelFromPath(path: string): PanelName | null {
  const m = /^\/panel\/([a-z]+)\/?$/.exec(path);
  return m && isPanelName(m[1]!) ? m[1] : null;
}

function sessionFromPath(path: string): string | null {
  const m = /^\/session\/([^/?#]+)/.exec(path);
  return m ? decodeURIComponent(m[1]!) : null;
}

/**
 * The application shell: sidebar, chat and the workspace panel; owns the stores (provided as
 * contexts), the URL (`/`, `/session/<id>`, `/login`) and the global keyboard shortcuts.
 *
 * @fires hermes-open-session - listened for, from any descendant
 */
@customElement('hermes-app')
export class HermesApp extends LitElement {
  @provide({ context: chatContext }) chat = new ChatStore();
  @provide({ context: sessionsContext }) sessions = new SessionsStore();
  @provide({ context: uiContext }) ui = new UiStore();

  connection = new ConnectionStore();

  #stores = new StoreController(this, () => [this.ui, this.chat, this.connection]);
  #mobile = window.matchMedia(MOBILE);
  #route = location.pathname;
  /**
   * The first-run wizard: `checking` while GET /api/onboarding/status is asked (once, at `/`),
   * the status while the wizard shows, `null` for the normal app.
   */
  @state() onboarding: 'checking' | OnboardingStatus | null = null;

  constructor() {
    super();
    if (this.#mobile.matches) this.ui.sidebarOpen = false;
    this.chat.onSessionChanged = (id, patch) => this.sessions.patch(id, patch);
    // A message queued offline in the empty view has its session now: show it there.
    this.chat.onSessionCreated = (id) => {
      void this.sessions.refresh();
      if (!this.chat.sessionId) emit(this, 'hermes-open-session', { sessionId: id, replace: true });
    };
    // Back online: send what was queued, then bring the cached views up to date.
    this.connection.onOnline = () => {
      void this.chat.drainOutbox();
      void this.sessions.refresh();
      if (this.chat.cached || this.chat.unreachable) void this.chat.reload().catch(() => {});
      if (!this.ui.settings) void this.ui.load();
    };
  }

  /** What reloading now would interrupt or lose, for the update prompt; null when nothing. */
  #reloadRisk = (): string | null => {
    if (this.chat.status !== 'idle') return 'A reply is still running.';
    if (this.renderRoot.querySelector('hermes-chat-view')?.hasDraft) return 'You have an unsent message.';
    return null;
  };

  /** Leaves for the sign-in page (tests replace it). */
  navigate = (url: string) => location.assign(url);
  #leaving = false;

  /** The server no longer knows this browser (signed out elsewhere, expired): sign in again, then come back. */
  #onSignedOut = () => {
    if (this.#route === '/login' || this.#leaving) return;
    this.#leaving = true;
    this.navigate(`/login?next=${encodeURIComponent(location.pathname + location.search)}`);
  };

  override connectedCallback(): void {
    super.connectedCallback();
    authEvents.addEventListener('signed-out', this.#onSignedOut);
    window.addEventListener('popstate', this.#onPopState);
    window.addEventListener('keydown', this.#onKeyDown);
    this.addEventListener('hermes-open-session', this.#onOpenSession);
    this.addEventListener('hermes-open-file', this.#onOpenFile);
    this.#mobile.addEventListener('change', this.#onMobileChange);
    if (this.#route === '/login') return;
    if (this.#route === '/') void this.#checkOnboarding();
    void this.ui.load();
    void this.sessions.refresh();
    void this.chat.open(sessionFromPath(location.pathname));
    void this.chat.loadOutbox().then(() => {
      if (this.chat.outbox.length) void this.chat.drainOutbox();
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    authEvents.removeEventListener('signed-out', this.#onSignedOut);
    window.removeEventListener('popstate', this.#onPopState);
    window.removeEventListener('keydown', this.#onKeyDown);
    this.removeEventListener('hermes-open-session', this.#onOpenSession);
    this.removeEventListener('hermes-open-file', this.#onOpenFile);
    this.#mobile.removeEventListener('change', this.#onMobileChange);
  }

  /** A file named in the transcript opens the panel; the panel itself then shows the file. */
  #onOpenFile = (e: HTMLElementEventMap['hermes-open-file']) => {
    if (this.ui.panelOpen) return;
    this.ui.togglePanel(true);
    // The panel mounts on the next render; hand it the request once it listens.
    void this.updateComplete.then(() => requestAnimationFrame(() => emit(window, 'hermes-open-file', e.detail, { local: true })));
  };

  #onMobileChange = () => this.ui.toggleSidebar(!this.#mobile.matches);

  #onPopState = () => {
    this.#route = location.pathname;
    // A panel shows instead of the chat, which keeps its session (the Todos panel follows it).
    if (!panelFromPath(location.pathname)) void this.chat.open(sessionFromPath(location.pathname));
  };

  #onOpenSession = (e: HTMLElementEventMap['hermes-open-session']) => {
    const id = e.detail.sessionId;
    const path = id ? `/session/${encodeURIComponent(id)}` : '/';
    if (path !== location.pathname) history[e.detail.replace ? 'replaceState' : 'pushState'](null, '', path);
    this.#route = path;
    const opened = id !== this.chat.sessionId ? this.chat.open(id) : Promise.resolve();
    const find = e.detail.find;
    if (find) void opened.then(() => this.chat.revealMatch(find)).catch((err: Error) => this.ui.notify(err.message, 'error'));
    if (this.#mobile.matches) this.ui.toggleSidebar(false);
  };

  #onKeyDown = (e: KeyboardEvent) => {
    // The wizard has its own keys (Enter submits a step); the app's shortcuts wait for the app.
    if (this.onboarding) return;
    const mod = e.metaKey || e.ctrlKey;
    const typing = (() => {
      const el = e.composedPath()[0] as HTMLElement | undefined;
      return !!el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.isContentEditable);
    })();
    if (mod && e.key.toLowerCase() === 'k') {
      e.preventDefault();
      emit(this, 'hermes-open-session', { sessionId: null });
      this.#focusComposer();
    } else if (mod && e.key.toLowerCase() === 'b') {
      e.preventDefault();
      this.ui.toggleSidebar();
    } else if (mod && e.key === '/') {
      e.preventDefault();
      this.#focusComposer();
    } else if (e.key === 'Escape') {
      if (this.ui.settingsOpen) this.ui.openSettings(false);
      else if (this.#mobile.matches && this.ui.sidebarOpen) this.ui.toggleSidebar(false);
    } else if (!mod && !typing && (e.key === 'j' || e.key === 'k')) {
      // The sidebar's own order: pinned first, then by date.
      const rows = bucketize(this.sessions.visible).flatMap((it) => (it.kind === 'session' ? [it.row] : []));
      const at = rows.findIndex((r) => r.session_id === this.chat.sessionId);
      const next = rows[Math.max(0, Math.min(rows.length - 1, at + (e.key === 'j' ? 1 : -1)))];
      if (next && next.session_id !== this.chat.sessionId) emit(this, 'hermes-open-session', { sessionId: next.session_id });
    }
  };

  /** Asks once whether to show the wizard; any failure (offline, an older server) shows the app. */
  async #checkOnboarding() {
    this.onboarding = 'checking';
    const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), ONBOARDING_CHECK_MS));
    const status = await Promise.race([api.onboardingStatus().catch(() => null), timeout]);
    if (this.onboarding !== 'checking') return;
    const shown = status?.needed
      ? await import('../onboarding/hermes-onboarding.js').then(
          () => true,
          () => false,
        )
      : false;
    this.onboarding = shown ? status : null;
  }

  /** The wizard finished (or was skipped): the chat, with what setup changed, ready to type. */
  #onOnboardingDone = () => {
    this.onboarding = null;
    void this.ui.load();
    void this.sessions.refresh();
    // Ready to type: the chat view mounts with this render, its composer with the view's.
    void this.updateComplete.then(async () => {
      const view = this.renderRoot.querySelector('hermes-chat-view');
      await view?.updateComplete;
      view?.focusComposer();
    });
  };

  #focusComposer() {
    requestAnimationFrame(() => this.renderRoot.querySelector('hermes-chat-view')?.focusComposer());
  }

  override render() {
    if (this.#route === '/login') {
      void import('../settings/hermes-login.js');
      return html`<hermes-login></hermes-login>`;
    }
    if (this.onboarding === 'checking') return html`<div class="checking" aria-busy="true"></div>`;
    if (this.onboarding) return html`<hermes-onboarding .status=${this.onboarding} @hermes-onboarding-done=${this.#onOnboardingDone}></hermes-onboarding>`;
    const ui = this.ui;
    const mobile = this.#mobile.matches;
    return html`
      <div class="layout" ?data-sidebar=${ui.sidebarOpen} ?data-panel=${ui.panelOpen}>
        <aside class="sidebar" ?inert=${!ui.sidebarOpen}>
          <hermes-sidebar></hermes-sidebar>
        </aside>
        ${mobile && ui.sidebarOpen ? html`<div class="scrim" @click=${() => ui.toggleSidebar(false)}></div>` : nothing}
        <main class="main">
          <header class="topbar">
            <button class="icon-button" title="Toggle sidebar (Ctrl+B)" aria-label="Toggle sidebar" @click=${() => ui.toggleSidebar()}>${icons.sidebar()}</button>
            <span class="title">${this.chat.session?.title ?? (this.chat.loading ? '' : 'New chat')}</span>
            <hermes-update-prompt .busy=${this.#reloadRisk}></hermes-update-prompt>
            ${
              this.connection.online
                ? nothing
                : html`<span class="offline" role="status" data-role="offline-indicator" title="The server cannot be reached; messages you send are queued">Offline</span>`
            }
            <button class="icon-button" title="Workspace" aria-label="Toggle workspace panel" aria-pressed=${ui.panelOpen} @click=${() => ui.togglePanel()}>${icons.panel()}</button>
            <button class="icon-button" title="Settings" aria-label="Settings" data-role="open-settings" @click=${() => this.#openSettings()}>${icons.settings()}</button>
          </header>
          ${this.#mainView()}
        </main>
        ${ui.panelOpen ? html`<aside class="panel" data-role="workspace-panel">${this.#panel()}</aside>` : nothing}
      </div>
      ${ui.settingsOpen ? this.#settings() : nothing}
      ${ui.toast ? html`<div class="toast" role="status" data-kind=${ui.toast.kind}>${ui.toast.message}</div>` : nothing}
    `;
  }

  /** The chat, or the control-center panel the URL names. */
  #mainView() {
    const panel = panelFromPath(this.#route);
    return panel ? html`<hermes-panel-host .name=${panel}></hermes-panel-host>` : html`<hermes-chat-view></hermes-chat-view>`;
  }

  #openSettings() {
    void import('../settings/hermes-settings-dialog.js');
    this.ui.openSettings(true);
  }

  #settings() {
    void import('../settings/hermes-settings-dialog.js');
    return html`<hermes-settings-dialog></hermes-settings-dialog>`;
  }

  #panel() {
    // The panel's code loads the first time it opens.
    void import('../workspace/hermes-workspace-panel.js');
    return html`<hermes-workspace-panel @hermes-panel-close=${() => this.ui.togglePanel(false)}></hermes-workspace-panel>`;
  }

  static override styles = [
    baseStyles,
    css`
      :host {
        display: block;
        height: 100dvh;
        background: var(--hermes-bg);
        color: var(--hermes-fg);
      }
      hermes-onboarding {
        height: 100%;
      }
      .layout {
        display: grid;
        grid-template-columns: 0 minmax(0, 1fr) 0;
        height: 100%;
      }
      .layout[data-sidebar] {
        grid-template-columns: var(--hermes-sidebar-width) minmax(0, 1fr) 0;
      }
      .layout[data-panel] {
        grid-template-columns: 0 minmax(0, 1fr) var(--hermes-panel-width);
      }
      .layout[data-sidebar][data-panel] {
        grid-template-columns: var(--hermes-sidebar-width) minmax(0, 1fr) var(--hermes-panel-width);
      }
      .sidebar {
        overflow: hidden;
        background: var(--hermes-panel);
        border-right: var(--hermes-border-width) solid var(--hermes-border);
        min-height: 0;
      }
      .layout:not([data-sidebar]) .sidebar {
        visibility: hidden;
      }
      .main {
        display: flex;
        flex-direction: column;
        min-width: 0;
        min-height: 0;
      }
      .topbar {
        display: flex;
        align-items: center;
        gap: var(--hermes-space-xs);
        padding: var(--hermes-space-xs) var(--hermes-space-sm);
        padding-top: max(var(--hermes-space-xs), env(safe-area-inset-top));
        border-bottom: var(--hermes-border-width) solid var(--hermes-border);
        min-height: 44px;
      }
      .topbar .title {
        flex: 1;
        min-width: 0;
        overflow: hidden;
        text-overflow: ellipsis;
        white-space: nowrap;
        font-size: var(--hermes-text-body);
        color: var(--hermes-fg-muted);
      }
      .offline {
        font-size: var(--hermes-text-label);
        color: var(--hermes-fg-muted);
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-md);
        padding: 0 var(--hermes-space-sm);
      }
      hermes-chat-view {
        flex: 1;
        min-height: 0;
      }
      .panel {
        min-width: 0;
        min-height: 0;
        border-left: var(--hermes-border-width) solid var(--hermes-border);
        background: var(--hermes-panel-subtle);
      }
      .toast {
        position: fixed;
        left: 50%;
        /* Under the top bar: never over the composer or an approval card. */
        top: calc(56px + env(safe-area-inset-top));
        transform: translateX(-50%);
        background: var(--hermes-panel);
        border: var(--hermes-border-width) solid var(--hermes-border);
        border-radius: var(--hermes-radius-md);
        padding: var(--hermes-space-sm) var(--hermes-space-md);
        box-shadow: var(--hermes-shadow-popover);
        max-width: min(90vw, 480px);
        /* /status and /help speak in a few lines. */
        white-space: pre-line;
        z-index: 30;
      }
      .toast[data-kind='error'] {
        border-color: var(--hermes-color-error);
      }
      .scrim {
        position: fixed;
        inset: 0;
        background: var(--hermes-scrim);
        z-index: 10;
      }
      @media (max-width: 639px) {
        .layout,
        .layout[data-sidebar],
        .layout[data-panel],
        .layout[data-sidebar][data-panel] {
          grid-template-columns: minmax(0, 1fr);
        }
        .sidebar {
          position: fixed;
          inset: 0 auto 0 0;
          width: min(86vw, var(--hermes-sidebar-width));
          z-index: 20;
          transform: translateX(-100%);
          transition: transform var(--hermes-duration);
          padding-top: env(safe-area-inset-top);
          padding-bottom: env(safe-area-inset-bottom);
        }
        .layout[data-sidebar] .sidebar {
          transform: none;
        }
        .main {
          grid-column: 1;
        }
        .panel {
          position: fixed;
          inset: 0;
          z-index: 20;
        }
      }
    `,
  ];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-app': HermesApp;
  }
}
