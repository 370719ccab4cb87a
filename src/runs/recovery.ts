import type { Logger } from '../ports/platform.js';
import type { SessionStore } from '../ports/session-store.js';
import { CLOSING_EVENTS, type RunEvent } from './events.js';
import type { RunEventBody } from '../shared/run-events.js';
import type { RunJournal } from './journal.js';
import { type CodedHint, failureHint } from '../shared/server-texts-en.js';

export const INTERRUPTED_MESSAGE = 'The server stopped while this reply was being written, so it was not finished.';
export const INTERRUPTED_HINT = failureHint('interrupted', {}).text;

/**
 * After a restart: every session still marked with an active stream lost its turn when the
 * process died, and every journal without a closing event belongs to a turn cut short (after
 * `done`, the first turn's title request runs with the session already released). Each such
 * journal gets its closing event, numbered after the last one written — and a client never
 * holds an id the journal lacks (see JournalWriter.commit) — so a replay or a resume ends
 * instead of waiting. A turn cut short before `done` also gets a visible interruption notice in
 * its transcript; the user's message stays and no answer is invented. Returns the sessions repaired.
 */
export async function recoverInterruptedTurns(deps: RecoveryDeps): Promise<string[]> {
  const recover = async (sid: string, streamId: string) =>
    deps.resume ? (await deps.resume(sid, streamId)) !== 'skipped' : await recoverInterruptedTurn(deps, sid, streamId);
  const { rows } = await deps.sessions.list({ includeArchived: true });
  const repaired = new Set<string>();
  const handled = new Set<string>();
  for (const row of rows.filter((r) => r.active_stream_id)) {
    handled.add(row.active_stream_id!);
    if (await recover(row.session_id, row.active_stream_id!)) repaired.add(row.session_id);
  }
  const open = await deps.journal.unclosed().catch((err) => {
    deps.logger.error({ msg: 'could not list open run journals', error: String(err) });
    return [];
  });
  for (const { sessionId, streamId } of open) {
    if (!handled.has(streamId) && (await recover(sessionId, streamId))) repaired.add(sessionId);
  }
  return [...repaired];
}

export interface RecoveryDeps {
  sessions: SessionStore;
  journal: RunJournal;
  logger: Logger;
  now: () => number;
  /** Carries a turn on instead of closing it (src/runs/resume-turn.ts); absent: every turn is closed. */
  resume?: (sessionId: string, streamId: string) => Promise<'resumed' | 'closed' | 'skipped'>;
}

/** What a closed turn says (the journal's `apperror` and the transcript's notice); default: interrupted. */
export interface InterruptionNotice {
  message: string;
  type: string;
  hint: string;
  /** The hint's code and values (src/shared/server-texts.ts), for the web app to translate. */
  hint_code?: string;
  hint_args?: Record<string, string>;
}

/** A coded hint as the notice's (and apperror's) fields: the English `hint` beside `hint_code`, `hint_args`. */
export function hintFields(h: CodedHint): Pick<InterruptionNotice, 'hint' | 'hint_code' | 'hint_args'> {
  return { hint: h.text, hint_code: h.code, hint_args: h.args };
}

/**
 * Closes one turn that died with its process (or Durable Object): its journal gets a closing
 * event unless it already has one (`stream_end` after a `done`, else `apperror` of type
 * `interrupted`), and if the session still points at this stream, the stream is cleared and —
 * unless the turn got as far as `done` or a notice is already there — an interruption notice
 * is appended. A session that has moved on to another stream is left alone. Returns whether it
 * repaired anything.
 */
export async function recoverInterruptedTurn(deps: RecoveryDeps, sid: string, streamId: string, notice?: InterruptionNotice): Promise<boolean> {
  try {
    const session = await deps.sessions.get(sid);
    const owns = !!session && session.active_stream_id === streamId;
    const journal = await deps.journal.read(streamId, sid);
    if (!owns && !journal) return false;
    const events = journal?.events ?? [];
    const finished = events.some((e) => e.event === 'done');
    let closedNow = false;
    if (!events.some((e) => CLOSING_EVENTS.has(e.event))) {
      const writer = deps.journal.open(sid, streamId);
      writer.append(closingEvent(events, sid, deps.now(), notice));
      await writer.close();
      closedNow = true;
    }
    if (owns && session) {
      const last = session.messages.at(-1);
      const noticed = finished || !!last?._error || !!last?._interrupted;
      await deps.sessions.appendMessages(
        sid,
        noticed
          ? []
          : [
              {
                role: 'assistant',
                content: notice ? `${notice.message}\n\n${notice.hint}` : INTERRUPTED_MESSAGE,
                _error: true,
                _interrupted: true,
                error_type: notice?.type ?? 'interrupted',
                ...(notice?.hint_code ? { hint_code: notice.hint_code, hint_args: notice.hint_args ?? {} } : {}),
                timestamp: deps.now(),
              },
            ],
        { active_stream_id: null, pending_started_at: null },
      );
    }
    if (!owns && !closedNow) return false;
    deps.logger.info({ msg: 'recovered interrupted turn', session_id: sid, stream_id: streamId });
    return true;
  } catch (err) {
    deps.logger.error({ msg: 'could not recover interrupted turn', session_id: sid, stream_id: streamId, error: String(err) });
    return false;
  }
}

/**
 * The event a cut-short turn ends with: `stream_end` when it got as far as `done` (the answer
 * is stored), else `apperror` of type `interrupted` — the same payload the driver sends when a
 * stop aborts a turn, so the browser shows one notice whichever path closed it.
 */
export function closingEventFor(
  events: readonly RunEvent[],
  sid: string,
  notice: InterruptionNotice = { message: INTERRUPTED_MESSAGE, type: 'interrupted', hint: INTERRUPTED_HINT, hint_code: 'interrupted', hint_args: {} },
): Extract<RunEventBody, { event: 'stream_end' | 'apperror' }> {
  return events.some((e) => e.event === 'done')
    ? { event: 'stream_end', data: { session_id: sid } }
    : { event: 'apperror', data: { ...notice, session_id: sid } };
}

/** That event as a journal line, numbered past every event the journal holds. */
function closingEvent(events: RunEvent[], sid: string, at: number, notice?: InterruptionNotice): RunEvent {
  return { seq: events.reduce((max, e) => Math.max(max, e.seq), 0) + 1, ...closingEventFor(events, sid, notice), at };
}
