import type { JournalWriter, RunJournal } from '../../runs/journal.js';
import type { RunEvent } from '../../runs/events.js';

/** The part of a Durable Object's storage the journal uses (the key-value API). */
export interface DoStorage {
  get<T = unknown>(key: string): Promise<T | undefined>;
  put(entries: Record<string, unknown>): Promise<void>;
  list<T = unknown>(options: { prefix: string }): Promise<Map<string, T>>;
  delete(keys: string[]): Promise<number>;
}

const pad = (seq: number) => String(seq).padStart(9, '0');

/**
 * Run events in the session's Durable Object storage: `run:<stream>` (the session id) and
 * `ev:<stream>:<seq>` per event. Appends are batched; flush() writes them (storage writes are
 * durable when the promise resolves).
 */
export class DoRunJournal implements RunJournal {
  constructor(private readonly storage: DoStorage) {}

  open(sessionId: string, streamId: string): JournalWriter {
    let pending: Record<string, unknown> = { [`run:${streamId}`]: sessionId };
    let writing: Promise<void> = Promise.resolve();
    const flush = () => {
      const batch = pending;
      pending = {};
      if (!Object.keys(batch).length) return writing;
      // Storage put() takes at most 128 keys at once.
      const keys = Object.keys(batch);
      writing = writing.then(async () => {
        for (let i = 0; i < keys.length; i += 128) await this.storage.put(Object.fromEntries(keys.slice(i, i + 128).map((k) => [k, batch[k]])));
      });
      return writing;
    };
    return {
      append: (event: RunEvent) => {
        pending[`ev:${streamId}:${pad(event.seq)}`] = event;
        if (Object.keys(pending).length >= 64) void flush();
      },
      flush,
      close: flush,
    };
  }

  async read(streamId: string): Promise<{ sessionId: string; events: RunEvent[] } | null> {
    const sessionId = await this.storage.get<string>(`run:${streamId}`);
    if (!sessionId) return null;
    const events = [...(await this.storage.list<RunEvent>({ prefix: `ev:${streamId}:` })).values()];
    return { sessionId, events };
  }

  async deleteSession(sessionId: string): Promise<void> {
    const runs = await this.storage.list<string>({ prefix: 'run:' });
    for (const [key, sid] of runs) {
      if (sid !== sessionId) continue;
      const streamId = key.slice('run:'.length);
      const events = await this.storage.list({ prefix: `ev:${streamId}:` });
      const keys = [key, ...events.keys()];
      for (let i = 0; i < keys.length; i += 128) await this.storage.delete(keys.slice(i, i + 128));
    }
  }
}
