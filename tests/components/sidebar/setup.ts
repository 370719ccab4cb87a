/** Shared set-up for the sidebar tests: rows, a context-providing host, fetch stubs. */
import { LitElement, html } from 'lit';
import { ContextProvider } from '@lit/context';
import { chatContext, sessionsContext, uiContext } from '../../../components/state/contexts.js';
import { ChatStore } from '../../../components/state/chat-store.js';
import { SessionsStore, type SessionListRow } from '../../../components/state/sessions-store.js';
import { UiStore } from '../../../components/state/ui-store.js';
import type { ApiSession, Project } from '../../../components/api/client.js';
import { fixture, stubFetch, waitFor, type FetchCall } from '../helpers.js';
import type { HermesSidebar } from '../../../components/sidebar/hermes-sidebar.js';
import '../../../components/sidebar/hermes-sidebar.js';

const DAY = 86_400;
/** Epoch seconds, `days` before now (fractional days allowed). */
export const ago = (days: number) => Date.now() / 1000 - days * DAY;
/**
 * Epoch seconds a little before now but still today (local): `ago(0.01)` lands in "Yesterday"
 * for the first quarter hour after midnight, which made bucket tests fail then.
 */
export const earlierToday = (seconds: number) => Math.max(Date.now() / 1000 - seconds, new Date().setHours(0, 0, 0, 1) / 1000);

export function row(id: string, fields: Partial<SessionListRow> = {}): SessionListRow {
  return {
    session_id: id,
    title: `Chat ${id}`,
    message_count: 1,
    created_at: ago(30),
    updated_at: ago(0),
    pinned: false,
    archived: false,
    project_id: null,
    ...fields,
  };
}

export const PROJECTS: Project[] = [
  { project_id: 'p1', name: 'Atlas', color: '#86c08b', created_at: 1 },
  { project_id: 'p2', name: 'Zephyr', color: '#8fb3c6', created_at: 2 },
];

/** The design tokens, as the app's page has them (the palette resolves through them). */
async function loadTokens(): Promise<void> {
  if (document.querySelector('link[data-tokens]')) return;
  const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href: '/components/styles/tokens.css' });
  link.dataset.tokens = '';
  const loaded = new Promise((resolve) => link.addEventListener('load', resolve, { once: true }));
  document.head.append(link);
  await loaded;
}

/** Provides the three stores as contexts to a <hermes-sidebar> inside it. */
class SidebarTestHost extends LitElement {
  chat = new ChatStore();
  sessions = new SessionsStore();
  ui = new UiStore();
  toasts: Array<{ message: string; kind: string }> = [];
  constructor() {
    super();
    new ContextProvider(this, { context: chatContext, initialValue: this.chat });
    new ContextProvider(this, { context: sessionsContext, initialValue: this.sessions });
    new ContextProvider(this, { context: uiContext, initialValue: this.ui });
    this.ui.notify = (message, kind = 'info') => void this.toasts.push({ message, kind });
  }
  override render() {
    return html`<hermes-sidebar style="display: flex; height: 600px; width: 272px"></hermes-sidebar>`;
  }
}
customElements.define('sidebar-test-host', SidebarTestHost);

export interface Mounted {
  host: SidebarTestHost;
  sidebar: HermesSidebar;
  calls: FetchCall[];
  restore: () => void;
  /** Queries inside the sidebar, its list, and its chips (the shadow roots tests care about). */
  $: (sel: string) => HTMLElement | null;
  $$: (sel: string) => HTMLElement[];
  rowEl: (id: string) => HTMLElement & { shadowRoot: ShadowRoot };
  menu: () => (HTMLElement & { shadowRoot: ShadowRoot }) | null;
}

/**
 * Mounts the sidebar over stubbed API routes (list and projects by default, more via
 * `routes`) and waits for the first rows.
 */
export async function mountSidebar(rows: SessionListRow[], routes: Record<string, unknown> = {}, projects: Project[] = PROJECTS): Promise<Mounted> {
  const stub = stubFetch({
    'GET /api/sessions': () => ({ sessions: rows, total: rows.length, archived_count: 0 }),
    'GET /api/projects': { projects },
    ...routes,
  });
  await loadTokens();
  const host = await fixture<SidebarTestHost>('sidebar-test-host');
  await host.sessions.refresh();
  const sidebar = host.shadowRoot!.querySelector('hermes-sidebar')!;
  await sidebar.updateComplete;
  const roots = () => {
    const sb = sidebar.shadowRoot!;
    const list = sb.querySelector('hermes-session-list')?.shadowRoot;
    const chips = sb.querySelector('hermes-project-chips')?.shadowRoot;
    return [sb, list, chips].filter((r): r is ShadowRoot => !!r);
  };
  const $$ = (sel: string) => roots().flatMap((r) => [...r.querySelectorAll<HTMLElement>(sel)]);
  const m: Mounted = {
    host,
    sidebar,
    calls: stub.calls,
    restore: stub.restore,
    $: (sel) => $$(sel)[0] ?? null,
    $$,
    rowEl: (id) => $$(`[data-role="session-row"][data-session-id="${id}"]`)[0] as HTMLElement & { shadowRoot: ShadowRoot },
    menu: () => sidebar.shadowRoot!.querySelector('hermes-session-menu') as (HTMLElement & { shadowRoot: ShadowRoot }) | null,
  };
  if (rows.length) await waitFor(() => m.$$('[data-role="session-row"]').length > 0);
  return m;
}

/** Opens a row's ⋯ menu and returns the menu's shadow root. */
export async function openMenu(m: Mounted, id: string): Promise<ShadowRoot> {
  m.rowEl(id).shadowRoot.querySelector<HTMLElement>('[data-role="row-menu-button"]')!.click();
  await waitFor(() => !!m.menu()?.shadowRoot?.querySelector('[role="menu"]'));
  return m.menu()!.shadowRoot;
}

/** Puts the chat on a session as if it had been opened (ChatStore.changed is protected). */
export function openChat(chat: ChatStore, r: SessionListRow): void {
  chat.session = { ...r, messages: [] } as ApiSession;
  chat.dispatchEvent(new Event('change'));
}

export const titles = (m: Mounted) => m.$$('[data-role="session-row"]').map((el) => el.shadowRoot!.querySelector('.title')?.textContent);
