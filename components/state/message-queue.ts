/**
 * Messages typed while a turn runs, waiting to be sent after it ends: one queue per session,
 * persisted in localStorage under the incumbent's key `hermes-queue-<session>` with its entry
 * shape (`text`, `files`, `model`, `profile`, `_queued_at`), so a reload (or the incumbent on the
 * same browser) finds them. `_queued_at` is an entry's identity (kept unique per session).
 *
 * Not the offline Outbox (components/state/outbox.ts): that one holds messages typed while the
 * server was unreachable; this one holds messages the user chose to send later.
 */
export interface QueuedMessage {
  text: string;
  /** Attachment paths (uploaded already). */
  files: string[];
  model: string;
  profile: string;
  _queued_at: number;
}

const PREFIX = 'hermes-queue-';
const CLAIM_PREFIX = 'hermes-queue-claim-';
/** A storage claim older than this is abandoned (its tab closed mid-send). */
const CLAIM_TTL_MS = 30_000;

export const queueKey = (sid: string) => `${PREFIX}${sid}`;

/** An entry as stored, possibly written by the incumbent (files may be objects there). */
function normalize(raw: unknown): QueuedMessage | null {
  if (!raw || typeof raw !== 'object') return null;
  const e = raw as Record<string, unknown>;
  const text = [e.text, e.message, e.content].find((v) => typeof v === 'string') as string | undefined;
  if (!text?.trim()) return null;
  const files = Array.isArray(e.files)
    ? e.files.flatMap((f) => (typeof f === 'string' ? [f] : f && typeof (f as { path?: unknown }).path === 'string' ? [(f as { path: string }).path] : []))
    : [];
  return {
    text,
    files,
    model: typeof e.model === 'string' ? e.model : '',
    profile: typeof e.profile === 'string' ? e.profile : 'default',
    _queued_at: typeof e._queued_at === 'number' ? e._queued_at : 0,
  };
}

/** What draining one entry needs from its caller. */
export interface DrainOptions {
  /** Whether the session has no running turn, as the server says (another tab may have started one). */
  idle(): Promise<boolean>;
  /** Sends the entry; resolves once the server took it. A throw puts the entry back in front. */
  send(message: QueuedMessage): Promise<void>;
}

/** A `change` event's detail: whose queue (null: all), and whether another tab wrote it. */
export interface QueueChange {
  sid: string | null;
  external: boolean;
}

export type DrainResult = 'sent' | 'empty' | 'busy' | 'failed';

/**
 * The queues, read from and written to storage on every operation (another tab may have changed
 * them): `change` fires for this tab's writes and for other tabs' (the `storage` event).
 */
export class MessageQueue extends EventTarget {
  readonly #tab = Math.random().toString(36).slice(2);
  readonly #locks: LockManager | null;

  /** `locks`: null to use the storage claim (what a browser without Web Locks gets). */
  constructor(
    private readonly storage: Storage,
    options: { locks?: LockManager | null } = {},
  ) {
    super();
    this.#locks = options.locks !== undefined ? options.locks : (globalThis.navigator?.locks ?? null);
    if (typeof window !== 'undefined') {
      window.addEventListener('storage', (e) => {
        if (e.key !== null && (!e.key.startsWith(PREFIX) || e.key.startsWith(CLAIM_PREFIX))) return;
        const sid = e.key?.slice(PREFIX.length) ?? null;
        this.dispatchEvent(new CustomEvent<QueueChange>('change', { detail: { sid, external: true } }));
      });
    }
  }

  list(sid: string): QueuedMessage[] {
    try {
      const parsed: unknown = JSON.parse(this.storage.getItem(queueKey(sid)) ?? '[]');
      if (!Array.isArray(parsed)) return [];
      const seen = new Set<number>();
      return parsed.flatMap((raw) => {
        const m = normalize(raw);
        if (!m) return [];
        // Older entries without a stamp (or duplicates) get one, so each can be addressed.
        while (seen.has(m._queued_at)) m._queued_at++;
        seen.add(m._queued_at);
        return [m];
      });
    } catch {
      return [];
    }
  }

