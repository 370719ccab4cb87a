import type { AgentRuntime } from '../agent/runtime.js';
import type { HermesHome } from '../ports/hermes-home.js';
import type { Session } from '../shared/session.js';
import { CLOSING_EVENTS } from './events.js';
import { hintFields, recoverInterruptedTurn, type RecoveryDeps } from './recovery.js';
import { failureHint } from '../shared/server-texts-en.js';
import type { RunRegistry } from './registry.js';
import { INTERRUPTED_TOOL_RESULT, planResume, resumeCount } from './run-resume.js';
import { driveTurn } from './turn-driver.js';
import type { TurnChanges } from './turn-changes.js';
import { gatewayResumeOf } from '../agent/gateway/reattach.js';

export const RESUMED_MESSAGE = 'Resumed after a restart';

export interface ResumeDeps extends RecoveryDeps {
  registry: RunRegistry;
  /** The builtin agent (its turns carry on). */
  runtime: AgentRuntime;
  /** The gateway runtime: a turn whose checkpoint names a Hermes run reattaches to it. Absent: such turns are closed. */
  gateway?: AgentRuntime;
  /** How many times one turn may be resumed before it ends with `resume_failed`. */
  maxAttempts: number;
  /** Whether this session's turn may carry on here (`kind` answers turns now, it is no subagent child). */
  resumable(session: Session, kind: 'builtin' | 'gateway'): Promise<boolean>;
  /** What the turn needs beyond the session: its workspace, profile home, and what a browser may see. */
  turnContext(session: Session): Promise<{ workspace: string; home?: HermesHome; present?: <T>(value: T) => T }>;
  /** Told of each resumed turn's promise (it outlives the caller). */
  background?: (turn: Promise<void>) => void;
  /** Records the resumed turn's file changes (from the resume on: what it changed before the restart is not known). */
  changes?: TurnChanges;
}

/**
 * Carries on one turn a restart (or its instance's death) cut short: from the transcript, the
 * journal's checkpoint and events (run-resume.ts), the run is registered again at once under its
 * stream id with its events, says `resumed` first, and goes on through the normal driver; its
 * model call starts without the caller waiting for it. A turn that cannot or may not resume is
 * closed as recovery closes it: `closed`; one that is not this caller's to touch (another run
 * holds the session, or nothing is left to do): `skipped`.
 */
export async function resumeInterruptedTurn(deps: ResumeDeps, sid: string, streamId: string): Promise<'resumed' | 'closed' | 'skipped'> {
  const close = async () => ((await recoverInterruptedTurn(deps, sid, streamId)) ? 'closed' : 'skipped');
  try {
    if (deps.registry.activeFor(sid) || deps.registry.get(streamId)) return 'skipped';
    const session = await deps.sessions.get(sid);
    const record = await deps.journal.read(streamId, sid);
    if (!session || session.active_stream_id !== streamId || !record) return await close();
    const events = record.events;
    if (events.some((e) => e.event === 'done' || CLOSING_EVENTS.has(e.event))) return await close();
    // A gateway turn is reattached to the Hermes run its checkpoint names; one that never named a run is closed.
    const gateway = gatewayResumeOf(record, session.messages);
    const runtime = gateway ? deps.gateway : deps.runtime;
    if (!runtime || !(await deps.resumable(session, gateway ? 'gateway' : 'builtin'))) return await close();
    if (resumeCount(events) >= deps.maxAttempts) {
      const n = resumeCount(events);
      // What the last attempt streamed or finished stays, as a resume would have kept it.
      const kept = planResume(session.messages, record, deps.now()).store;
      if (kept.length) await deps.sessions.appendMessages(sid, kept, {});
      await recoverInterruptedTurn(deps, sid, streamId, {
        type: 'resume_failed',
        message: `This reply was cut short by a restart again after ${n} ${n === 1 ? 'resume' : 'resumes'}, so it was stopped.`,
        ...hintFields(failureHint('resume_failed', {})),
      });
      deps.logger.error({ msg: 'turn not resumed again', session_id: sid, stream_id: streamId, attempts: n });
      return 'closed';
    }
    const context = await deps.turnContext(session);
    const plan = planResume(session.messages, record, deps.now());
    // Registered before anything is awaited again: a browser reconnecting now finds it live.
    const run = deps.registry.resume(sid, streamId, events);
    run.emit('resumed', {
      session_id: sid,
      attempt: plan.attempt,
      message: RESUMED_MESSAGE,
      partial: plan.resume.partial,
      interrupted_tools: plan.interrupted,
    });
    // The rows of the calls that were running end as they are recorded: interrupted.
    for (const tool of plan.interrupted) {
      const started = events.find((e) => e.event === 'tool' && e.data.tool_call_id === tool.tool_call_id);
      const row = started?.event === 'tool' ? started.data : { name: tool.name, preview: tool.name, args: {}, tool_call_id: tool.tool_call_id };
      run.emit('tool_complete', { ...row, event_type: 'tool.completed', is_error: true, result: INTERRUPTED_TOOL_RESULT });
    }
    let stored = session;
    try {
      stored = plan.store.length ? await deps.sessions.appendMessages(sid, plan.store, {}) : session;
      const step = plan.resume.step;
      // A gateway cursor keeps its own seq: a replay after its event id still repeats what came before this resume.
      await run.checkpoint(step ? { assistant: step.assistant, results: step.results } : null, record.checkpoint?.gateway);
    } catch (err) {
      run.abort.abort(new Error('resume failed'));
      deps.logger.error({ msg: 'could not resume turn', session_id: sid, stream_id: streamId, error: String(err) });
    }
    const driver = {
      sessions: deps.sessions,
      registry: deps.registry,
      logger: deps.logger,
      now: deps.now,
      ...(context.present ? { present: context.present } : {}),
      ...(deps.changes ? { changes: deps.changes } : {}),
    };
    const turn = driveTurn(driver, runtime, run, {
      session: stored,
      streamId,
      model: typeof session.model === 'string' && session.model ? session.model : null,
      workspace: context.workspace,
      signal: run.abort.signal,
      ...(context.home ? { home: context.home } : {}),
      resume: gateway ? { ...plan.resume, gateway } : plan.resume,
    });
    deps.background?.(turn);
    deps.logger.info({ msg: 'resumed interrupted turn', session_id: sid, stream_id: streamId, attempt: plan.attempt });
    return 'resumed';
  } catch (err) {
    deps.logger.error({ msg: 'could not resume turn', session_id: sid, stream_id: streamId, error: String(err) });
    return await close().catch(() => 'skipped' as const);
  }
}
