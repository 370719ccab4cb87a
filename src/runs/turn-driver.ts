import type { AgentRuntime, TurnInput, TurnOutput } from '../agent/runtime.js';
import { ProviderError } from '../agent/providers/types.js';
import type { Logger } from '../ports/platform.js';
import type { SessionPatch, SessionStore } from '../ports/session-store.js';
import type { Message } from '../shared/session.js';
import { presentSession } from '../domain/present-session.js';
import { CancelledByUser, SuspendedForRestart, type Run } from './run.js';
import { PRESENTED_EVENTS, type RunEventName, type RunEventPayloads } from './events.js';
import { INTERRUPTED_MESSAGE } from './recovery.js';
import { failureHint } from '../shared/server-texts-en.js';
import type { RunRegistry } from './registry.js';
import { withTurnUsage } from './turn-usage.js';
import { watchTurnChanges, type TurnChangeSummary, type TurnChanges } from './turn-changes.js';
import { TURN_STREAM_KEY } from '../shared/file-changes.js';

export interface DriverDeps {
  sessions: SessionStore;
  registry: RunRegistry;
  logger: Logger;
  now: () => number;
  /**
   * What a browser may see (`api_redact_enabled`): applied to the session in `done`, `cancel`
   * and `apperror`, and to the runtime's events in PRESENTED_EVENTS, before they are framed and
   * journaled. Token and reasoning deltas pass as they are (a secret can straddle two deltas;
   * the `done` session replaces them). What is stored is never redacted. Absent: passed as is.
   */
  present?: <T>(value: T) => T;
  /**
   * Records what the turn changed in its workspace (before/after snapshots): the `turn_changes`
   * event before the turn's closing one, `file_changes` on its last assistant message. Absent: nothing recorded.
   */
  changes?: TurnChanges;
}

/** The longest error detail sent to a browser (the incumbent's cap). */
const MAX_DETAILS = 1200;

/**
 * Runs one turn to its end: relays the runtime's events, stores what it completes, and closes
 * the run with `done`+`stream_end`, `cancel` or `apperror`. Never throws; every failure ends
 * as an event and a stored session, so a turn cannot hang or vanish.
 *
 * Events are relayed the moment they arrive; storage runs on its own queue beside them (a
 * slow disk must not hold tokens back), and `done` waits for that queue to drain.
 */
