import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ChatStore } from '../state/chat-store.js';
import type { Message } from '../api/client.js';

/** The markdown-to-words code stays out of the shell: fetched when the first answer ends. */
const speakable = () => import('./speakable-text.js').then((m) => m.speakableText);

/** Longer answers are cut here: the live region gives the gist, the transcript holds the rest. */
const MAX_SPOKEN = 1000;

/** The text of the turn's stored answer, when it is one (not a cancelled partial or an error notice). */
function answerText(messages: readonly Message[]): string {
  const last = messages[messages.length - 1] as (Message & Record<string, unknown>) | undefined;
  if (last?.role !== 'assistant' || last._partial || last._error || last._interrupted) return '';
  const c = last.content as unknown;
  return typeof c === 'string' ? c : Array.isArray(c) ? c.map((p) => (typeof p?.text === 'string' ? p.text : '')).join(' ') : '';
}

/**
 * What the chat's polite live region says: the finished answer, once, when a turn of the open
 * chat ends, instead of the transcript speaking every streamed token. Errors (role="alert") and
 * approvals (role="alertdialog") announce themselves assertively where they render.
 */
export class TurnAnnouncer implements ReactiveController {
  /** The region's text: the last finished answer as words to say. */
  text = '';
  #chat: ChatStore | undefined;
  #running = false;
  #session: string | null = null;
  #onChange = () => this.#check();

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly chat: () => ChatStore | undefined,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    this.hostUpdated();
  }

  hostUpdated(): void {
    // The context can arrive (or change) after connection.
    const chat = this.chat();
    if (chat === this.#chat) return;
    this.#chat?.removeEventListener('change', this.#onChange);
    this.#chat = chat;
    chat?.addEventListener('change', this.#onChange);
    this.#running = chat ? chat.status !== 'idle' : false;
    this.#session = chat?.sessionId ?? null;
  }

  hostDisconnected(): void {
    this.#chat?.removeEventListener('change', this.#onChange);
    this.#chat = undefined;
  }

  #check(): void {
    const chat = this.#chat;
    if (!chat) return;
    const running = chat.status !== 'idle';
    if (running && !this.#running) this.#session = chat.sessionId;
    const ended = this.#running && !running && chat.sessionId === this.#session;
    this.#running = running;
    if (!ended) return;
    const answer = answerText(chat.messages);
    if (!answer) return;
    void speakable().then((words) => {
      const said = words(answer);
      if (!said || chat !== this.#chat) return;
      this.text = said.length > MAX_SPOKEN ? `${said.slice(0, MAX_SPOKEN)}…` : said;
      this.host.requestUpdate();
    });
  }
}
