import type { Config } from '../config.js';
import type { AppDeps } from '../deps.js';
import type { AgentRuntime } from '../agent/runtime.js';
import { sessionHome } from '../http/request-home.js';
import { presenter } from '../http/redaction.js';
import { recoverInterruptedTurns } from '../runs/recovery.js';
import { resumeInterruptedTurn, type ResumeDeps } from '../runs/resume-turn.js';

/**
 * Turns that were running when the process last died: with `runs.resume` each built-in turn
 * carries on (registered before this resolves, its model call started in the background),
 * every other one is closed and marked, as without it. Runs before the server listens; sets
 * `deps.agent.resumeTurn` for whoever takes over another instance's turn. `atStart` false
 * (several instances) only sets it.
 */
export async function recoverNodeTurns(deps: AppDeps, config: Config, builtin: AgentRuntime, options: { atStart?: boolean } = {}): Promise<void> {
  const atStart = options.atStart ?? true;
  const base = { sessions: deps.sessions, journal: deps.agent.registry.journal, logger: deps.logger, now: () => deps.clock.now() };
  if (!config.runs.resume) {
    if (!atStart) return;
    await recoverInterruptedTurns(base);
    return;
  }
  const resume: ResumeDeps = {
    ...base,
    registry: deps.agent.registry,
    runtime: builtin,
    // Whichever answers turns now: with the gateway chosen, the gateway runtime reattaches to Hermes' run.
    gateway: deps.agent.runtime,
    maxAttempts: config.runs.maxAttempts,
    ...(deps.changes ? { changes: deps.changes } : {}),
    // A subagent child's parent resumes (the child's call there is recorded as interrupted); a
    // scheduled run's job state belongs to the scheduler, so it is closed; a gateway turn reattaches
    // to Hermes' run while the gateway still answers turns.
    resumable: async (session, kind) =>
      session.session_source !== 'subagent' && session.session_source !== 'cron' && (await deps.agent.backend.current()).backend === kind,
    turnContext: async (session) => ({
      workspace:
        typeof session.workspace === 'string' && session.workspace
          ? await deps.files.checkWorkspace(session.workspace).catch(() => deps.options.defaultWorkspace)
          : deps.options.defaultWorkspace,
      home: await sessionHome(deps, session),
      present: await presenter(deps.settings),
    }),
  };
  deps.agent.resumeTurn = (sid, streamId) => resumeInterruptedTurn(resume, sid, streamId);
  // Several instances: a turn another live instance holds is not this one's (the takeover sweep decides).
  if (!atStart) return;
  await recoverInterruptedTurns({ ...base, resume: deps.agent.resumeTurn });
}
