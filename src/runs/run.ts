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

  constructor(
    readonly streamId: string,
    readonly sessionId: string,
    readonly startedAt: number,
    private readonly journal: JournalWriter,
    private readonly now: () => number,
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
    // In the journal before anyone holds its id: a restart numbers past it instead of reusing it.
    if (this.#watchers.size) this.journal.commit();
    for (const w of this.#watchers) w.send(frame);
    if (CLOSING_EVENTS.has(event)) {
      for (const w of this.#watchers) w.close();
      this.#watchers.clear();
    }
    return e;
  }

  /**
   * Replays every event after `afterSeq` to the watcher, then keeps it attached for live ones
   * (synchronously, so nothing can slip between replay and attach).
   */
  watch(watcher: RunWatcher, afterSeq: number): () => void {
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
    for (const w of this.#watchers) w.send(bytes);
  }

  async finish(status: RunStatus): Promise<void> {
    this.status = status;
    this.finishedAt = this.now();
    await this.journal.close();
  }
}
