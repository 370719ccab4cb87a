import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ChatStore } from '../state/chat-store.js';
import { isPanelName, type PanelName } from '../panels/registry.js';
import { RAIL_ENTRIES, railLabel, railMemory, type RailTarget } from './rail-entries.js';
import { inspectRequested, requestedSession, type SessionRequest } from '../../src/shared/canonical-session.js';
import { lastActive } from '../state/last-active.js';

/** The control-center panel a path names (`/panel/<name>`), or null for the chat. */
export function panelFromPath(path: string): PanelName | null {
  const m = /^\/panel\/([a-z]+)\/?$/.exec(path);
  return m && isPanelName(m[1]!) ? m[1] : null;
}

export function sessionFromPath(path: string): string | null {
  const m = /^\/session\/([^/?#]+)/.exec(path);
  return m ? decodeURIComponent(m[1]!) : null;
}

/** The panel the control-center shortcut opens the first time. */
const FIRST_PANEL: PanelName = 'skills';

/**
 * The app's route (`/`, `/session/<id>`, `/panel/<name>`, `/login`) and the rail's moves over
 * it. Panels sit beside the chat, not instead of it: moving to or from a panel never re-opens
 * the chat's session, so the chat view (kept mounted, hidden) is where it was.
 */
export class RailNav implements ReactiveController {
  route = location.pathname;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly chat: () => ChatStore,
    private readonly openSettings: () => void,
  ) {
    host.addController(this);
    this.#remember();
  }

  hostConnected(): void {}

  get panel(): PanelName | null {
    return panelFromPath(this.route);
  }

  /** The rail entry for what the main view shows. */
  get active(): RailTarget {
    return this.panel ?? 'chat';
  }

  /** The open panel's name for the top bar, or null on the chat. */
  get title(): string | null {
    const panel = this.panel;
    return panel ? railLabel(panel) : null;
  }

  /**
   * The session the chat is asked for at start (boot restore): the URL's route or query, or on a
   * panel URL the chat last open in this tab, else the browser's last active session. Canonicalised
   * when opened (ChatStore.open), as every other entry point is.
   */
  initialRequest(): SessionRequest | null {
    const panel = this.panel;
    return requestedSession({ path: panel ? railMemory.lastChat() : this.route, search: panel ? '' : location.search, stored: lastActive.get() });
  }

  /** The route changed through the app (a session opened): the path it shows now. */
  set(path: string): void {
    this.route = path;
    this.#remember();
    this.host.requestUpdate();
  }

  /** A rail entry: Settings opens the dialog; Chat returns to the last chat; a panel opens (a history entry each). */
  go(target: RailTarget): void {
    if (target === 'settings') {
      this.openSettings();
      return;
    }
    const path = target === 'chat' ? railMemory.lastChat() : `/panel/${target}`;
    if (path !== location.pathname) history.pushState(null, '', path);
    this.set(path);
    if (target === 'chat') this.#syncChat();
  }

  /** Back/Forward: follow the URL; the chat is re-opened only when its session differs. */
  popped(): void {
    this.set(location.pathname);
    if (!this.panel) this.#syncChat();
  }

  /** `[` / `]`: the previous or next entry, Chat and the panels (not Settings), wrapping. */
  cycle(step: 1 | -1): void {
    const names: RailTarget[] = RAIL_ENTRIES.map((e) => e.name).filter((n) => n !== 'settings');
    const at = names.indexOf(this.active);
    this.go(names[(at + step + names.length) % names.length]!);
  }

  /** `\`: from the chat to the last panel used, from a panel back to the chat. */
  toggleControlCenter(): void {
    this.go(this.panel ? 'chat' : railMemory.lastPanel(FIRST_PANEL));
  }

  #syncChat() {
    const chat = this.chat();
    const id = sessionFromPath(this.route);
    if (id !== chat.sessionId) void chat.open(id, { inspect: inspectRequested(location.search) });
  }

  #remember() {
    const panel = this.panel;
    if (panel) railMemory.setLastPanel(panel);
    else if (this.route === '/' || sessionFromPath(this.route)) railMemory.setLastChat(this.route);
  }
}
