import { createStore, delMany, get, getMany, keys, setMany, clear, type UseStore } from 'idb-keyval';
import type { ApiSession, SessionRow } from '../api/client.js';

/**
 * The app's one IndexedDB store (idb-keyval, database `hermes`, store `kv`, keys prefixed
 * `hermes:`): the session list, transcripts of recently opened sessions (at most
 * MAX_TRANSCRIPTS, least recently opened evicted first), drafts, the outbox of messages typed
 * offline, and Activity disclosure state. Writes are coalesced for BATCH_MS into one
 * transaction; a full disk evicts the oldest transcripts and retries. Never rejects: without
 * IndexedDB (private mode) reads are empty and writes are dropped.
 */

export const SCHEMA_VERSION = 1;
export const MAX_TRANSCRIPTS = 30;
export const BATCH_MS = 100;

const P = 'hermes:';
const K = {
  schema: `${P}schema`,
  rows: `${P}rows`,
  listState: `${P}list-state`,
  lru: `${P}lru`,
  outbox: `${P}outbox`,
  transcript: (id: string) => `${P}transcript:${id}`,
  draft: (id: string | null) => `${P}draft:${id ?? 'new'}`,
  disclosure: (key: string) => `${P}disclosure:${key}`,
};
const DISCLOSURE = `${P}disclosure:`;

/** Where the stored rows stand against the server: the list's ETag and the next page's cursor. */
export interface ListState {
  etag: string | null;
  next: string | null;
  /** The server's count of the list's rows (absent in lists stored before paging kept it). */
  total?: number;
}

export interface OutboxItem {
  id: string;
  sessionId: string | null;
  text: string;
  createdAt: number;
}

/** The few idb-keyval operations used, so tests can pass a stub (quota errors, counts). */
export interface KvBackend {
  get<T>(key: string): Promise<T | undefined>;
  getMany<T>(keys: string[]): Promise<Array<T | undefined>>;
  setMany(entries: Array<[string, unknown]>): Promise<void>;
  delMany(keys: string[]): Promise<void>;
  keys(): Promise<IDBValidKey[]>;
  clear(): Promise<void>;
}

export function idbBackend(make: () => UseStore = () => createStore('hermes', 'kv')): KvBackend {
  // Opened on first use: merely importing this module touches no database.
  let opened: UseStore | null = null;
  const store: UseStore = (mode, callback) => (opened ??= make())(mode, callback);
  return {
    get: (k) => get(k, store),
    getMany: (k) => getMany(k, store),
    setMany: (e) => setMany(e, store),
    delMany: (k) => delMany(k, store),
    keys: () => keys(store),
    clear: () => clear(store),
  };
}

const DELETE = Symbol('delete');
const isQuota = (err: unknown) => (err as { name?: string })?.name === 'QuotaExceededError';

const WAL_PREFIX = 'hermes:draft:';
/**
 * What was pending when the page was left before IndexedDB had opened (a fresh profile's first
 * open takes 90–430 ms): the database never gets it, so it is kept here, synchronously, and
 * written by the next page's open. `null` stands for a deletion.
 */
const PENDING_WAL = 'hermes:pending-writes';
/** The stored list's ETag, kept synchronously too so the first list request need not wait for IndexedDB. */
const LIST_ETAG = 'hermes:list-etag';
/** Same key as drafts had before they moved to IndexedDB, so those are picked up too. */
const walKey = (sessionId: string | null) => `${WAL_PREFIX}${sessionId ?? 'new'}`;

/** localStorage can throw (private modes, quota); a draft is then simply not kept there. */
function safeLocal<T>(work: () => T): T | undefined {
  try {
    return work();
  } catch {
    return undefined;
  }
}

function leftovers(): Array<[string, unknown]> {
  try {
    const entries: unknown = JSON.parse(safeLocal(() => localStorage.getItem(PENDING_WAL)) ?? '[]');
    return Array.isArray(entries) ? (entries as Array<[string, unknown]>) : [];
  } catch {
    return [];
  }
}

export class OfflineCache {
  readonly #kv: KvBackend;
  #ready: Promise<void> | null = null;
  /** True once ready() has finished: writes issued now reach the database before the page can go. */
  #opened = false;
  #pending = new Map<string, unknown>();
  #timer: ReturnType<typeof setTimeout> | null = null;
  #flushing: Promise<void> = Promise.resolve();
  #waiters: Array<() => void> = [];
  /** Session ids with a stored transcript, least recently opened first. */
  #lru: string[] | null = null;

  constructor(kv: KvBackend) {
    this.#kv = kv;
    // Leaving or hiding the page writes what is pending at once (a draft typed just before a reload).
    if (typeof window !== 'undefined') {
      window.addEventListener('pagehide', () => this.#leaving());
      document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && void this.flush());
    }
  }

