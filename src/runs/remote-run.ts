import type { Cluster } from '../ports/cluster.js';
import { CLOSING_EVENTS, type RunEvent } from './events.js';
import type { RunJournal } from './journal.js';
import { concat, type RunWatcher } from './run.js';
import { HEARTBEAT, encodeFrame } from './sse.js';

export interface RemoteRunsOptions {
  journal: RunJournal;
  cluster: Pick<Cluster, 'onRunAppended'>;
  /** Heartbeat to every watcher, and a read of what a lost wake-up may have missed (default 15 s). */
  heartbeatMs?: number;
  onError?: (err: unknown) => void;
}

/**
 * Runs that another instance owns, followed from their journal for the watchers here: one
 * follower per stream, shared by its watchers, reading only the new events on each wake-up
 * (`Cluster.onRunAppended`) and sending the frames the owner sends (same encoder, same ids).
 * A follower ends with the run's closing event, or when its last watcher leaves.
 */
export class RemoteRuns {
  #followers = new Map<string, RemoteRun>();
  #heartbeat: ReturnType<typeof setInterval> | null = null;
  #off: () => void;

  constructor(private readonly options: RemoteRunsOptions) {
    this.#off = options.cluster.onRunAppended((streamId, seq) => this.#wake(streamId, seq));
  }

  /** Streams woken while a batch read is out; read together next (one query for a wake-up payload). */
  #due = new Set<string>();
  #batching = false;

  #wake(streamId: string, seq: number) {
    const follower = this.#followers.get(streamId);
    if (!follower || seq <= follower.lastSeq) return;
    if (!this.options.journal.readAfterMany) return follower.wake(seq);
    this.#due.add(streamId);
    if (this.#batching) return;
    this.#batching = true;
    // A payload's wake-ups arrive in one loop: the microtask after it reads them all.
    queueMicrotask(() => void this.#readDue());
  }

  async #readDue() {
    try {
      while (this.#due.size) {
        const cursors = new Map<string, number>();
        for (const id of this.#due) {
          const f = this.#followers.get(id);
          if (f) cursors.set(id, f.lastSeq);
        }
        this.#due.clear();
        if (!cursors.size) continue;
        const found = await this.options.journal.readAfterMany!(cursors);
        for (const [id, events] of found) this.#followers.get(id)?.receive(events);
      }
    } catch (err) {
      this.options.onError?.(err);
    } finally {
      this.#batching = false;
    }
  }

  get(streamId: string): RemoteRun | undefined {
    return this.#followers.get(streamId);
  }

  get size(): number {
    return this.#followers.size;
  }

