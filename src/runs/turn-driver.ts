import type { AgentRuntime, TurnInput } from '../agent/runtime.js';
import { ProviderError } from '../agent/providers/types.js';
import type { Logger } from '../ports/platform.js';
import type { SessionStore } from '../ports/session-store.js';
import { presentSession } from '../domain/present-session.js';
import { CancelledByUser, type Run } from './run.js';
import { INTERRUPTED_MESSAGE } from './recovery.js';
import type { RunRegistry } from './registry.js';

export interface DriverDeps {
  sessions: SessionStore;
  registry: RunRegistry;
  logger: Logger;
  now: () => number;
}

/** The longest error detail sent to a browser (the incumbent's cap). */
const MAX_DETAILS = 1200;

/**
 * Runs one turn to its end: relays the runtime's events, stores what it completes, and closes
 * the run with `done`+`stream_end`, `cancel` or `apperror`. Never throws; every failure ends
 * as an event and a stored session, so a turn cannot hang or vanish.
 */
export async function driveTurn(deps: DriverDeps, runtime: AgentRuntime, run: Run, input: TurnInput): Promise<void> {
  const { sessions, logger } = deps;
  const sid = run.sessionId;
  const usage = { input_tokens: 0, output_tokens: 0, estimated_cost: null as number | null };
  let doneSent = false;
  let status: Run['status'] = 'completed';

  const totals = async (u: { input_tokens: number; output_tokens: number; cost: number | null; prompt_tokens: number }) => {
    usage.input_tokens += u.input_tokens;
    usage.output_tokens += u.output_tokens;
    if (u.cost !== null) usage.estimated_cost = (usage.estimated_cost ?? 0) + u.cost;
    const current = await sessions.get(sid);
    if (!current) return;
    await sessions.update(sid, {
      input_tokens: (current.input_tokens ?? 0) + u.input_tokens,
      output_tokens: (current.output_tokens ?? 0) + u.output_tokens,
      ...(u.cost !== null ? { estimated_cost: (current.estimated_cost ?? 0) + u.cost } : {}),
      last_prompt_tokens: u.prompt_tokens,
    });
  };

  try {
    for await (const out of runtime.startTurn(input)) {
      switch (out.type) {
        case 'event':
          run.emit(out.event, out.data);
          break;
        case 'messages':
          if (out.messages.length) await sessions.appendMessages(sid, out.messages);
          break;
        case 'patch':
          await sessions.update(sid, out.patch);
          break;
        case 'usage':
          await totals(out);
          break;
        case 'turn_done': {
          const session = await sessions.update(sid, { active_stream_id: null, pending_started_at: null });
          run.emit('done', { session: presentSession(session), usage });
          doneSent = true;
          break;
        }
      }
    }
    if (!doneSent) {
      const session = await sessions.update(sid, { active_stream_id: null, pending_started_at: null });
      run.emit('done', { session: presentSession(session), usage });
    }
    run.emit('stream_end', { session_id: sid });
  } catch (err) {
    if (run.abort.signal.aborted && run.abort.signal.reason instanceof CancelledByUser) {
      status = 'cancelled';
      const session = await settle(deps, sid, null);
      run.emit('cancel', { message: 'Cancelled by user', type: 'cancelled', status: 'cancelled', session_id: sid, ...(session ? { session: presentSession(session) } : {}) });
    } else {
      status = 'errored';
      const stopped = run.abort.signal.aborted;
      const e =
        err instanceof ProviderError
          ? err
          : stopped
            ? new ProviderError('interrupted', INTERRUPTED_MESSAGE, 'Send your message again to retry.')
            : new ProviderError('error', 'The agent stopped because of an internal error', 'Try again; if it keeps happening, check the server log.', undefined, String((err as Error)?.message ?? err));
      if (!(err instanceof ProviderError) && !stopped) logger.error({ msg: 'turn failed', session_id: sid, stream_id: run.streamId, error: String((err as Error)?.stack ?? err) });
      const details = e.details ? e.details.slice(0, MAX_DETAILS) : undefined;
      const session = await settle(deps, sid, {
        role: 'assistant',
        content: `${e.message}\n\n${e.hint}`,
        _error: true,
        error_type: e.type,
        ...(stopped ? { _interrupted: true } : {}),
        ...(details ? { provider_details: details } : {}),
        timestamp: deps.now(),
      });
      run.emit('apperror', {
        message: e.message,
        type: e.type,
        hint: e.hint,
        ...(details ? { details } : {}),
        session_id: sid,
        ...(session ? { session: presentSession(session) } : {}),
      });
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