  #write(sid: string, items: QueuedMessage[]): void {
    // The incumbent removes the key when its queue empties; so do we.
    if (items.length) this.storage.setItem(queueKey(sid), JSON.stringify(items));
    else this.storage.removeItem(queueKey(sid));
    this.dispatchEvent(new CustomEvent<QueueChange>('change', { detail: { sid, external: false } }));
  }

  /** Appends (or, for an interrupt, puts first); resolves with the new entry. */
  add(sid: string, entry: { text: string; files?: string[]; model?: string | null }, where: 'end' | 'front' = 'end'): QueuedMessage {
    const items = this.list(sid);
    let stamp = Date.now();
    while (items.some((i) => i._queued_at === stamp)) stamp++;
    const item: QueuedMessage = { text: entry.text, files: entry.files ?? [], model: entry.model ?? '', profile: 'default', _queued_at: stamp };
    this.#write(sid, where === 'front' ? [item, ...items] : [...items, item]);
    return item;
  }

  /** Replaces an entry's text; an empty text removes it. */
  edit(sid: string, id: number, text: string): void {
    if (!text.trim()) {
      this.remove(sid, id);
      return;
    }
    const items = this.list(sid);
    const at = items.findIndex((i) => i._queued_at === id);
    if (at < 0) return;
    items[at] = { ...items[at]!, text };
    this.#write(sid, items);
  }

  remove(sid: string, id: number): void {
    const items = this.list(sid);
    const kept = items.filter((i) => i._queued_at !== id);
    if (kept.length !== items.length) this.#write(sid, kept);
  }

  /** Moves an entry to position `to` (clamped). */
  move(sid: string, id: number, to: number): void {
    const items = this.list(sid);
    const from = items.findIndex((i) => i._queued_at === id);
    const target = Math.max(0, Math.min(items.length - 1, to));
    if (from < 0 || from === target) return;
    const [item] = items.splice(from, 1);
    items.splice(target, 0, item!);
    this.#write(sid, items);
  }

  clear(sid: string): void {
    this.#write(sid, []);
  }

  /**
   * Sends the first entry, exactly once across tabs: under a lock named for the session, the
   * entry is taken out of storage only after the server says the session is idle, and the lock
   * is held until the server has started its turn (so another tab's check then sees it busy).
   */
  drainOne(sid: string, o: DrainOptions): Promise<DrainResult> {
    return this.#exclusive(sid, async () => {
      const first = this.list(sid)[0];
      if (!first) return 'empty';
      if (!(await o.idle())) return 'busy';
      // Read again: the idle check awaited, and an edit may have landed meanwhile.
      const items = this.list(sid);
      const item = items[0];
      if (!item) return 'empty';
      this.#write(sid, items.slice(1));
      try {
        await o.send(item);
        return 'sent';
      } catch {
        this.#write(sid, [item, ...this.list(sid)]);
        return 'failed';
      }
    });
  }

  /**
   * Resolves once no tab is sending from `sid`'s queue (the one that took an entry has had its
   * turn started by the server), so a tab that reloads then sees that turn.
   */
  async settled(sid: string): Promise<void> {
    if (this.#locks) await this.#locks.request(`${PREFIX}${sid}`, async () => {});
    else {
      for (let i = 0; i < 100 && this.storage.getItem(`${CLAIM_PREFIX}${sid}`); i++) await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Runs `fn` while no other tab of this origin runs it for `sid`. */
  async #exclusive<T>(sid: string, fn: () => Promise<T>): Promise<T | 'busy'> {
    if (this.#locks) return this.#locks.request(`${PREFIX}${sid}`, fn);
    // No Web Locks (a plain-http address is not a secure context): a claim in storage, read back
    // after a moment so that of two tabs claiming together only the last writer proceeds.
    const key = `${CLAIM_PREFIX}${sid}`;
    const held = (() => {
      try {
        return JSON.parse(this.storage.getItem(key) ?? 'null') as { tab: string; at: number } | null;
      } catch {
        return null;
      }
    })();
    if (held && held.tab !== this.#tab && Date.now() - held.at < CLAIM_TTL_MS) return 'busy';
    this.storage.setItem(key, JSON.stringify({ tab: this.#tab, at: Date.now() }));
    await new Promise((r) => setTimeout(r, 50));
    if (!this.storage.getItem(key)?.includes(`"${this.#tab}"`)) return 'busy';
    try {
      return await fn();
    } finally {
      this.storage.removeItem(key);
    }
  }
}

/** The app's queues (one per origin's localStorage). */
export const messageQueue = new MessageQueue(localStorage);