  /** Opens the database now (at app start), so a write queued later does not wait for it. */
  open(): void {
    void this.ready().then(() => this.#lruList());
  }

  #leaving(): void {
    // The database is not open yet: a write issued now would never start. Keep the batch aside.
    if (!this.#opened && this.#pending.size) {
      // An earlier page's leftovers not yet replayed (this page never opened either) come first.
      const merged = new Map<string, unknown>(leftovers());
      for (const [k, v] of this.#pending) merged.set(k, v === DELETE ? null : v);
      safeLocal(() => localStorage.setItem(PENDING_WAL, JSON.stringify([...merged])));
    }
    void this.flush();
  }

  /** Writes what an earlier page left in PENDING_WAL (see #leaving); its transcripts join the LRU list. */
  async #replayLeftovers(): Promise<void> {
    const entries = leftovers();
    if (!entries.length) return;
    const sets = entries.filter(([, v]) => v !== null);
    const dels = entries.filter(([, v]) => v === null).map(([k]) => k);
    const saved = sets
      .map(([k]) => k)
      .filter((k) => k.startsWith(K.transcript('')))
      .map((k) => k.slice(K.transcript('').length));
    if (saved.length) {
      const lru = ((await this.#kv.get<string[]>(K.lru)) ?? []).filter((id) => !saved.includes(id)).concat(saved);
      const evicted = lru.splice(0, Math.max(0, lru.length - MAX_TRANSCRIPTS));
      sets.push([K.lru, lru]);
      dels.push(...evicted.map(K.transcript));
    }
    if (sets.length) await this.#kv.setMany(sets);
    if (dels.length) await this.#kv.delMany(dels);
    safeLocal(() => localStorage.removeItem(PENDING_WAL));
  }

  /** Checks the schema version once; a mismatch wipes everything stored by an older build. */
  ready(): Promise<void> {
    this.#ready ??= (async () => {
      try {
        const v = await this.#kv.get<number>(K.schema);
        if (v !== SCHEMA_VERSION) {
          await this.#kv.clear();
          await this.#kv.setMany([[K.schema, SCHEMA_VERSION]]);
        }
        await this.#replayLeftovers();
      } catch {
        /* no IndexedDB: reads fall back to empty */
      }
      this.#opened = true;
    })();
    return this.#ready;
  }

