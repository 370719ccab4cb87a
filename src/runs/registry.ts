import { Conflict } from '../ports/errors.js';
import type { RunJournal } from './journal.js';
import { closingEventFor } from './recovery.js';
import { Run, SuspendedForRestart } from './run.js';
import { HEARTBEAT } from './sse.js';
import type { AppEvents } from './app-events.js';
import { fencedWriter, type RunOwnership } from './run-ownership.js';
import type { RunEvent } from './events.js';

export interface RunRegistryOptions {
  journal: RunJournal;
  now: () => number;
  /** How long a finished run stays in memory for fast replay (then the journal serves it). */
  keepFinishedMs?: number;
  /** Heartbeat period for open streams. */
  heartbeatMs?: number;
  /** Sends each event-loop turn's frames together (Node: setImmediate); absent: each as emitted. */
  defer?: (send: () => void) => void;
  /** Hears `turn_started` and `turn_finished` for every run (chat, task, subagent). */
  events?: AppEvents;
  /** Several instances on one database: a session's turn runs where its lease is held (see beginOwned). */
  ownership?: RunOwnership;
}

/** Why a run stopped when its lease went to another instance (never shown: that instance carries the turn on). */
export class LeaseLost extends Error {
  override name = 'AbortError';
  /**
   * Read by the loop: it stores nothing of the cut-short step (a partial answer, a tool call
   * without its result). The new owner resumes from the journal and transcript as they were,
   * and a write from here would make it take a call waiting for approval as already answered.
   */
  readonly resumes = true;
  constructor() {
    super('another instance took this turn over');
  }
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
  /** Runs whose lease another instance took: their journals are that instance's now. */
  #fenced = new WeakSet<Run>();
  readonly journal: RunJournal;
  #now: () => number;
  #keepFinishedMs: number;
  #heartbeatMs: number;
  #defer: ((send: () => void) => void) | undefined;
  #events: AppEvents | undefined;
  readonly ownership: RunOwnership | undefined;
  lastFinishedAt: number | null = null;

  constructor(options: RunRegistryOptions) {
    this.journal = options.journal;
    this.#now = options.now;
    this.#keepFinishedMs = options.keepFinishedMs ?? 10 * 60_000;
    this.#heartbeatMs = options.heartbeatMs ?? 15_000;
    this.#defer = options.defer;
    this.#events = options.events;
    this.ownership = options.ownership;
  }

  /**
   * `begin`, first taking the session's run lease when instances share the database: a turn
   * another instance runs is a Conflict (409) with the stream id the session names. The lease
   * is renewed until `end`; lost, the run is fenced (its journal goes silent) and aborted.
   */
  async beginOwned(sessionId: string, streamId: string, source = 'webui', activeStreamId?: () => Promise<string | null | undefined>): Promise<Run> {
    const ownership = this.ownership;
    if (!ownership) return this.begin(sessionId, streamId, source);
    const active = this.#activeBySession.get(sessionId);
    if (active) throw new Conflict('session already has an active stream', { active_stream_id: active.streamId });
    if (!(await ownership.take(sessionId))) {
      throw new Conflict('session already has an active stream', { active_stream_id: (await activeStreamId?.()) ?? null });
    }
    try {
      const run = this.begin(sessionId, streamId, source);
      // The stream exists in the shared journal before its id is handed out: a watcher on
      // another instance, asking at once, finds it instead of a 404.
      await run.flushJournal();
      return run;
    } catch (err) {
      // Another begin on this instance won the session meanwhile: the lease is its.
      if (!this.#activeBySession.has(sessionId)) await ownership.release(sessionId);
      throw err;
    }
  }

  /**
   * Claims the session for a new run; Conflict (409) with the active stream id otherwise.
   * `source` says who started it (`webui`, `cron`, `subagent`): other tabs are told.
   */
  begin(sessionId: string, streamId: string, source = 'webui'): Run {
    return this.#claim(sessionId, streamId, source, []);
  }

  /**
   * Claims the session for a turn a restart cut short: the same stream id, its journal reopened,
   * numbering and replay continuing after `prior` (the events it already had).
   */
  resume(sessionId: string, streamId: string, prior: readonly RunEvent[]): Run {
    return this.#claim(sessionId, streamId, 'resume', prior);
  }

  #claim(sessionId: string, streamId: string, source: string, prior: readonly RunEvent[]): Run {
    const active = this.#activeBySession.get(sessionId);
    if (active) throw new Conflict('session already has an active stream', { active_stream_id: active.streamId });
    const opened = this.journal.open(sessionId, streamId);
    const ownership = this.ownership;
    const writer = ownership ? fencedWriter(opened, () => this.#fenced.has(run)) : opened;
    const run: Run = new Run(streamId, sessionId, this.#now(), writer, this.#now, this.#defer, prior);
    // The caller took the session's lease (beginOwned, or a takeover before resume): renewed from now until end.
    ownership?.hold(sessionId, () => this.#lose(run));
    this.#runs.set(streamId, run);
    this.#activeBySession.set(sessionId, run);
    this.#startHeartbeat();
    this.#events?.emit({ type: 'turn_started', session_id: sessionId, stream_id: streamId, pending_started_at: run.startedAt, source });
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
    if (this.ownership && !this.#fenced.has(run)) await this.ownership.release(run.sessionId).catch(() => {});
    this.lastFinishedAt = this.#now();
    this.#events?.emit({ type: 'turn_finished', session_id: run.sessionId, stream_id: run.streamId, status: run.status });
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

  /** Stops every active run for a restart: each is left as a crash leaves it, to be resumed at the next start. */
  suspendAll(): void {
    for (const run of this.#activeBySession.values()) run.abort.abort(new SuspendedForRestart());
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

  /** The lease went to another instance: not one more line in the journal, and the turn stops here. */
  #lose(run: Run): void {
    this.#fenced.add(run);
    if (this.#activeBySession.get(run.sessionId) === run) this.#activeBySession.delete(run.sessionId);
    // Its stream is the new owner's now: watchers and a later takeover here read the journal, not this run.
    if (this.#runs.get(run.streamId) === run) this.#runs.delete(run.streamId);
    run.dropWatchers();
    run.abort.abort(new LeaseLost());
  }

  /** Whether the run was stopped because another instance took it over. */
  fenced(run: Run): boolean {
    return this.#fenced.has(run);
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