  /**
   * Attaches `watcher` to the stream after `afterSeq`. `events` is the journal as the caller read
   * it (a new follower starts from it; one already following knows at least as much).
   */
  watch(streamId: string, events: readonly RunEvent[], watcher: RunWatcher, afterSeq: number): () => void {
    let follower = this.#followers.get(streamId);
    if (!follower) {
      follower = new RemoteRun(streamId, events, this.options.journal, () => this.#drop(streamId, follower!), this.options.onError);
      this.#followers.set(streamId, follower);
      this.#startHeartbeat();
      // Whatever was appended between the caller's read and this subscription.
      follower.wake(Number.MAX_SAFE_INTEGER);
    }
    return follower.watch(watcher, afterSeq, events);
  }

  /** Stops every follower and closes their watchers (shutdown). */
  close(): void {
    this.#off();
    for (const f of [...this.#followers.values()]) f.end();
    this.#stopHeartbeat();
  }

  #drop(streamId: string, follower: RemoteRun) {
    if (this.#followers.get(streamId) === follower) this.#followers.delete(streamId);
    if (!this.#followers.size) this.#stopHeartbeat();
  }

  #startHeartbeat() {
    if (this.#heartbeat) return;
    this.#heartbeat = setInterval(() => {
      for (const f of this.#followers.values()) {
        f.ping(HEARTBEAT);
        // A NOTIFY lost while the listening connection reconnected costs at most one period.
        f.wake(Number.MAX_SAFE_INTEGER);
      }
    }, this.options.heartbeatMs ?? 15_000);
    (this.#heartbeat as { unref?: () => void }).unref?.();
  }

  #stopHeartbeat() {
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    this.#heartbeat = null;
  }
}

/** One followed stream: the events read so far, their frames, and each watcher's next frame. */
export class RemoteRun {
  readonly events: RunEvent[] = [];
  readonly frames: Uint8Array[] = [];
  #watchers = new Map<RunWatcher, number>();
  #reading = false;
  #again = false;
  #ended = false;

  constructor(
    readonly streamId: string,
    events: readonly RunEvent[],
    /** `readAfter` reads only what is new (Postgres); without it each wake-up reads the whole journal. */
    private readonly journal: RunJournal,
    private readonly onEnd: () => void,
    private readonly onError?: (err: unknown) => void,
  ) {
    this.#add(events);
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

  /** `known`: the journal as the caller read it, which may be ahead of this follower (its wake-up not heard yet). */
  watch(watcher: RunWatcher, afterSeq: number, known: readonly RunEvent[] = []): () => void {
    this.#add(known);
    const first = this.events.findIndex((e) => e.seq > afterSeq);
    this.#watchers.set(watcher, first === -1 ? this.frames.length : first);
    this.#deliver();
    if (!this.#watchers.has(watcher)) return () => {};
    return () => {
      this.#watchers.delete(watcher);
      if (!this.#watchers.size) this.end();
    };
  }

  /** The owner says the journal holds events up to `seq`: read the new ones (one read at a time). */
  wake(seq: number): void {
    if (this.#ended || seq <= this.lastSeq) return;
    if (this.#reading) {
      this.#again = true;
      return;
    }
    void this.#read();
  }

  /** Events read for this stream elsewhere (a batch across streams). */
  receive(events: readonly RunEvent[]): void {
    if (this.#ended) return;
    this.#add(events);
    this.#deliver();
  }

  ping(bytes: Uint8Array): void {
    for (const w of this.#watchers.keys()) w.send(bytes);
  }

  /** Closes the watchers still attached and forgets the stream. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    for (const w of this.#watchers.keys()) w.close();
    this.#watchers.clear();
    this.onEnd();
  }

  async #read(): Promise<void> {
    this.#reading = true;
    try {
      do {
        this.#again = false;
        const after = this.lastSeq;
        const fresh = this.journal.readAfter
          ? await this.journal.readAfter(this.streamId, after)
          : ((await this.journal.read(this.streamId))?.events.filter((e) => e.seq > after) ?? []);
        if (this.#ended) return;
        this.#add(fresh);
        this.#deliver();
      } while (this.#again && !this.#ended);
    } catch (err) {
      this.onError?.(err);
    } finally {
      this.#reading = false;
    }
  }

  #add(events: readonly RunEvent[]) {
    for (const e of events) {
      // Only the next seq: a read racing another never adds an event twice or out of order.
      if (e.seq !== this.lastSeq + 1 && this.events.length) continue;
      this.events.push(e);
      this.frames.push(encodeFrame(this.streamId, e));
    }
  }

  #deliver() {
    const end = this.frames.length;
    const byStart = new Map<number, RunWatcher[]>();
    for (const [w, next] of this.#watchers) {
      if (next >= end) continue;
      const group = byStart.get(next);
      if (group) group.push(w);
      else byStart.set(next, [w]);
    }
    for (const [start, group] of byStart) {
      const bytes = end - start === 1 ? this.frames[start]! : concat(this.frames.slice(start, end));
      for (const w of group) {
        w.send(bytes);
        this.#watchers.set(w, end);
      }
    }
    if (this.closed) this.end();
  }
}
