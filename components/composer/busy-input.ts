import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { msg, str } from '@lit/localize';
import { api } from '../api/client.js';
import type { ChatStore } from '../state/chat-store.js';
import type { UiStore } from '../state/ui-store.js';
import { messageQueue as sharedQueue, type MessageQueue, type QueueChange, type QueuedMessage } from '../state/message-queue.js';

/** What Send does while a turn runs (the `default_message_mode` setting, or the send menu's pick). */
export type MessageMode = 'steer' | 'queue' | 'interrupt';
export const MESSAGE_MODES: readonly MessageMode[] = ['steer', 'queue', 'interrupt'];

/** Each mode's name, hint and the Send button's tooltip, read when shown (a language switch re-renders). */
export function modeLabel(mode: MessageMode): { label: string; hint: string; title: string } {
  if (mode === 'queue') return { label: msg('Queue'), hint: msg('Send it after this turn ends'), title: msg('While the agent works, Send will queue') };
  if (mode === 'interrupt')
    return { label: msg('Interrupt'), hint: msg('Stop this turn and send it now'), title: msg('While the agent works, Send will interrupt') };
  return { label: msg('Steer'), hint: msg('Hand it to the running turn at its next step'), title: msg('While the agent works, Send will steer') };
}

/** Why a steer was not taken, as the quiet toast says it (the server's `fallback` codes). */
function steerRefusal(fallback: string | null | undefined): string {
  if (fallback === 'gateway_steer_queued') return msg('Hermes Agent cannot take messages mid-turn: queued for after this turn.');
  if (fallback === 'not_running') return msg('The turn was ending: your message is queued for after it.');
  if (fallback) return msg(str`The turn could not take it now (${fallback}): queued for after this turn.`);
  return msg('The turn could not take it now: queued for after this turn.');
}

export interface BusyInputHost extends ReactiveControllerHost {
  chat?: ChatStore;
  ui?: UiStore;
  /** Gives text back to the input (a steer that failed). */
  restoreText(text: string): void;
  /** Where queued messages are kept; absent: the app's (localStorage). */
  messageQueue?: MessageQueue;
}

/**
 * The busy composer: what Send does while a turn runs (steer, queue, interrupt), the open
 * session's queue (shown as chips), and its draining — one entry each time the session is idle
 * again, in order, exactly once across tabs (MessageQueue.drainOne).
 */
