import { CLOSING_EVENTS, type RunEvent, type RunEventName, type RunEventPayloads } from './events.js';
import type { GatewayCursor, JournalWriter, TurnCheckpoint } from './journal.js';
import { encodeFrame } from './sse.js';

/** The abort reason when a person cancels a run (any other reason means the server stopped it). */
export class CancelledByUser extends Error {
  override name = 'AbortError';
  constructor() {
    super('Cancelled by user');
  }
}

/**
 * The abort reason when the server stops for a restart and the turn is to carry on after it
 * (HERMES_WEBUI_RESUME_RUNS): nothing is closed or marked, the next start resumes it.
 */
export class SuspendedForRestart extends Error {
  override name = 'AbortError';
  /** Read by the loop (src/agent cannot import this class): keep nothing aside, the journal has it. */
  readonly resumes = true;
  constructor() {
    super('The server is restarting; the turn carries on after it');
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
  /** Each watcher and the index of the next frame it is owed. */
  #watchers = new Map<RunWatcher, number>();
  /** Frames handed to the journal (sent only up to here, so every id a client holds is stored). */
  #committed = 0;
  /** An asynchronous commit in progress (a database); later ones chain after it, in order. */
  #sending: Promise<void> | null = null;
  #scheduled = false;

  /**
   * `defer` (Node: setImmediate) sends the frames of one event-loop turn together: one journal
   * write and one socket write per watcher for a burst of tokens, instead of one per token.
   * Without it every frame is written and sent as it is emitted. `prior` are the events a
   * resumed run already had (from its journal): numbering and replay continue after them.
   */
  constructor(
    readonly streamId: string,
    readonly sessionId: string,
    readonly startedAt: number,
    private readonly journal: JournalWriter,
    private readonly now: () => number,
    private readonly defer?: (send: () => void) => void,
    prior: readonly RunEvent[] = [],
  ) {
    for (const e of prior) {
      this.events.push(e);
      this.frames.push(encodeFrame(streamId, e));
    }
    this.#committed = this.frames.length;
  }

  get lastSeq(): number {
    return this.events.at(-1)?.seq ?? 0;
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
    const e = { seq: this.lastSeq + 1, event, data, at: this.now() } as RunEvent;
    const json = JSON.stringify(data);
    const frame = encodeFrame(this.streamId, e, json);
    this.events.push(e);
    this.frames.push(frame);
    this.journal.append(e, json);
    const closing = CLOSING_EVENTS.has(event);
    if (this.#watchers.size) {
      if (closing || !this.defer) this.#flush();
      else if (!this.#scheduled) {
        this.#scheduled = true;
        this.defer(this.#flushDeferred);
      }
    }
    return e;
  }

  #flushDeferred = () => {
    this.#scheduled = false;
    this.#flush();
  };

  /** Commits the frames not yet in the journal, then sends them (at once, or once an asynchronous commit settles). */
  #flush(): void {
    const upTo = this.frames.length;
    if (this.#committed >= upTo) return;
    // A restart then numbers past every id a client was sent instead of reusing one.
    const committed = this.journal.commit();
    if (!committed && !this.#sending) {
      this.#committed = upTo;
      this.#deliver();
      return;
    }
    const sent = Promise.all([this.#sending, committed])
      .catch(() => {})
      .then(() => {
        this.#committed = Math.max(this.#committed, upTo);
        if (this.#sending === sent) this.#sending = null;
        this.#deliver();
      });
    this.#sending = sent;
  }

  /** Sends every watcher the committed frames it is owed (one write each), and closes them after a closing event. */
  #deliver(): void {
    const byStart = new Map<number, RunWatcher[]>();
    for (const [w, next] of this.#watchers) {
      if (next >= this.#committed) continue;
      const group = byStart.get(next);
      if (group) group.push(w);
      else byStart.set(next, [w]);
    }
    for (const [start, group] of byStart) {
      const bytes = this.#committed - start === 1 ? this.frames[start]! : concat(this.frames.slice(start, this.#committed));
      for (const w of group) {
        w.send(bytes);
        this.#watchers.set(w, this.#committed);
      }
    }
    if (this.closed && this.#committed === this.frames.length) {
      for (const w of this.#watchers.keys()) w.close();
      this.#watchers.clear();
    }
  }

  /**
   * Replays every event after `afterSeq` to the watcher, then keeps it attached for live ones
   * (nothing can slip between replay and attach: both go through the same owed-frame index).
   */
  watch(watcher: RunWatcher, afterSeq: number): () => void {
    const first = this.events.findIndex((e) => e.seq > afterSeq);
    this.#watchers.set(watcher, first === -1 ? this.frames.length : first);
    this.#flush();
    this.#deliver();
    if (!this.#watchers.has(watcher)) return () => {};
    return () => this.#watchers.delete(watcher);
  }

  /**
   * Replaces the journal's checkpoint with `step` (null: nothing in flight), numbered with the
   * last event, after committing every event so far: what follows it in the journal came later.
   * `gateway` (a gateway turn's Hermes run) keeps the `seq` it comes with (a cursor carried over
   * a resume), else takes this one.
   */
  async checkpoint(step: TurnCheckpoint['step'], gateway?: Omit<GatewayCursor, 'seq'> & { seq?: number }): Promise<void> {
    this.#flush();
    await this.#sending;
    const seq = this.lastSeq;
    await this.journal.checkpoint({ seq, step, ...(gateway ? { gateway: { ...gateway, seq: gateway.seq ?? seq } } : {}) });
  }

  /**
   * Sends what is committed and lets every watcher go without a closing event (the server is
   * restarting): a browser reconnects with its last id and the resumed run goes on from there.
   */
  detach(): void {
    this.#flush();
    this.#deliver();
    for (const w of this.#watchers.keys()) w.close();
    this.#watchers.clear();
  }

  /** Ends every watcher's stream without a closing event (the turn moved to another instance): browsers reconnect with Last-Event-ID. */
  dropWatchers(): void {
    for (const w of this.#watchers.keys()) w.close();
    this.#watchers.clear();
  }

  /** Writes what the journal holds so far (for a database: the stream's row too) and waits for it. */
  flushJournal(): Promise<void> {
    return this.journal.flush();
  }

  /** Sends bytes (a heartbeat) to every watcher. */
  ping(bytes: Uint8Array): void {
    this.#flush();
    for (const w of this.#watchers.keys()) w.send(bytes);
  }

  async finish(status: RunStatus): Promise<void> {
    this.status = status;
    this.finishedAt = this.now();
    await this.journal.close();
  }
}

/** The frames as one buffer (one socket write per watcher). */
export function concat(parts: Uint8Array[]): Uint8Array {
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
