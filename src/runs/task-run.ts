import type { AgentRuntime } from '../agent/runtime.js';
import type { CronJob, CronJobStore } from '../domain/cron/types.js';
import { messageText } from '../domain/session-rows.js';
import type { Logger } from '../ports/platform.js';
import type { SessionStore } from '../ports/session-store.js';
import type { Message, Session } from '../shared/session.js';
import type { RunRegistry } from './registry.js';
import type { RunTask, TaskOutcome } from './task-scheduler.js';
import { driveTurn } from './turn-driver.js';
import type { TurnChanges } from './turn-changes.js';

export interface TaskRunDeps {
  sessions: SessionStore;
  registry: RunRegistry;
  /** The built-in agent (a scheduled run is one of its turns). */
  runtime: AgentRuntime;
  logger: Logger;
  /** Seconds, as every session timestamp. */
  now: () => number;
  workspace: string;
  /** The browser's redaction for the run's events (`api_redact_enabled`); absent: none. */
  presenter?: () => Promise<<T>(value: T) => T>;
  /** Records the task turn's file changes, as a chat turn's. */
  changes?: TurnChanges;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Hermes names a cron session `cron_<job id>_<YYYYMMDD_HHMMSS>` (the incumbent recognises the prefix). */
export function cronSessionId(jobId: string, at: Date): string {
  const stamp = `${at.getUTCFullYear()}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}_${pad(at.getUTCHours())}${pad(at.getUTCMinutes())}${pad(at.getUTCSeconds())}`;
  return `cron_${jobId.replace(/[^A-Za-z0-9_-]/g, '_')}_${stamp}`;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * One run of a job: a new session (source `cron`, titled by the job, in its profile) whose first
 * message is the job's prompt (with its skill), answered by the built-in agent with nobody
 * watching; then the output file in Hermes' layout. Never throws for the agent's failures:
 * they are the run's error.
 */
export function taskRunner(deps: TaskRunDeps): RunTask {
  return async (home, store, job, started) => {
    const startedAt = deps.now();
    const model = job.model || null;
    const provider = job.provider || null;
    // What the output file names when the job leaves the model to the profile's config.
    const configured = await home.config.load().then(
      (c) => c.model,
      () => null,
    );
    const finish = (session: Session | null, ok: boolean, error: string | null, response: string) =>
      writeOutcome(deps, store, job, session, {
        ok,
        error,
        response,
        model: model ?? configured?.default ?? null,
        provider: provider ?? configured?.provider ?? null,
        duration: round2(deps.now() - startedAt),
      });
    try {
      await deps.runtime.check(model, home);
    } catch (err) {
      const message = String((err as Error)?.message ?? err);
      return finish(null, false, message, message);
    }
    let sid = cronSessionId(job.id, new Date(startedAt * 1000));
    if (await deps.sessions.get(sid)) sid = `${sid}_${crypto.randomUUID().slice(0, 4)}`;
    const streamId = crypto.randomUUID().replace(/-/g, '');
    const skill = Array.isArray(job.skills) ? job.skills.find((s) => typeof s === 'string' && s.trim()) : undefined;
    const user: Message = { role: 'user', content: job.prompt, timestamp: startedAt, ...(skill ? { skill } : {}) };
    const present = deps.presenter ? await deps.presenter() : undefined;
    const run = await deps.registry.beginOwned(sid, streamId, 'cron');
    let session: Session;
    try {
      session = await deps.sessions.create({
        session_id: sid,
        title: job.name || 'Cron Session',
        // The job's name stays the title: no title is generated for it.
        llm_title_generated: true,
        workspace: deps.workspace,
        model,
        model_provider: provider?.toLowerCase() ?? null,
        created_at: startedAt,
        updated_at: startedAt,
        pinned: false,
        archived: false,
        project_id: null,
        profile: home.profile,
        input_tokens: 0,
        output_tokens: 0,
        estimated_cost: null,
        // The incumbent's marks for a scheduled run's session (its Tasks filter and badges read them).
        session_source: 'cron',
        source_tag: 'cron',
        raw_source: 'cron',
        cron_job_id: job.id,
        active_stream_id: streamId,
        pending_started_at: startedAt,
        messages: [user],
        tool_calls: [],
      });
    } catch (err) {
      await deps.registry.end(run, 'errored');
      const message = `Could not create the task's session: ${(err as Error)?.message ?? err}`;
      return finish(null, false, message, message);
    }
    started(sid);
    await driveTurn(
      {
        sessions: deps.sessions,
        registry: deps.registry,
        logger: deps.logger,
        now: deps.now,
        ...(present ? { present } : {}),
        ...(deps.changes ? { changes: deps.changes } : {}),
      },
      deps.runtime,
      run,
      {
        session,
        streamId,
        model,
        workspace: deps.workspace,
        signal: run.abort.signal,
        home,
        unattended: 'cron',
      },
    );
    const stored = (await deps.sessions.get(sid).catch(() => null)) ?? session;
    const last = [...stored.messages].reverse().find((m) => m.role === 'assistant');
    const failed = run.status !== 'completed' || !last || (last as { _error?: unknown })._error === true;
    const text = last ? messageText(last).trim() : '';
    const error = failed ? text || `The run ended ${run.status}.` : null;
    return finish(stored, !failed, error, text);
  };
}

async function writeOutcome(
  deps: TaskRunDeps,
  store: CronJobStore,
  job: CronJob,
  session: Session | null,
  r: { ok: boolean; error: string | null; response: string; model: string | null; provider: string | null; duration: number },
): Promise<TaskOutcome> {
  let file: string | null = null;
  try {
    const written = await store.writeOutput({
      job_id: job.id,
      run_at: new Date(deps.now() * 1000).toISOString(),
      status: r.ok ? 'ok' : 'error',
      model: session?.model || r.model,
      provider: session?.model_provider || r.provider,
      input_tokens: session ? (session.input_tokens ?? 0) : null,
      output_tokens: session ? (session.output_tokens ?? 0) : null,
      cost: session?.estimated_cost ?? null,
      duration_seconds: r.duration,
      session_id: session?.session_id ?? null,
      response: r.ok ? r.response : (r.error ?? r.response),
    });
    file = written.filename;
  } catch (err) {
    deps.logger.error({ msg: 'could not write a task output', job_id: job.id, error: String((err as Error)?.message ?? err) });
  }
  return { session_id: session?.session_id ?? null, ok: r.ok, error: r.error, output_file: file };
}