export class BusyInput implements ReactiveController {
  /** The send menu's choice for the next message only; null: the setting. */
  override: MessageMode | null = null;
  #draining = false;
  /** After a queued message failed to send: wait for the next turn or a change to the queue. */
  #paused = false;
  #wasIdle = true;
  #retry: ReturnType<typeof setTimeout> | null = null;
  #onQueueChange = (e: Event) => {
    this.#paused = false;
    this.host.requestUpdate();
    const { sid, external } = (e as CustomEvent<QueueChange>).detail ?? {};
    const chat = this.host.chat;
    if (!external || !chat?.sessionId || (sid !== null && sid !== chat.sessionId)) return;
    // Another tab took an entry and is starting its turn: once it has, follow that turn here.
    const open = chat.sessionId;
    const count = this.queue.list(open).length;
    if (count < this.#seen && chat.status === 'idle' && !this.#draining) {
      void this.queue
        .settled(open)
        .then(() => (chat.sessionId === open && chat.status === 'idle' ? chat.reload() : undefined))
        .catch(() => {});
    }
    this.#seen = count;
  };
  /** How many entries the open session's queue had at the last look (a drop means another tab sent one). */
  #seen = 0;

  /** The host's queue (set before it connects), else the app's. */
  queue: MessageQueue = sharedQueue;

  constructor(private readonly host: BusyInputHost) {
    host.addController(this);
  }

  hostConnected(): void {
    this.queue = this.host.messageQueue ?? sharedQueue;
    this.queue.addEventListener('change', this.#onQueueChange);
  }

  hostDisconnected(): void {
    this.queue.removeEventListener('change', this.#onQueueChange);
    if (this.#retry) clearTimeout(this.#retry);
    this.#retry = null;
  }

  hostUpdated(): void {
    const idle = this.host.chat?.status === 'idle';
    if (idle && !this.#wasIdle) this.#paused = false;
    // A pick from the send menu is for a message typed during this turn, not a later one.
    if (idle) this.override = null;
    this.#wasIdle = idle;
    void this.#drain();
  }

  /** The mode Send uses now. */
  get mode(): MessageMode {
    if (this.override) return this.override;
    const setting = this.host.ui?.settings?.default_message_mode;
    return MESSAGE_MODES.includes(setting as MessageMode) ? (setting as MessageMode) : 'steer';
  }

  /** While a turn runs, the input's placeholder says what Send will do. */
  placeholder(bot: string): string {
    if (this.mode === 'queue') return msg(str`${bot} is working… Send queues for after this turn`);
    if (this.mode === 'interrupt') return msg(str`${bot} is working… Send stops this turn and sends`);
    return msg(str`${bot} is working… Send steers this turn`);
  }

  /** The send menu's choice: that mode for the next message only. */
  pick(mode: MessageMode, then?: () => void): void {
    this.override = mode;
    this.host.requestUpdate();
    then?.();
  }

  /** The open session's queue, in sending order. */
  get items(): QueuedMessage[] {
    const sid = this.host.chat?.sessionId;
    const items = sid ? this.queue.list(sid) : [];
    this.#seen = items.length;
    return items;
  }

  edit(id: number, text: string): void {
    const sid = this.host.chat?.sessionId;
    if (sid) this.queue.edit(sid, id, text);
  }

  remove(id: number): void {
    const sid = this.host.chat?.sessionId;
    if (sid) this.queue.remove(sid, id);
  }

  move(id: number, to: number): void {
    const sid = this.host.chat?.sessionId;
    if (sid) this.queue.move(sid, id, to);
  }

  /** Handles a message sent while a turn runs (the input is already cleared). */
  async submit(text: string, files: string[], mode: MessageMode = this.mode): Promise<void> {
    const chat = this.host.chat;
    const ui = this.host.ui;
    const sid = chat?.sessionId;
    if (!chat || !sid) return;
    this.override = null;
    const model = chat.session?.model ?? '';
    if (mode === 'queue') {
      this.queue.add(sid, { text, files, model });
      const short = text.length > 40 ? `${text.slice(0, 40)}…` : text;
      ui?.notify(msg(str`Queued: “${short}”`));
      return;
    }
    if (mode === 'interrupt') {
      // First in line, then the stop: the drain sends it as soon as the turn has ended.
      this.queue.add(sid, { text, files, model }, 'front');
      ui?.notify(msg('Stopping the current turn; your message goes next.'));
      await chat.cancel();
      return;
    }
    if (files.length) {
      // A steer carries text only: attachments wait for a turn of their own.
      this.queue.add(sid, { text, files, model });
      ui?.notify(msg('Steering takes text only: queued with its attachments for after this turn.'));
      return;
    }
    let result: Awaited<ReturnType<ChatStore['steer']>>;
    try {
      result = await chat.steer(text);
    } catch (err) {
      this.host.restoreText(text);
      ui?.notify(msg(str`Could not steer: ${(err as Error).message}`), 'error');
      return;
    }
    if (result.accepted) return;
    if (chat.status === 'idle' && chat.sessionId === sid) {
      // The turn ended while the steer was on its way: this starts the next one.
      ui?.notify(msg('The turn had just ended: sent as a new message.'));
      try {
        await chat.send(text);
      } catch {
        this.host.restoreText(text);
      }
      return;
    }
    this.queue.add(sid, { text, files: [], model });
    ui?.notify(steerRefusal(result.fallback));
  }

  /** Pauses draining for a few seconds (then the next update looks again). */
  #later(): void {
    this.#paused = true;
    this.#retry ??= setTimeout(() => {
      this.#retry = null;
      this.#paused = false;
      this.host.requestUpdate();
    }, 3000);
  }

  /** Sends the queue's first entry when the open session is idle (one per turn). */
  async #drain(): Promise<void> {
    const chat = this.host.chat;
    const sid = chat?.sessionId;
    if (!chat || !sid || this.#draining || this.#paused) return;
    // A cached or half-loaded copy may not know a turn runs: wait for the server's.
    if (chat.status !== 'idle' || chat.loading || chat.cached || chat.unreachable) return;
    if (!this.queue.list(sid).length) return;
    this.#draining = true;
    try {
      const result = await this.queue.drainOne(sid, {
        idle: async () => {
          if (chat.sessionId !== sid || chat.status !== 'idle') return false;
          const s = await api.session(sid, { msgLimit: 1 });
          return !s.active_stream_id && chat.sessionId === sid && chat.status === 'idle';
        },
        send: async (m) => {
          if (chat.sessionId !== sid || chat.status !== 'idle') throw new Error('not idle');
          await chat.send(m.text, m.files.length ? { attachments: m.files } : {});
        },
      });
      if (result === 'failed') {
        this.#paused = true;
        this.host.ui?.notify(msg('A queued message could not be sent: it stays in the queue.'), 'error');
      } else if (result === 'busy') {
        // Another tab started a turn here (or holds the queue): follow it, and look again later.
        if (chat.sessionId === sid) void chat.reload().catch(() => {});
        this.#later();
      }
    } catch {
      // The idle check could not reach the server: look again in a moment.
      this.#later();
    } finally {
      this.#draining = false;
      this.host.requestUpdate();
    }
  }
}
