import { CLOSING_EVENTS, type RunEvent } from './events.js';

/**
 * Where a run's events are kept so a stream can be replayed after the run (or the process)
 * is gone. Appends are buffered; commit() hands them over before any frame leaves the process,
 * so every id a client ever held names one event, even after a kill -9; a closing event is made
 * durable before it resolves.
 */
export interface RunJournal {
  open(sessionId: string, streamId: string): JournalWriter;
  /** The run's events in order, or null when there is no journal for it. */
  read(streamId: string, sessionId?: string): Promise<{ sessionId: string; events: RunEvent[] } | null>;
  /** Journals whose last event is not a closing one: at start, the turns a crash cut short. */
  unclosed(): Promise<Array<{ sessionId: string; streamId: string }>>;
  /** Removes a session's journals (the session was deleted). */
  deleteSession(sessionId: string): Promise<void>;
}

export interface JournalWriter {
  /** Buffers one event. `dataJson` is `JSON.stringify(event.data)` when the caller already has it. */
  append(event: RunEvent, dataJson?: string): void;
  /**
   * Hands everything appended so far to the medium, synchronously (a write() to the kernel, a
   * storage put() that holds outgoing messages until it lands): what the process dies with
   * after this is still in the journal. Called before a frame is sent to anyone.
   */
  commit(): void;
  /** Writes everything appended so far durably (fsync where the medium has one). */
  flush(): Promise<void>;
  /** Flushes and releases the writer. */
  close(): Promise<void>;
}

/** Keeps journals in memory: tests, and the `memory` storage mode. */
export class MemoryRunJournal implements RunJournal {
  #runs = new Map<string, { sessionId: string; events: RunEvent[] }>();

  open(sessionId: string, streamId: string): JournalWriter {
    const run = { sessionId, events: [] as RunEvent[] };
    this.#runs.set(streamId, run);
    return {
      append: (event) => void run.events.push(event),
      commit: () => {},
      flush: async () => {},
      close: async () => {},
    };
  }

  async read(streamId: string) {
    const run = this.#runs.get(streamId);
    return run ? { sessionId: run.sessionId, events: [...run.events] } : null;
  }

  async unclosed() {
    return [...this.#runs]
      .filter(([, run]) => !CLOSING_EVENTS.has(run.events.at(-1)?.event ?? ''))
      .map(([streamId, run]) => ({ sessionId: run.sessionId, streamId }));
  }

  async deleteSession(sessionId: string) {
    for (const [id, run] of this.#runs) if (run.sessionId === sessionId) this.#runs.delete(id);
  }
}
