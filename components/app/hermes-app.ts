import { LitElement, html, nothing } from 'lit';
import { customElement, state } from 'lit/decorators.js';
import { provide } from '@lit/context';
import { localized, msg } from '@lit/localize';
import { languageReady, loadScreen } from '../i18n/localization.js';
import { ChatStore } from '../state/chat-store.js';
import { SessionsStore } from '../state/sessions-store.js';
import type { LiveSync } from '../state/live-sync.js';
import { UiStore } from '../state/ui-store.js';
import { ConnectionStore } from '../state/connection-store.js';
import { chatContext, sessionsContext, uiContext } from '../state/contexts.js';
import { StoreController } from '../state/store.js';
import { baseStyles } from '../shared/styles.js';
import { appStyles } from './app-styles.js';
import { icons } from '../shared/icons.js';
import { emit } from '../events.js';
import { api, authEvents, type OnboardingStatus } from '../api/client.js';
import { bucketize } from '../sidebar/date-buckets.js';
import '../sidebar/hermes-sidebar.js';
import '../chat/hermes-chat-view.js';
import './hermes-update-prompt.js';
import '../panels/hermes-panel-host.js';
import '../rail/hermes-rail.js';
import { RailNav } from '../rail/rail-nav.js';
import { railMemory } from '../rail/rail-entries.js';
import { INSPECT_PARAM, type SessionRequest } from '../../src/shared/canonical-session.js';

/** A session's route (`?inspect=1` for explicit history inspection); the empty chat is `/`. */
const sessionUrl = (id: string | null, inspect = false) => (id ? `/session/${encodeURIComponent(id)}${inspect ? `?${INSPECT_PARAM}=1` : ''}` : '/');

const MOBILE = '(max-width: 639px)';
/** How long the first paint waits for the onboarding check before showing the app anyway. */
const ONBOARDING_CHECK_MS = 4000;

/**
 * The application shell: sidebar, chat and the workspace panel; owns the stores (provided as
 * contexts), the URL (`/`, `/session/<id>`, `/panel/<name>`, `/login`, through RailNav) and the
 * global keyboard shortcuts.
 *
 * @fires hermes-open-session - listened for, from any descendant
 */
const loadSettings = () => loadScreen('settings', () => import('../settings/hermes-settings-dialog.js'));

@customElement('hermes-app')
@localized()
export class HermesApp extends LitElement {
  @provide({ context: chatContext }) chat = new ChatStore();
  @provide({ context: sessionsContext }) sessions = new SessionsStore();
  @provide({ context: uiContext }) ui = new UiStore();

  connection = new ConnectionStore();
  /**
   * The one live-sync stream (GET /api/sessions/events): every list change anywhere reaches this
   * tab. Loaded after the first paint (out of the shell), as the first list is being fetched.
   */
  #liveSync: LiveSync | null = null;

