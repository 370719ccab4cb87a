import { Conflict } from '../ports/errors.js';
import type { RunJournal } from './journal.js';
import { closingEventFor } from './recovery.js';
import { Run } from './run.js';
import { HEARTBEAT } from './sse.js';

export interface RunRegistryOptions {
  journal: RunJournal;
  now: () => number;
  /** How long a finished run stays in memory for fast replay (then the journal serves it). */
  keepFinishedMs?: number;
  /** Heartbeat period for open streams. */
  heartbeatMs?: number;
  /** Sends each event-loop turn's frames together (Node: setImmediate); absent: each as emitted. */
  defer?: (send: () => void) => void;
}

/**
 * Owns every run: at most one active run per session, lookup by stream id, heartbeats for all
 * watchers from one timer. HTTP handlers only look runs up; closing a stream never stops one.
 */
export class RunRegistry {
  #runs = new Map<string, Run>();
  #activeBySession = new Map<string, Run>();
  #heartbeat: ReturnType<typeof setInterval> | null = null;
  #finishing = 0;
  readonly journal: RunJournal;
  #now: () => number;
  #keepFinishedMs: number;
  #heartbeatMs: number;
  #defer: ((send: () => void) => void) | undefined;
  lastFinishedAt: number | null = null;

  constructor(options: RunRegistryOptions) {
    this.journal = options.journal;
    this.#now = options.now;
    this.#keepFinishedMs = options.keepFinishedMs ?? 10 * 60_000;
    this.#heartbeatMs = options.heartbeatMs ?? 15_000;
    this.#defer = options.defer;
  }

  /** Claims the session for a new run; Conflict (409) with the active stream id otherwise. */
  begin(sessionId: string, streamId: string): Run {
    const active = this.#activeBySession.get(sessionId);
    if (active) throw new Conflict('session already has an active stream', { active_stream_id: active.streamId });
    const run = new Run(streamId, sessionId, this.#now(), this.journal.open(sessionId, streamId), this.#now, this.#defer);
    this.#runs.set(streamId, run);
    this.#activeBySession.set(sessionId, run);
    this.#startHeartbeat();
    return run;
  }

  /** Releases the session; the run stays readable for a while for late watchers. */
  async end(run: Run, status: Run['status']): Promise<void> {
    if (this.#activeBySession.get(run.sessionId) === run) this.#activeBySession.delete(run.sessionId);
    this.#finishing++;
    try {
      await run.finish(status);
    } finally {
      this.#finishing--;
    }
    this.lastFinishedAt = this.#now();
    const timer = setTimeout(() => {
      if (this.#runs.get(run.streamId) === run) this.#runs.delete(run.streamId);
    }, this.#keepFinishedMs);
    (timer as { unref?: () => void }).unref?.();
    if (this.#activeBySession.size === 0) this.#stopHeartbeat();
  }

  get(streamId: string): Run | undefined {
    return this.#runs.get(streamId);
  }

  activeFor(sessionId: string): Run | undefined {
    return this.#activeBySession.get(sessionId);
  }

  get active(): Run[] {
    return [...this.#activeBySession.values()];
  }

  /** Aborts every active run and waits for none: used at shutdown. */
  abortAll(reason: string): void {
    for (const run of this.#activeBySession.values()) run.abort.abort(new Error(reason));
  }

  /** Resolves true once no run is active or still closing its journal, false after `timeoutMs`. */
  async whenIdle(timeoutMs: number): Promise<boolean> {
    const until = Date.now() + timeoutMs;
    // Polled: this only runs at shutdown, and a few checks cost nothing.
    while (this.#activeBySession.size || this.#finishing) {
      if (Date.now() >= until) return false;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return true;
  }

  /**
   * Closes a run whose turn did not end when asked (shutdown): its watchers and journal get the
   * closing event recovery would write, so streams end now and the next start finishes the job.
   */
  interrupt(run: Run): void {
    if (run.closed) return;
    const closing = closingEventFor(run.events, run.sessionId);
    if (closing.event === 'stream_end') run.emit('stream_end', closing.data);
    else run.emit('apperror', closing.data);
  }

  #startHeartbeat() {
    if (this.#heartbeat) return;
    this.#heartbeat = setInterval(() => {
      for (const run of this.#runs.values()) run.ping(HEARTBEAT);
    }, this.#heartbeatMs);
    (this.#heartbeat as { unref?: () => void }).unref?.();
  }

  #stopHeartbeat() {
    // Finished runs may still have watchers replaying; they close on their own.
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    this.#heartbeat = null;
  }
}
