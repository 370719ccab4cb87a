import { msg, str } from '@lit/localize';
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ChatStore } from '../state/chat-store.js';
import type { UiStore } from '../state/ui-store.js';
import type { Message, PendingApproval, PendingClarify } from '../api/client.js';
import { emit, listen } from '../events.js';

/** Something waiting on a person, or task runs that completed: notified while the page is out of sight. */
export type Attention =
  | { kind: 'pending'; sessionId: string; approval: PendingApproval | null; clarify: PendingClarify | null }
  | { kind: 'session'; sessionId: string }
  | { kind: 'tasks' };

/** What a finished turn may do: the chime and the system notification (tests pass their own). */
export interface AlertOutputs {
  chime(): void;
  /** `sessionId`: the session the notification is about (its tag is the push payload's, so one replaces the other). */
  notify(title: string, body: string, sessionId?: string): void;
  /** Whether the page is out of sight now. */
  hidden(): boolean;
  /** An approval, question or task run to tell about; `open` shows a session in this tab. */
  attention?(what: Attention, bot: string, open: (sessionId: string | null) => void): void;
}

/** The chime and the notification are fetched when a turn first needs them (out of the shell). */
const outputs = () => import('./turn-alert-outputs.js');

export const browserOutputs: AlertOutputs = {
  chime: () => void outputs().then((m) => m.playChime()),
  notify: (title, body, sessionId) => void outputs().then((m) => m.showNotification(title, body, sessionId)),
  hidden: () => document.visibilityState === 'hidden',
  attention: (what, bot, open) =>
    void import('./attention-notify.js')
      .then((m) =>
        what.kind === 'pending'
          ? m.notifyPending(what.sessionId, what, bot, open)
          : what.kind === 'session'
            ? m.notifyAttention(what.sessionId, bot, open)
            : m.notifyTasks(open),
      )
      .catch(() => {}),
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
  /** The approval or question of the open chat last told about. */
  #pending: string | undefined;
  #stopListening: (() => void) | undefined;
  #open = (sessionId: string | null) => emit(this.host as unknown as EventTarget, 'hermes-open-session', { sessionId });
  /** The service worker's notification click asks this tab to show a session. */
  #onWorkerMessage = (e: MessageEvent) => {
    const d = e.data as { type?: string; session_id?: string | null } | null;
    if (d?.type === 'hermes-open-session') this.#open(d.session_id ?? null);
  };

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly chat: () => ChatStore | undefined,
    private readonly ui: () => UiStore | undefined,
    private readonly outputs: AlertOutputs = browserOutputs,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    document.addEventListener('visibilitychange', this.#onVisibility);
    navigator.serviceWorker?.addEventListener('message', this.#onWorkerMessage);
    // Live sync: another session waits on a person, or a task run completed.
    this.#stopListening = listen(window, 'hermes-sessions-changed', (e) => {
      const { reason, session_id } = e.detail;
      if (reason === 'attention_pending' && session_id && session_id !== this.#chat?.sessionId) this.#tell({ kind: 'session', sessionId: session_id });
      else if (reason === 'cron_complete') this.#tell({ kind: 'tasks' });
    });
    this.hostUpdated();
  }

  /** Only out of sight and with `notifications_enabled`: in sight, the card or the panel says it. */
  #tell(what: Attention): void {
    const settings = this.ui()?.settings;
    if (settings?.notifications_enabled !== true || !this.outputs.hidden()) return;
    this.outputs.attention?.(what, settings.bot_name || 'Hermes', this.#open);
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
    navigator.serviceWorker?.removeEventListener('message', this.#onWorkerMessage);
    this.#stopListening?.();
    this.#chat?.removeEventListener('change', this.#onChange);
    this.#chat = undefined;
  }

  #check(): void {
    const chat = this.#chat;
    if (!chat) return;
    const waiting = chat.approval?.approval_id ?? chat.clarify?.clarify_id;
    if (waiting !== this.#pending) {
      this.#pending = waiting;
      if (waiting && chat.sessionId) this.#tell({ kind: 'pending', sessionId: chat.sessionId, approval: chat.approval, clarify: chat.clarify });
    }
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
      const bot = settings.bot_name || 'Hermes';
      this.outputs.notify(msg(str`${bot}: response complete`), answerPreview(chat.messages) || msg('Task finished'), this.#session ?? undefined);
    }
  }

  /** The turn stored an answer: not a cancelled partial or an error notice. */
  #answered(messages: readonly Message[]): boolean {
    const last = messages[messages.length - 1] as (Message & Record<string, unknown>) | undefined;
    return last?.role === 'assistant' && !last._partial && !last._error && !last._interrupted;
  }
}