  #stores = new StoreController(this, () => [this.ui, this.chat, this.connection]);
  #mobile = window.matchMedia(MOBILE);
  #nav = new RailNav(
    this,
    () => this.chat,
    () => this.#openSettings(),
  );
  /** The phones' panels sheet (the rail's entries; desktop has the rail itself). */
  @state() railSheet = false;
  /**
   * The first-run wizard: `checking` while GET /api/onboarding/status is asked (once, at `/`),
   * the status while the wizard shows, `null` for the normal app.
   */
  @state() onboarding: 'checking' | OnboardingStatus | null = null;

  constructor() {
    super();
    if (this.#mobile.matches) this.ui.sidebarOpen = false;
    this.chat.onSessionChanged = (id, patch) => this.sessions.patch(id, patch);
    // Canonical resolution led elsewhere (a snapshot's tip, a remembered id that is gone): the URL follows, in place.
    this.chat.onRedirected = (id) => this.#showUrl(sessionUrl(id), true);
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
    if (this.chat.status !== 'idle') return msg('A reply is still running.');
    if (this.renderRoot.querySelector('hermes-chat-view')?.hasDraft) return msg('You have an unsent message.');
    return null;
  };

  /** Leaves for the sign-in page (tests replace it). */
  navigate = (url: string) => location.assign(url);
  #leaving = false;

  /** The server no longer knows this browser (signed out elsewhere, expired): sign in again, then come back. */
  #onSignedOut = () => {
    if (this.#nav.route === '/login' || this.#leaving) return;
    this.#leaving = true;
    this.navigate(`/login?next=${encodeURIComponent(location.pathname + location.search)}`);
  };

  #languageWaited = false;
  /** The first render waits for the remembered language's messages (a chunk the service worker keeps): nothing flashes in English first. */
  protected override async scheduleUpdate(): Promise<void> {
    if (!this.#languageWaited) {
      this.#languageWaited = true;
      await languageReady().catch(() => undefined);
    }
    super.scheduleUpdate();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    authEvents.addEventListener('signed-out', this.#onSignedOut);
    window.addEventListener('popstate', this.#onPopState);
    window.addEventListener('keydown', this.#onKeyDown);
    this.addEventListener('hermes-open-session', this.#onOpenSession);
    this.addEventListener('hermes-open-file', this.#onOpenFile);
    this.addEventListener('hermes-rail-select', this.#onRailSelect);
    this.#mobile.addEventListener('change', this.#onMobileChange);
    if (this.#nav.route === '/login') return;
    if (this.#nav.route === '/') void this.#checkOnboarding();
    void this.ui.load();
    void this.sessions.refresh();
    void import('../state/live-sync.js').then(({ LiveSync }) => {
      if (!this.isConnected || this.#liveSync) return;
      this.#liveSync = new LiveSync();
      this.#liveSync.start();
    });
    this.#boot(this.#nav.initialRequest());
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
    this.removeEventListener('hermes-rail-select', this.#onRailSelect);
    this.#mobile.removeEventListener('change', this.#onMobileChange);
    this.#liveSync?.stop();
    this.#liveSync = null;
  }

  /**
   * Boot restore: the requested id (route, `?session=` / `?session_id=`, or the remembered one)
   * becomes the route, then opens through the one resolver; a remembered id is advisory.
   */
  #boot(request: SessionRequest | null) {
    if (request && request.source !== 'route' && !this.#nav.panel) this.#showUrl(sessionUrl(request.id, request.inspect), true);
    void this.chat.open(request?.id ?? null, { inspect: request?.inspect ?? false, advisory: request?.source === 'stored' });
  }

  /** Shows `url` as the chat's route (on a panel: the chat the rail returns to). */
  #showUrl(url: string, replace: boolean) {
    const path = url.replace(/\?.*$/, '');
    if (this.#nav.panel) {
      railMemory.setLastChat(path);
      return;
    }
    if (url !== location.pathname + location.search) history[replace ? 'replaceState' : 'pushState'](null, '', url);
    this.#nav.set(path);
  }

  /** A file named in the transcript opens the panel; the panel itself then shows the file. */
  #onOpenFile = (e: HTMLElementEventMap['hermes-open-file']) => {
    if (this.ui.panelOpen) return;
    this.ui.togglePanel(true);
    // The panel mounts on the next render; hand it the request once it listens.
    void this.updateComplete.then(() => requestAnimationFrame(() => emit(window, 'hermes-open-file', e.detail, { local: true })));
  };

  #onMobileChange = () => {
    this.railSheet = false;
    this.ui.toggleSidebar(!this.#mobile.matches);
  };

  #onPopState = () => this.#nav.popped();

  #onRailSelect = (e: HTMLElementEventMap['hermes-rail-select']) => {
    this.railSheet = false;
    this.#nav.go(e.detail.name);
  };

  #onOpenSession = (e: HTMLElementEventMap['hermes-open-session']) => {
    const id = e.detail.sessionId;
    const inspect = e.detail.inspect === true;
    const url = sessionUrl(id, inspect);
    const path = sessionUrl(id);
    // A queued message got its session while a panel is open: the chat follows, the panel stays.
    if (this.#nav.panel && e.detail.replace) railMemory.setLastChat(path);
    else {
      if (url !== location.pathname + location.search) history[e.detail.replace ? 'replaceState' : 'pushState'](null, '', url);
      this.#nav.set(path);
    }
    // Every direct open (sidebar, search, links) goes through the same resolver (ChatStore.open).
    const opened = id !== this.chat.sessionId || inspect !== this.chat.inspecting ? this.chat.open(id, { inspect }) : Promise.resolve();
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
      else if (this.railSheet) this.railSheet = false;
      else if (this.#mobile.matches && this.ui.sidebarOpen) this.ui.toggleSidebar(false);
    } else if (!mod && !e.altKey && !typing && !this.ui.settingsOpen && (e.key === '[' || e.key === ']' || e.key === '\\')) {
      // The control center: `[`/`]` previous/next rail entry, `\` between the chat and the last panel.
      e.preventDefault();
      if (e.key === '\\') this.#nav.toggleControlCenter();
      else this.#nav.cycle(e.key === ']' ? 1 : -1);
    } else if (!mod && !typing && !this.#nav.panel && (e.key === 'j' || e.key === 'k')) {
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
      ? await loadScreen(['onboarding', 'settings'], () => import('../onboarding/hermes-onboarding.js')).then(
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
    if (this.#nav.route === '/login') {
      return this.#screen('login', () => loadScreen('settings', () => import('../settings/hermes-login.js'))) ? html`<hermes-login></hermes-login>` : nothing;
    }
    if (this.onboarding === 'checking') return html`<div class="checking" aria-busy="true"></div>`;
    if (this.onboarding) return html`<hermes-onboarding .status=${this.onboarding} @hermes-onboarding-done=${this.#onOnboardingDone}></hermes-onboarding>`;
    const ui = this.ui;
    const mobile = this.#mobile.matches;
    // The workspace panel belongs to the chat: it waits while a control-center panel is open.
    const workspace = ui.panelOpen && !this.#nav.panel;
    return html`
      <div class="shell" ?inert=${this.railSheet}>
      ${mobile ? nothing : html`<hermes-rail .active=${this.#nav.active}></hermes-rail>`}
      <div class="layout" ?data-sidebar=${ui.sidebarOpen} ?data-panel=${workspace}>
        <aside class="sidebar" ?inert=${!ui.sidebarOpen}>
          <hermes-sidebar></hermes-sidebar>
        </aside>
        ${mobile && ui.sidebarOpen ? html`<div class="scrim" @click=${() => ui.toggleSidebar(false)}></div>` : nothing}
        <main class="main">
          <header class="topbar">
            <button class="icon-button" title=${msg('Toggle sidebar (Ctrl+B)')} aria-label=${msg('Toggle sidebar')} @click=${() => ui.toggleSidebar()}>${icons.sidebar()}</button>
            <span class="title">${this.#nav.title ?? this.chat.session?.title ?? (this.chat.loading ? '' : msg('New chat'))}</span>
            <hermes-update-prompt .busy=${this.#reloadRisk}></hermes-update-prompt>
            ${
              this.connection.online
                ? nothing
                : html`<span class="offline" role="status" data-role="offline-indicator" title=${msg('The server cannot be reached; messages you send are queued')}>${msg('Offline')}</span>`
            }
            ${
              mobile
                ? html`<button class="icon-button" title=${msg('Panels')} aria-label=${msg('Panels')} aria-haspopup="dialog" aria-expanded=${this.railSheet} data-role="open-panels" @click=${() => (this.railSheet = !this.railSheet)}>${icons.grid()}</button>`
                : nothing
            }
            ${this.#nav.panel ? nothing : html`<button class="icon-button" title=${msg('Workspace')} aria-label=${msg('Toggle workspace panel')} aria-pressed=${ui.panelOpen} @click=${() => ui.togglePanel()}>${icons.panel()}</button>`}
            <button class="icon-button" title=${msg('Settings')} aria-label=${msg('Settings')} data-role="open-settings" @click=${() => this.#openSettings()}>${icons.settings()}</button>
          </header>
          ${this.#mainView()}
        </main>
        ${workspace ? html`<aside class="panel" data-role="workspace-panel">${this.#panel()}</aside>` : nothing}
      </div>
      </div>
      ${mobile && this.railSheet ? html`<hermes-rail variant="sheet" .active=${this.#nav.active} @hermes-rail-close=${() => (this.railSheet = false)}></hermes-rail>` : nothing}
      ${ui.settingsOpen ? this.#settings() : nothing}
      ${ui.toast ? html`<div class="toast" role="status" data-kind=${ui.toast.kind}>${ui.toast.message}</div>` : nothing}
    `;
  }

  /**
   * The chat, or the control-center panel the URL names over it: the chat view stays mounted
   * (hidden, inert) so leaving the panel finds it as it was, scroll and draft included.
   */
  #mainView() {
    const panel = this.#nav.panel;
    return html`<div class="views">
      <hermes-chat-view ?data-hidden=${!!panel} ?inert=${!!panel}></hermes-chat-view>
      ${panel ? html`<hermes-panel-host .name=${panel}></hermes-panel-host>` : nothing}
    </div>`;
  }

  #openSettings() {
    this.#screen('settings', loadSettings);
    this.ui.openSettings(true);
  }

  #settings() {
    return this.#screen('settings', loadSettings) ? html`<hermes-settings-dialog></hermes-settings-dialog>` : nothing;
  }

  #panel() {
    // The panel's code loads the first time it opens.
    return this.#screen('workspace', () => loadScreen('workspace', () => import('../workspace/hermes-workspace-panel.js')))
      ? html`<hermes-workspace-panel @hermes-panel-close=${() => this.ui.togglePanel(false)}></hermes-workspace-panel>`
      : nothing;
  }

  /** Lazily loaded screens whose code and messages are in; each is rendered only then, so it first shows translated. */
  #screens = new Map<string, boolean>();

  /** Whether a lazily loaded screen is ready to render; the first ask starts loading it (a render follows). */
  #screen(name: string, load: () => Promise<unknown>): boolean {
    const ready = this.#screens.get(name);
    if (ready !== undefined) return ready;
    this.#screens.set(name, false);
    // A screen whose code failed to load renders as before: an element that never upgrades.
    const done = () => (this.#screens.set(name, true), this.requestUpdate());
    void load().then(done, done);
    return false;
  }

  static override styles = [baseStyles, appStyles];
}

declare global {
  interface HTMLElementTagNameMap {
    'hermes-app': HermesApp;
  }
}