  async #read<T>(key: string): Promise<T | undefined> {
    if (this.#pending.has(key)) {
      const v = this.#pending.get(key);
      return v === DELETE ? undefined : (v as T);
    }
    await this.ready();
    try {
      return await this.#kv.get<T>(key);
    } catch {
      return undefined;
    }
  }

  #write(key: string, value: unknown): void {
    this.#pending.set(key, value === undefined ? DELETE : value);
    this.#timer ??= setTimeout(() => void this.flush(), BATCH_MS);
  }

  /** Writes everything pending now (one setMany, one delMany). */
  flush(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const waiters = this.#waiters.splice(0);
    this.#flushing = this.#flushing
      .then(() => this.#flushNow())
      .finally(() => {
        for (const w of waiters) w();
      });
    return this.#flushing;
  }

  async #flushNow(): Promise<void> {
    if (!this.#pending.size) return;
    // Taken only once the database is open: until then it stays pending, where a page being
    // left finds it (#leaving).
    await this.ready();
    if (!this.#pending.size) return;
    const batch = this.#pending;
    this.#pending = new Map();
    for (let attempt = 0; ; attempt++) {
      const sets = [...batch].filter(([, v]) => v !== DELETE) as Array<[string, unknown]>;
      const dels = [...batch].filter(([, v]) => v === DELETE).map(([k]) => k);
      try {
        if (sets.length) await this.#kv.setMany(sets);
        if (dels.length) await this.#kv.delMany(dels);
        return;
      } catch (err) {
        if (!isQuota(err) || attempt >= MAX_TRANSCRIPTS) return;
        // Out of space: drop the least recently opened transcripts, then try again.
        const lru = await this.#lruList();
        const keep = batch.get(K.lru) as string[] | undefined;
        const victims = lru.splice(0, Math.max(1, Math.ceil(lru.length / 4)));
        if (!victims.length) return;
        this.#lru = lru;
        for (const id of victims) batch.set(K.transcript(id), DELETE);
        batch.set(
          K.lru,
          (keep ?? lru).filter((id) => !victims.includes(id)),
        );
        try {
          await this.#kv.delMany(victims.map(K.transcript));
        } catch {
          /* retried with the batch */
        }
      }
    }
  }

  async #lruList(): Promise<string[]> {
    this.#lru ??= (await this.#read<string[]>(K.lru)) ?? [];
    return this.#lru;
  }

  // ---- session list

  rows(): Promise<SessionRow[] | undefined> {
    return this.#read<SessionRow[]>(K.rows);
  }

  /** The rows and where they stand against the server, written in the same flush. */
  saveRows(rows: SessionRow[], state?: ListState): void {
    this.#write(K.rows, rows);
    this.#write(K.listState, state);
    safeLocal(() => (state?.etag ? localStorage.setItem(LIST_ETAG, state.etag) : localStorage.removeItem(LIST_ETAG)));
  }

  /**
   * The last saved list ETag, read synchronously. Only a hint: it may be ahead of what IndexedDB
   * holds (a reload within a write batch), so a 304 for it counts only if listState() agrees.
   */
  listEtagNow(): string | null {
    return safeLocal(() => localStorage.getItem(LIST_ETAG)) ?? null;
  }

  /** The stored rows' list state (undefined for rows kept before paging: they are simply refetched). */
  listState(): Promise<ListState | undefined> {
    return this.#read<ListState>(K.listState);
  }

  // ---- transcripts

  transcript(id: string): Promise<ApiSession | undefined> {
    return this.#read<ApiSession>(K.transcript(id));
  }

  /** Stores a session's transcript as the most recently opened; evicts beyond MAX_TRANSCRIPTS. */
  async saveTranscript(session: ApiSession): Promise<void> {
    const id = session.session_id;
    // Queued before anything is awaited: the page may be left the moment the transcript shows.
    this.#write(K.transcript(id), session);
    const lru = (await this.#lruList()).filter((x) => x !== id);
    lru.push(id);
    while (lru.length > MAX_TRANSCRIPTS) this.#write(K.transcript(lru.shift()!), undefined);
    this.#lru = lru;
    this.#write(K.lru, [...lru]);
  }

  async forgetTranscript(id: string): Promise<void> {
    const lru = await this.#lruList();
    this.#lru = lru.filter((x) => x !== id);
    this.#write(K.transcript(id), undefined);
    this.#write(K.lru, [...this.#lru]);
  }

  /** Session ids with a stored transcript, least recently opened first. */
  async cachedSessions(): Promise<string[]> {
    return [...(await this.#lruList())];
  }

  // ---- drafts
  //
  // IndexedDB writes are asynchronous and a page being reloaded can cut them off, so each
  // keystroke is also written synchronously to localStorage as a write-ahead entry, removed
  // once IndexedDB holds that text. Reading prefers the write-ahead entry: it is never older.

  /** The draft of a session: the write-ahead entry if there is one (synchronous). */
  draftNow(sessionId: string | null): string | null {
    return safeLocal(() => localStorage.getItem(walKey(sessionId))) ?? null;
  }

  async draft(sessionId: string | null): Promise<string | undefined> {
    return this.draftNow(sessionId) ?? (await this.#read<string>(K.draft(sessionId)));
  }

  saveDraft(sessionId: string | null, text: string): void {
    const key = walKey(sessionId);
    safeLocal(() => (text ? localStorage.setItem(key, text) : localStorage.removeItem(key)));
    this.#write(K.draft(sessionId), text || undefined);
    // Once this batch is in IndexedDB the write-ahead entry has done its job.
    void this.settled().then(() => safeLocal(() => localStorage.getItem(key) === text && localStorage.removeItem(key)));
  }

  /** Resolves when everything pending now has been written. */
  settled(): Promise<void> {
    if (!this.#pending.size) return this.#flushing;
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  // ---- outbox

  async outbox(): Promise<OutboxItem[]> {
    return (await this.#read<OutboxItem[]>(K.outbox)) ?? [];
  }

  /** Gives a queued message the session it was waiting for (written at once). */
  async reassign(id: string, sessionId: string): Promise<void> {
    this.#write(
      K.outbox,
      (await this.outbox()).map((i) => (i.id === id ? { ...i, sessionId } : i)),
    );
    await this.flush();
  }

  /** Appends a message to the outbox and writes at once (it must survive a reload). */
  async enqueue(item: Omit<OutboxItem, 'id' | 'createdAt'>): Promise<OutboxItem> {
    const full: OutboxItem = { id: `ob-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`, createdAt: Date.now(), ...item };
    this.#write(K.outbox, [...(await this.outbox()), full]);
    await this.flush();
    return full;
  }

  /** Removes a sent message from the outbox, written at once (it must never be sent twice). */
  async dequeue(id: string): Promise<void> {
    this.#write(
      K.outbox,
      (await this.outbox()).filter((i) => i.id !== id),
    );
    await this.flush();
  }

  // ---- disclosure state

  async disclosures(): Promise<string[]> {
    await this.ready();
    try {
      const all = (await this.#kv.keys()).filter((k): k is string => typeof k === 'string' && k.startsWith(DISCLOSURE));
      const values = await this.#kv.getMany<boolean>(all);
      return all.filter((_, i) => values[i] === true).map((k) => k.slice(DISCLOSURE.length));
    } catch {
      return [];
    }
  }

  disclosure(key: string): Promise<boolean> {
    return this.#read<boolean>(K.disclosure(key)).then((v) => v === true);
  }

  setDisclosure(key: string, open: boolean): void {
    this.#write(K.disclosure(key), open ? true : undefined);
  }

  /** Forgets everything (sign-out). */
  async wipe(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    this.#pending.clear();
    safeLocal(() => {
      for (const key of Object.keys(localStorage)) if (key.startsWith(WAL_PREFIX) || key === PENDING_WAL || key === LIST_ETAG) localStorage.removeItem(key);
    });
    this.#lru = [];
    await this.#flushing;
    try {
      await this.ready();
      await this.#kv.clear();
      await this.#kv.setMany([[K.schema, SCHEMA_VERSION]]);
    } catch {
      /* nothing stored */
    }
  }
}

/** The app's cache. */
export const offlineCache = new OfflineCache(idbBackend());
