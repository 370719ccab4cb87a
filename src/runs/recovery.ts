import type { Logger } from '../ports/platform.js';
import type { SessionStore } from '../ports/session-store.js';
import { CLOSING_EVENTS } from './events.js';
import type { RunJournal } from './journal.js';

export const INTERRUPTED_MESSAGE = 'The server stopped while this reply was being written, so it was not finished.';

/**
 * After a restart: every session still marked with an active stream lost its turn when the
 * process died. Its journal gets a closing `apperror` (so a replay ends instead of waiting),
 * and its transcript a visible interruption notice — the user's message stays, and no answer
 * is invented. Returns the sessions repaired.
 */
export async function recoverInterruptedTurns(deps: RecoveryDeps): Promise<string[]> {
  const { rows } = await deps.sessions.list({ includeArchived: true });
  const repaired: string[] = [];
  for (const row of rows.filter((r) => r.active_stream_id)) {
    if (await recoverInterruptedTurn(deps, row.session_id, row.active_stream_id!)) repaired.push(row.session_id);
  }
  return repaired;
}

export interface RecoveryDeps {
  sessions: SessionStore;
  journal: RunJournal;
  logger: Logger;
  now: () => number;
}

/**
 * Closes one session's turn that died with its process (or Durable Object): a closing
 * `apperror` in the journal unless it already ended, an interruption notice in the transcript,
 * and the session's active stream cleared. Nothing happens when the session has since moved on
 * to another stream. Returns whether it repaired anything.
 */
export async function recoverInterruptedTurn(deps: RecoveryDeps, sid: string, streamId: string): Promise<boolean> {
  try {
    const session = await deps.sessions.get(sid);
    if (!session || session.active_stream_id !== streamId) return false;
    const journal = await deps.journal.read(streamId, sid);
    const events = journal?.events ?? [];
    const closed = events.some((e) => CLOSING_EVENTS.has(e.event));
    if (!closed) {
      const writer = deps.journal.open(sid, streamId);
      writer.append({
        seq: (events.at(-1)?.seq ?? 0) + 1,
        event: 'apperror',
        data: { message: INTERRUPTED_MESSAGE, type: 'interrupted', hint: 'Send your message again to retry.', session_id: sid },
        at: deps.now(),
      });
      await writer.close();
    }
    await deps.sessions.appendMessages(
      sid,
      closed ? [] : [{ role: 'assistant', content: INTERRUPTED_MESSAGE, _error: true, _interrupted: true, error_type: 'interrupted', timestamp: deps.now() }],
      { active_stream_id: null, pending_started_at: null },
    );
    deps.logger.info({ msg: 'recovered interrupted turn', session_id: sid, stream_id: streamId });
    return true;
  } catch (err) {
    deps.logger.error({ msg: 'could not recover interrupted turn', session_id: sid, stream_id: streamId, error: String(err) });
    return false;
  }
}
