import { CLOSING_EVENTS, type RunEvent, type RunEventName, type RunEventPayloads } from './events.js';
import type { JournalWriter } from './journal.js';
import { encodeFrame } from './sse.js';

/** The abort reason when a person cancels a run (any other reason means the server stopped it). */
export class CancelledByUser extends Error {
  override name = 'AbortError';
  constructor() {
    super('Cancelled by user');
  }
}

/** A live SSE connection watching a run. */
export interface RunWatcher {
  send(frame: Uint8Array): void;
  close(): void;
}

export type RunStatus = 'running' | 'completed' | 'cancelled' | 'errored';

/**
 * One turn of one session. It owns its events (numbered from 1), journals each one, and fans
 * each frame out to every watcher, encoding it once. Watchers come and go; the run goes on.
 */
export class Run {
  readonly events: RunEvent[] = [];
  readonly frames: Uint8Array[] = [];
  readonly abort = new AbortController();
  status: RunStatus = 'running';
  finishedAt: number | null = null;
  #watchers = new Set<RunWatcher>();
  /** Frames emitted but not yet sent to the watchers (only with `defer`). */
  #pending: Uint8Array[] = [];
  #scheduled = false;

  /**
   * `defer` (Node: setImmediate) sends the frames of one event-loop turn together: one journal
   * write and one socket write per watcher for a burst of tokens, instead of one per token.
   * Without it every frame is written and sent as it is emitted.
   */
  constructor(
    readonly streamId: string,
    readonly sessionId: string,
    readonly startedAt: number,
    private readonly journal: JournalWriter,
    private readonly now: () => number,
    private readonly defer?: (send: () => void) => void,
  ) {}

  get lastSeq(): number {
    return this.events.length;
  }

  get closed(): boolean {
    const last = this.events.at(-1);
    return !!last && CLOSING_EVENTS.has(last.event);
  }

  get watcherCount(): number {
    return this.#watchers.size;
  }

  /** Emits one event; the contract (src/shared/run-events.ts) types `data` by `event`. */
  emit<K extends RunEventName>(event: K, data: RunEventPayloads[K]): RunEvent {
    if (this.closed) throw new Error(`run ${this.streamId} is closed; cannot emit ${event}`);
    // K is one name, so this is one member of the union; TypeScript cannot follow that itself.
    const e = { seq: this.events.length + 1, event, data, at: this.now() } as RunEvent;
    const json = JSON.stringify(data);
    const frame = encodeFrame(this.streamId, e, json);
    this.events.push(e);
    this.frames.push(frame);
    this.journal.append(e, json);
    const closing = CLOSING_EVENTS.has(event);
    if (this.#watchers.size) {
      this.#pending.push(frame);
      if (closing || !this.defer) this.#flush();
      else if (!this.#scheduled) {
        this.#scheduled = true;
        this.defer(this.#flushDeferred);
      }
    }
    if (closing) {
      for (const w of this.#watchers) w.close();
      this.#watchers.clear();
    }
    return e;
  }

  #flushDeferred = () => {
    this.#scheduled = false;
    this.#flush();
  };

  /** Sends the pending frames, each already in the journal before anyone holds its id. */
  #flush(): void {
    if (!this.#pending.length) return;
    // A restart then numbers past every id a client was sent instead of reusing one.
    this.journal.commit();
    const bytes = this.#pending.length === 1 ? this.#pending[0]! : concat(this.#pending);
    this.#pending = [];
    for (const w of this.#watchers) w.send(bytes);
  }

  /**
   * Replays every event after `afterSeq` to the watcher, then keeps it attached for live ones
   * (synchronously, so nothing can slip between replay and attach).
   */
  watch(watcher: RunWatcher, afterSeq: number): () => void {
    // The current watchers get what is pending first; the new one replays it with the rest.
    this.#flush();
    if (afterSeq < this.frames.length) this.journal.commit();
    for (let i = afterSeq; i < this.frames.length; i++) watcher.send(this.frames[i]!);
    if (this.closed) {
      watcher.close();
      return () => {};
    }
    this.#watchers.add(watcher);
    return () => this.#watchers.delete(watcher);
  }

  /** Sends bytes (a heartbeat) to every watcher. */
  ping(bytes: Uint8Array): void {
    this.#flush();
    for (const w of this.#watchers) w.send(bytes);
  }

  async finish(status: RunStatus): Promise<void> {
    this.status = status;
    this.finishedAt = this.now();
    await this.journal.close();
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  let size = 0;
  for (const p of parts) size += p.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