export async function driveTurn(deps: DriverDeps, runtime: AgentRuntime, run: Run, input: TurnInput): Promise<void> {
  const { sessions, logger } = deps;
  const present = deps.present ?? (<T>(value: T) => value);
  const sid = run.sessionId;
  const usage = { input_tokens: 0, output_tokens: 0, estimated_cost: null as number | null };
  const cached = { read: 0, write: 0, seen: false };
  // This run is the session's only writer of token totals, so they are kept here and stored whole.
  const base = { input: input.session.input_tokens ?? 0, output: input.session.output_tokens ?? 0, cost: input.session.estimated_cost ?? null };
  const baseCache = { read: numberOr0(input.session.cache_read_tokens), write: numberOr0(input.session.cache_write_tokens) };
  let status: Run['status'] = 'completed';
  const startedAt = deps.now();
  // Storage work waiting its turn, merged: what a step completes (its messages, usage and
  // patches) becomes one session write instead of several.
  let queued: { messages: Message[]; patch: SessionPatch } | null = null;
  let writing: Promise<void> | null = null;
  let writeError: unknown = null;
  const flush = async (): Promise<void> => {
    while (queued && !writeError) {
      const { messages, patch } = queued;
      queued = null;
      // Taken over by another instance: the transcript is its now.
      if (deps.registry.fenced(run)) break;
      try {
        if (messages.length) await sessions.appendMessages(sid, messages, patch);
        else await sessions.update(sid, patch);
      } catch (err) {
        writeError = err;
      }
    }
    writing = null;
  };
  const store = (messages: Message[], patch: SessionPatch) => {
    queued ??= { messages: [], patch: {} };
    queued.messages.push(...messages);
    Object.assign(queued.patch, patch);
    writing ??= Promise.resolve().then(flush);
  };
  // The before snapshot runs beside the first model call; the first tool waits for it (checkpoint).
  const watch = deps.changes ? watchTurnChanges(deps.changes, { sessionId: sid, streamId: run.streamId, workspace: input.workspace }, deps) : null;
  // With a watch, the latest messages are kept back until the next checkpoint or the end, so the
  // turn's last assistant message is stored already carrying its file changes.
  let held: Message[] | null = null;
  const release = () => {
    if (held) store(held, {});
    held = null;
  };
  let recorded: Promise<TurnChangeSummary | null> | null = null;
  /** Once per turn: the after snapshot, the record, the `turn_changes` event, and the held messages annotated and stored. */
  const recordChanges = (annotateHeld = true): Promise<TurnChangeSummary | null> =>
    (recorded ??= (async () => {
      const summary = watch ? await watch.finish() : null;
      if (summary) {
        const last = annotateHeld ? (held?.findLastIndex((m) => m.role === 'assistant') ?? -1) : -1;
        if (held && last >= 0) held[last] = { ...held[last]!, file_changes: summary.file_changes, [TURN_STREAM_KEY]: run.streamId };
        run.emit('turn_changes', { session_id: sid, stream_id: run.streamId, ...summary });
      }
      release();
      return summary;
    })());
  const drained = async () => {
    while (writing) await writing;
    if (writeError) throw writeError;
  };
  const finishTurn = async () => {
    // A turn taken over by another instance ends there, not here.
    if (deps.registry.fenced(run)) throw run.abort.signal.reason;
    await recordChanges();
    await drained();
    const session = await sessions.update(sid, { active_stream_id: null, pending_started_at: null });
    const cache = cached.seen
      ? {
          cache_read_tokens: cached.read,
          cache_write_tokens: cached.write,
          cache_hit_percent: usage.input_tokens > 0 && cached.read > 0 ? Math.min(100, Math.round((cached.read / usage.input_tokens) * 100)) : null,
        }
      : {};
    run.emit('done', { session: present(presentSession(session)), usage: { ...usage, ...cache } });
  };

  const handle = async (out: TurnOutput): Promise<boolean> => {
    switch (out.type) {
      case 'event': {
        const { event, data } = out as { event: RunEventName; data: RunEventPayloads[RunEventName] };
        run.emit(event, PRESENTED_EVENTS.has(event) ? present(data) : data);
        return false;
      }
      case 'messages':
        if (out.messages.length) {
          const tally = { ...usage, ...(cached.seen ? { cache_read_tokens: cached.read, cache_write_tokens: cached.write } : {}) };
          const messages = out.messages.map((m) => withTurnUsage(m, tally, deps.now() - startedAt));
          if (watch) {
            release();
            held = messages;
          } else store(messages, {});
        }
        return false;
      case 'patch':
        store([], out.patch);
        return false;
      case 'checkpoint':
        // After everything output before it is stored: a step it no longer names is in the transcript.
        try {
          // Before any tool runs, the workspace's before snapshot is complete.
          if (watch) await watch.ready;
          release();
          await drained();
          await run.checkpoint(out.step, out.gateway);
          out.written();
        } catch (err) {
          out.written(err);
        }
        return false;
      case 'usage': {
        usage.input_tokens += out.input_tokens;
        usage.output_tokens += out.output_tokens;
        if (out.cost !== null) usage.estimated_cost = (usage.estimated_cost ?? 0) + out.cost;
        if (out.cache_read_tokens !== undefined || out.cache_write_tokens !== undefined) {
          cached.seen = true;
          cached.read += out.cache_read_tokens ?? 0;
          cached.write += out.cache_write_tokens ?? 0;
        }
        const patch = {
          input_tokens: base.input + usage.input_tokens,
          output_tokens: base.output + usage.output_tokens,
          ...(usage.estimated_cost !== null ? { estimated_cost: (base.cost ?? 0) + usage.estimated_cost } : {}),
          last_prompt_tokens: out.prompt_tokens,
          // The incumbent's session totals of prompt-cache reads and writes.
          ...(cached.seen ? { cache_read_tokens: baseCache.read + cached.read, cache_write_tokens: baseCache.write + cached.write } : {}),
        };
        store([], patch);
        return false;
      }
      case 'turn_done':
        await finishTurn();
        return true;
    }
  };

  try {
    let doneSent = false;
    for await (const out of runtime.startTurn({ ...input, checkpoints: true })) {
      if (await handle(out)) doneSent = true;
    }
    if (!doneSent) await finishTurn();
    else await drained();
    run.emit('stream_end', { session_id: sid });
  } catch (err) {
    // Taken over by another instance: the session and journal are its now, so nothing is written.
    const fenced = deps.registry.fenced(run);
    // What the turn changed before it failed is recorded too (not when it resumes later or elsewhere).
    const ends = !fenced && !run.closed && !(run.abort.signal.reason instanceof SuspendedForRestart);
    // A failed turn's error notice carries them; a cancelled one's partial answer does.
    const cancelled = run.abort.signal.aborted && run.abort.signal.reason instanceof CancelledByUser;
    const changed = ends ? await recordChanges(cancelled).catch(() => null) : null;
    if (!fenced) release();
    // Whatever the turn completed before it failed is stored first.
    if (!fenced) await drained().catch(() => {});
    if (fenced) {
      status = 'errored';
    } else if (run.closed) {
      // Closed from outside (a stop that could not wait for this turn): recovery finishes it.
      status = 'errored';
    } else if (run.abort.signal.reason instanceof SuspendedForRestart) {
      // Stopped for a restart: left open and unmarked, the next start resumes it.
      status = 'errored';
      run.detach();
    } else if (run.abort.signal.aborted && run.abort.signal.reason instanceof CancelledByUser) {
      status = 'cancelled';
      const session = await settle(deps, sid, null);
      run.emit('cancel', {
        message: 'Cancelled by user',
        type: 'cancelled',
        status: 'cancelled',
        session_id: sid,
        ...(session ? { session: present(presentSession(session)) } : {}),
      });
    } else {
      status = 'errored';
      const stopped = run.abort.signal.aborted;
      const e =
        err instanceof ProviderError
          ? err
          : stopped
            ? new ProviderError('interrupted', INTERRUPTED_MESSAGE, failureHint('interrupted', {}))
            : new ProviderError(
                'error',
                'The agent stopped because of an internal error',
                failureHint('internal_error', {}),
                undefined,
                String((err as Error)?.message ?? err),
              );
      if (!(err instanceof ProviderError) && !stopped)
        logger.error({ msg: 'turn failed', session_id: sid, stream_id: run.streamId, error: String((err as Error)?.stack ?? err) });
      const details = e.details ? e.details.slice(0, MAX_DETAILS) : undefined;
      // The hint's code and values beside its English: the web app shows it in the reader's language, now and after a reload.
      const coded = { hint_code: e.hintCode, hint_args: e.hintArgs };
      const session = await settle(deps, sid, {
        role: 'assistant',
        content: `${e.message}\n\n${e.hint}`,
        _error: true,
        error_type: e.type,
        ...coded,
        ...(stopped ? { _interrupted: true } : {}),
        ...(details ? { provider_details: details } : {}),
        ...(changed ? { file_changes: changed.file_changes, [TURN_STREAM_KEY]: run.streamId } : {}),
        timestamp: deps.now(),
      });
      run.emit(
        'apperror',
        present({
          message: e.message,
          type: e.type,
          hint: e.hint,
          ...coded,
          ...(details ? { details } : {}),
          session_id: sid,
          ...(session ? { session: presentSession(session) } : {}),
        }),
      );
    }
  } finally {
    await deps.registry.end(run, status).catch((err) => logger.error({ msg: 'run end failed', error: String(err) }));
  }
}

/** Releases the session from the run, appending an error notice when there is one. */
async function settle(deps: DriverDeps, sid: string, notice: Record<string, unknown> | null) {
  try {
    const patch = { active_stream_id: null, pending_started_at: null };
    return notice ? await deps.sessions.appendMessages(sid, [notice as { role: string }], patch) : await deps.sessions.update(sid, patch);
  } catch (err) {
    deps.logger.error({ msg: 'could not store the end of a turn', session_id: sid, error: String(err) });
    return null;
  }
}

function numberOr0(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}
