/**
 * A host that provides the app's stores as contexts, so an element that consumes them can be
 * tested alone: `await mountWith('hermes-workspace-panel', { chat, ui })`.
 */
import { LitElement, html } from 'lit';
import { unsafeStatic, html as staticHtml } from 'lit/static-html.js';
import { ContextProvider } from '@lit/context';
import { chatContext, sessionsContext, uiContext } from '../../../components/state/contexts.js';
import { ChatStore } from '../../../components/state/chat-store.js';
import { SessionsStore } from '../../../components/state/sessions-store.js';
import { UiStore } from '../../../components/state/ui-store.js';
import type { ApiSession, Settings } from '../../../components/api/client.js';
import { fixture } from '../helpers.js';

class TestProviders extends LitElement {
  chat = new ChatStore();
  sessions = new SessionsStore();
  ui = new UiStore();
  tag = '';
  constructor() {
    super();
    new ContextProvider(this, { context: chatContext, initialValue: this.chat });
    new ContextProvider(this, { context: sessionsContext, initialValue: this.sessions });
    new ContextProvider(this, { context: uiContext, initialValue: this.ui });
  }
  override render() {
    return this.tag ? staticHtml`<${unsafeStatic(this.tag)}></${unsafeStatic(this.tag)}>` : html``;
  }
}
customElements.define('test-providers', TestProviders);

export const SETTINGS: Settings = {
  theme: 'dark',
  send_key: 'enter',
  show_thinking: true,
  font_size: 'default',
  default_workspace: '/home/me/work',
  bot_name: 'Hermes',
  webui_version: '0.1.0',
};

export function session(id = 'abc123', workspace = '/home/me/work'): ApiSession {
  return { session_id: id, title: 'Test', workspace, created_at: 1, updated_at: 1, messages: [], message_count: 0 } as ApiSession;
}

/** Mounts `tag` under providers whose stores hold `session` (open chat) and `settings`. */
export async function mountWith<T extends HTMLElement>(tag: string, opts: { session?: ApiSession | null; settings?: Settings } = {}) {
  const host = await fixture<TestProviders>('test-providers');
  host.chat.session = opts.session ?? null;
  host.ui.settings = opts.settings ?? { ...SETTINGS };
  host.tag = tag;
  host.requestUpdate();
  await host.updateComplete;
  const el = host.renderRoot.querySelector(tag) as T & LitElement;
  await el.updateComplete;
  return { host, el, chat: host.chat, ui: host.ui, sessions: host.sessions };
}
