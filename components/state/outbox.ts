import { api, ApiError, type ApiSession, type Message } from '../api/client.js';
import { offlineCache, type OutboxItem } from '../offline/cache.js';

type Started = Awaited<ReturnType<typeof api.startChat>>;

/** What the outbox needs of the chat store while it sends. */
export interface OutboxHost {
  /** Resolves when no run is going in `sessionId` (the server takes one turn at a time per session). */
  waitIdle(sessionId: string): Promise<void>;
  /** The server accepted a queued message and started its turn. */
  started(sessionId: string, started: Started): Promise<void>;
  /** A message queued in the empty view has created its session. */
  created(sessionId: string): void;
  /** A queued message was refused for good (it leaves the outbox). */
  failed(message: string): void;
  /** The list changed (shown as queued messages). */
  changed(): void;
}

/**
 * Messages typed while the server was unreachable, oldest first, persisted in IndexedDB and
 * sent in order once it answers. Each entry names the session it was typed in — the one the
 * URL names, even when this device has no copy of it — or null for the empty new-chat view,
 * whose conversation is created when it is sent. An entry is never moved to another session.
 */
export class Outbox {
  items: OutboxItem[] = [];
  #draining: Promise<void> | null = null;

  constructor(private readonly host: OutboxHost) {}

  /** Reads the persisted outbox (at startup). */
  async load(): Promise<void> {
    this.items = await offlineCache.outbox();
    this.host.changed();
  }

  has(sessionId: string | null): boolean {
    return this.items.some((i) => i.sessionId === sessionId);
  }

  /** Puts a message in the outbox, written at once (it must survive a reload). */
  async add(sessionId: string | null, text: string): Promise<void> {
    const item = await offlineCache.enqueue({ sessionId, text });
    this.items = [...this.items, item];
    this.host.changed();
  }

  /** `messages` followed by the entries for `sessionId`, as queued user messages. */
  shownWith(messages: Message[], sessionId: string | null): Message[] {
    const settled = messages.filter((m) => !m._queued);
    const queued = this.items
      .filter((i) => i.sessionId === sessionId)
      .map((i): Message => ({ role: 'user', content: i.text, timestamp: i.createdAt / 1000, _queued: true, _outbox_id: i.id }));
    return queued.length ? [...settled, ...queued] : settled;
  }

  /**
   * Sends queued messages, oldest first, each exactly once: an entry leaves the outbox (written
   * at once) as soon as the server has accepted it; the next waits for that run to end. Stops
   * while the server is unreachable; the connection store calls again when it is back.
   */
  drain(): Promise<void> {
    this.#draining ??= this.#drain().finally(() => (this.#draining = null));
    return this.#draining;
  }

  async #drain(): Promise<void> {
    for (;;) {
      const item = this.items[0];
      if (!item) return;
      if (!item.sessionId) {
        // Typed in the empty view while offline: the conversation starts now.
        let created: ApiSession;
        try {
          created = await api.newSession({});
        } catch (err) {
          if (err instanceof ApiError && err.status === 0) return;
          await this.#refused(item, err);
          continue;
        }
        // Recorded before anything is sent, so a drop now cannot start a second session.
        await offlineCache.reassign(item.id, created.session_id);
        this.items = this.items.map((i) => (i.id === item.id ? { ...i, sessionId: created.session_id } : i));
        this.host.created(created.session_id);
        continue;
      }
      const sid = item.sessionId;
      await this.host.waitIdle(sid);
      let r: Started;
      try {
        r = await api.startChat({ session_id: sid, message: item.text });
      } catch (err) {
        if (err instanceof ApiError && err.status === 0) return;
        if (err instanceof ApiError && err.status === 409) {
          await new Promise((res) => setTimeout(res, 500));
          continue;
        }
        await this.#refused(item, err);
        continue;
      }
      await this.#remove(item);
      await this.host.started(sid, r);
    }
  }

  async #refused(item: OutboxItem, err: unknown): Promise<void> {
    this.host.failed(`A queued message could not be sent: ${(err as Error).message}`);
    await this.#remove(item);
  }

  async #remove(item: OutboxItem): Promise<void> {
    this.items = this.items.filter((i) => i.id !== item.id);
    await offlineCache.dequeue(item.id);
    this.host.changed();
  }
}
