import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ChatStore } from '../state/chat-store.js';
import type { UiStore } from '../state/ui-store.js';
import type { Message } from '../api/client.js';

/** What a finished turn may do: the chime and the system notification (tests pass their own). */
export interface AlertOutputs {
  chime(): void;
  notify(title: string, body: string): void;
  /** Whether the page is out of sight now. */
  hidden(): boolean;
}

/** The chime and the notification are fetched when a turn first needs them (out of the shell). */
const outputs = () => import('./turn-alert-outputs.js');

export const browserOutputs: AlertOutputs = {
  chime: () => void outputs().then((m) => m.playChime()),
  notify: (title, body) => void outputs().then((m) => m.showNotification(title, body)),
  hidden: () => document.visibilityState === 'hidden',
};

/** The answer's first words, for the notification (the incumbent cuts at 100 characters). */
export function answerPreview(messages: readonly Message[]): string {
  const last = messages[messages.length - 1];
  if (last?.role !== 'assistant') return '';
  const c = last.content as unknown;
  const text = typeof c === 'string' ? c : Array.isArray(c) ? c.map((p) => (typeof p?.text === 'string' ? p.text : '')).join(' ') : '';
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 100 ? `${flat.slice(0, 100)}…` : flat;
}

/**
 * When a turn of the open chat ends with an answer (not a cancel or an error): the chime with
 * `sound_enabled` (every time, as the incumbent), and a system notification with
 * `notifications_enabled` when the page was out of sight at some point during the turn.
 */
export class TurnAlerts implements ReactiveController {
  #chat: ChatStore | undefined;
  #running = false;
  #session: string | null = null;
  #hiddenDuring = false;
  #onChange = () => this.#check();
  #onVisibility = () => {
    if (this.#running && this.outputs.hidden()) this.#hiddenDuring = true;
  };

  constructor(
    host: ReactiveControllerHost,
    private readonly chat: () => ChatStore | undefined,
    private readonly ui: () => UiStore | undefined,
    private readonly outputs: AlertOutputs = browserOutputs,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    document.addEventListener('visibilitychange', this.#onVisibility);
    this.hostUpdated();
  }

  hostUpdated(): void {
    // The context can arrive (or change) after connection.
    const chat = this.chat();
    if (chat === this.#chat) return;
    this.#chat?.removeEventListener('change', this.#onChange);
    this.#chat = chat;
    chat?.addEventListener('change', this.#onChange);
    this.#running = false;
  }

  hostDisconnected(): void {
    document.removeEventListener('visibilitychange', this.#onVisibility);
    this.#chat?.removeEventListener('change', this.#onChange);
    this.#chat = undefined;
  }

  #check(): void {
    const chat = this.#chat;
    if (!chat) return;
    const running = chat.status !== 'idle';
    if (running && !this.#running) {
      this.#session = chat.sessionId;
      this.#hiddenDuring = this.outputs.hidden();
    }
    if (running && this.outputs.hidden()) this.#hiddenDuring = true;
    const ended = this.#running && !running && chat.sessionId === this.#session;
    this.#running = running;
    if (!ended || chat.error || !this.#answered(chat.messages)) return;
    const settings = this.ui()?.settings;
    if (settings?.sound_enabled === true) this.outputs.chime();
    if (settings?.notifications_enabled === true && (this.#hiddenDuring || this.outputs.hidden())) {
      this.outputs.notify(`${settings.bot_name || 'Hermes'}: response complete`, answerPreview(chat.messages) || 'Task finished');
    }
  }

  /** The turn stored an answer: not a cancelled partial or an error notice. */
  #answered(messages: readonly Message[]): boolean {
    const last = messages[messages.length - 1] as (Message & Record<string, unknown>) | undefined;
    return last?.role === 'assistant' && !last._partial && !last._error && !last._interrupted;
  }
}
