import { CLOSING_EVENTS, type RunEvent } from './events.js';
import type { Message } from '../shared/session.js';

/**
 * What a resumed turn needs beyond the transcript and the events: the step in flight when it
 * was written. `seq` is the run's last event then; `step` the model's answer that asked for
 * tools and the results finished so far (the transcript gets both only once the whole batch is
 * done), or null between steps.
 */
export interface TurnCheckpoint {
  seq: number;
  step: { assistant: Message; results: Message[] } | null;
  /** A gateway turn: the Hermes run it relays, so a restart reattaches to it (src/agent/gateway/reattach.ts). */
  gateway?: GatewayCursor;
}

/**
 * Which Hermes run a gateway turn relays, the id of Hermes' last event handled (absent: none
 * yet, or a Hermes without event ids) and this run's `seq` when that was so: what the journal
 * holds after `seq` is what a replay after `event_id` repeats.
 */
export interface GatewayCursor {
  run_id: string;
  event_id?: string;
  seq: number;
}

/** A journal as read back: its session, its events in order, and its last checkpoint. */
export interface JournalRecord {
  sessionId: string;
  events: RunEvent[];
  checkpoint: TurnCheckpoint | null;
}

/**
 * Where a run's events are kept so a stream can be replayed after the run (or the process)
 * is gone. Appends are buffered; commit() hands them over before any frame leaves the process,
 * so every id a client ever held names one event, even after a kill -9; a closing event is made
 * durable before it resolves.
 */
export interface RunJournal {
  open(sessionId: string, streamId: string): JournalWriter;
  /** The run's events in order (and its last checkpoint), or null when there is no journal for it. */
  read(streamId: string, sessionId?: string): Promise<JournalRecord | null>;
  /**
   * The run's events with seq > afterSeq, in order (none for an unknown stream): what a
   * watcher on another instance reads on each wake-up. Optional: a medium where this is no
   * cheaper than read() leaves it out.
   */
  readAfter?(streamId: string, afterSeq: number): Promise<RunEvent[]>;
  /** readAfter for several streams in one read (one wake-up payload's streams); optional. */
  readAfterMany?(cursors: ReadonlyMap<string, number>): Promise<Map<string, RunEvent[]>>;
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
   * after this is still in the journal. Called before a frame is sent to anyone. A medium that
   * cannot hand over synchronously (a database) returns a promise, and the run sends the frames
   * only once it has settled.
   */
  commit(): void | Promise<void>;
  /**
   * Replaces the run's checkpoint (what resuming needs beyond the transcript), durably before
   * it resolves: the loop waits for it before a tool runs.
   */
  checkpoint(state: TurnCheckpoint): Promise<void>;
  /** Writes everything appended so far durably (fsync where the medium has one). */
  flush(): Promise<void>;
  /** Flushes and releases the writer. */
  close(): Promise<void>;
}

/** Keeps journals in memory: tests, and the `memory` storage mode. */
export class MemoryRunJournal implements RunJournal {
  #runs = new Map<string, { sessionId: string; events: RunEvent[]; checkpoint: TurnCheckpoint | null }>();

  open(sessionId: string, streamId: string): JournalWriter {
    // Reopened (a resumed turn, a recovery's closing event): appends continue the same journal.
    let run = this.#runs.get(streamId);
    if (!run) this.#runs.set(streamId, (run = { sessionId, events: [], checkpoint: null }));
    const opened = run;
    return {
      append: (event) => void opened.events.push(event),
      commit: () => {},
      checkpoint: async (state) => {
        opened.checkpoint = structuredClone(state);
      },
      flush: async () => {},
      close: async () => {},
    };
  }

  async read(streamId: string, sessionId?: string): Promise<JournalRecord | null> {
    const run = this.#runs.get(streamId);
    return run && (sessionId === undefined || run.sessionId === sessionId)
      ? { sessionId: run.sessionId, events: [...run.events], checkpoint: run.checkpoint ? structuredClone(run.checkpoint) : null }
      : null;
  }

  async readAfter(streamId: string, afterSeq: number): Promise<RunEvent[]> {
    return (this.#runs.get(streamId)?.events ?? []).filter((e) => e.seq > afterSeq);
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
