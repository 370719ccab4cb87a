import type { JournalRecord, JournalWriter, RunJournal, TurnCheckpoint } from '../../runs/journal.js';
import { CLOSING_EVENTS, type RunEvent } from '../../runs/events.js';

/** The part of a Durable Object's storage the journal uses (the key-value API). */
export interface DoStorage {
  get<T = unknown>(key: string): Promise<T | undefined>;
  put(entries: Record<string, unknown>): Promise<void>;
  list<T = unknown>(options: { prefix: string; reverse?: boolean; limit?: number }): Promise<Map<string, T>>;
  delete(keys: string[]): Promise<number>;
}

const pad = (seq: number) => String(seq).padStart(9, '0');

/**
 * Run events in the session's Durable Object storage: `run:<stream>` (the session id) and
 * `ev:<stream>:<seq>` per event. Appends are batched until commit(), which issues the put()
 * at once: an object holds every outgoing message (the SSE frames too) until a put in progress
 * has landed, so a frame never leaves before its event is stored. Writes without an await
 * between them are coalesced by the runtime.
 */
export class DoRunJournal implements RunJournal {
  constructor(private readonly storage: DoStorage) {}

  open(sessionId: string, streamId: string): JournalWriter {
    let pending: Record<string, unknown> = { [`run:${streamId}`]: sessionId };
    let writing: Promise<void> = Promise.resolve();
    const commit = () => {
      const keys = Object.keys(pending);
      if (!keys.length) return;
      const batch = pending;
      pending = {};
      // Issued now, not after an await, or the frame would leave ungated. put() takes at most 128 keys.
      const puts: Promise<void>[] = [];
      for (let i = 0; i < keys.length; i += 128) puts.push(this.storage.put(Object.fromEntries(keys.slice(i, i + 128).map((k) => [k, batch[k]]))));
      writing = Promise.all([writing, ...puts]).then(() => {});
    };
    const flush = () => {
      commit();
      return writing;
    };
    return {
      append: (event: RunEvent) => {
        pending[`ev:${streamId}:${pad(event.seq)}`] = event;
        if (Object.keys(pending).length >= 64) commit();
      },
      commit,
      checkpoint: async (state) => {
        commit();
        await Promise.all([writing, this.storage.put({ [`ck:${streamId}`]: state })]);
      },
      flush,
      close: flush,
    };
  }

  async read(streamId: string): Promise<JournalRecord | null> {
    const sessionId = await this.storage.get<string>(`run:${streamId}`);
    if (!sessionId) return null;
    const events = [...(await this.storage.list<RunEvent>({ prefix: `ev:${streamId}:` })).values()];
    const checkpoint = (await this.storage.get<TurnCheckpoint>(`ck:${streamId}`)) ?? null;
    return { sessionId, events, checkpoint };
  }

  async unclosed(): Promise<Array<{ sessionId: string; streamId: string }>> {
    const open: Array<{ sessionId: string; streamId: string }> = [];
    for (const [key, sessionId] of await this.storage.list<string>({ prefix: 'run:' })) {
      const streamId = key.slice('run:'.length);
      const [last] = (await this.storage.list<RunEvent>({ prefix: `ev:${streamId}:`, reverse: true, limit: 1 })).values();
      if (!last || !CLOSING_EVENTS.has(last.event)) open.push({ sessionId, streamId });
    }
    return open;
  }

  async deleteSession(sessionId: string): Promise<void> {
    const runs = await this.storage.list<string>({ prefix: 'run:' });
    for (const [key, sid] of runs) {
      if (sid !== sessionId) continue;
      const streamId = key.slice('run:'.length);
      const events = await this.storage.list({ prefix: `ev:${streamId}:` });
      const keys = [key, `ck:${streamId}`, ...events.keys()];
      for (let i = 0; i < keys.length; i += 128) await this.storage.delete(keys.slice(i, i + 128));
    }
  }
}
