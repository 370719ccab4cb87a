/** Shared set-up for the composer tests: real stores with recorded calls, no provider needed. */
import { ChatStore } from '../../../components/state/chat-store.js';
import { UiStore } from '../../../components/state/ui-store.js';
import { SessionsStore } from '../../../components/state/sessions-store.js';
import type { ApiSession, Settings } from '../../../components/api/client.js';

export const CATALOG = {
  default_model: 'm',
  active_provider: 'custom',
  models: [
    { id: 'm', label: 'm', provider: 'custom' },
    { id: 'custom:lab:qwen3-8b', label: 'qwen3-8b', provider: 'custom:lab' },
  ],
  groups: [
    { provider: 'custom', models: [{ id: 'm', label: 'm', provider: 'custom' }] },
    { provider: 'custom:lab', models: [{ id: 'custom:lab:qwen3-8b', label: 'qwen3-8b', provider: 'custom:lab' }] },
  ],
};

export function session(id: string, fields: Partial<ApiSession> = {}): ApiSession {
  return {
    session_id: id,
    title: `Chat ${id}`,
    workspace: '/home/me/projects/atlas',
    model: null,
    created_at: 1,
    updated_at: 1,
    pinned: false,
    archived: false,
    project_id: null,
    messages: [],
    message_count: 0,
    ...fields,
  };
}

export interface Stores {
  chat: ChatStore;
  ui: UiStore;
  sessions: SessionsStore;
  sent: Array<{ text: string; options: unknown }>;
  toasts: Array<{ message: string; kind: string }>;
  cancelled: number;
}

/** Stores whose network-facing actions are recorded instead of performed. */
export function makeStores(settings: Partial<Settings> = {}): Stores {
  const chat = new ChatStore();
  const ui = new UiStore();
  const sessions = new SessionsStore();
  const rec: Stores = { chat, ui, sessions, sent: [], toasts: [], cancelled: 0 };
  ui.settings = { theme: 'dark', send_key: 'enter', show_thinking: true, font_size: 'default', default_workspace: '/home/me', bot_name: 'Hermes', ...settings };
  ui.notify = (message, kind = 'info') => void rec.toasts.push({ message, kind });
  chat.send = async (text, options = {}) => void rec.sent.push({ text, options });
  chat.cancel = async () => void rec.cancelled++;
  sessions.refresh = async () => {};
  return rec;
}

/** Puts the chat on a session as if it had been opened (ChatStore.changed is protected). */
export function openSession(chat: ChatStore, s: ApiSession | null): void {
  chat.session = s;
  chat.messages = s?.messages ?? [];
  chat.dispatchEvent(new Event('change'));
}

export function setStatus(chat: ChatStore, status: ChatStore['status']): void {
  chat.status = status;
  chat.dispatchEvent(new Event('change'));
}
