import { DEFAULT_TITLE, messageText, newSessionId, provisionalTitle } from '../../domain/session-rows.js';
import type { HermesHome } from '../../ports/hermes-home.js';
import type { Logger } from '../../ports/platform.js';
import type { SessionStore } from '../../ports/session-store.js';
import type { RunRegistry } from '../../runs/registry.js';
import type { Run } from '../../runs/run.js';
import { driveTurn } from '../../runs/turn-driver.js';
import { cutBeforeToken } from '../../shared/redact.js';
import { isToolErrorResult, type RunEventPayloads } from '../../shared/run-events.js';
import type { Message, Session } from '../../shared/session.js';
import type { DelegationConfig } from '../delegation-config.js';
import type { AgentRuntime, EmitEvent, TurnOutput } from '../runtime.js';
import { childToolNames, delegateTaskTool, type SubagentResult, type SubagentSpawner, type SubagentTask } from '../tools/delegate.js';
import type { Tool } from '../tools/types.js';

/** What child turns need beyond the runtime: the stores and registry every turn uses. */
export interface ChildRunDeps {
  sessions: SessionStore;
  registry: RunRegistry;
  logger: Logger;
  /** What a browser may see of a child's events (`api_redact_enabled`), read once per child. */
  presenter?: () => Promise<<T>(value: T) => T>;
}

/** Kept in a child session (`subagent`): what makes its turns a subagent's. */
export interface SubagentMarker {
  depth: number;
  goal: string;
  context?: string;
  role: 'leaf' | 'orchestrator';
  /** The tools this child may use (already narrowed and stripped). */
  tools: string[];
  task_index: number;
}

/** The marker of a child session, or null for a conversation of its own. */
export function subagentOf(session: Session): SubagentMarker | null {
  const m = session.subagent as Partial<SubagentMarker> | undefined;
  if (session.session_source !== 'subagent' || !m || typeof m.goal !== 'string' || !Array.isArray(m.tools)) return null;
  return {
    depth: typeof m.depth === 'number' && m.depth > 0 ? m.depth : 1,
    goal: m.goal,
    ...(typeof m.context === 'string' ? { context: m.context } : {}),
    role: m.role === 'orchestrator' ? 'orchestrator' : 'leaf',
    tools: m.tools.filter((t): t is string => typeof t === 'string'),
    task_index: typeof m.task_index === 'number' ? m.task_index : 0,
  };
}

/**
 * Narrows a turn's tools in place: no delegate_task where children cannot run, the one offered
 * names config.yaml's limits, and a child keeps only the tools it was given.
 */
export function narrowForDelegation(tools: Tool[], o: { child: SubagentMarker | null; canSpawn: boolean; limits: DelegationConfig }): void {
  for (let i = tools.length - 1; i >= 0; i--) {
    const name = tools[i]!.spec.name;
    if ((name === 'delegate_task' && !o.canSpawn) || (o.child && !o.child.tools.includes(name))) tools.splice(i, 1);
    else if (name === 'delegate_task') tools[i] = delegateTaskTool(o.limits);
  }
}

/** A child's system prompt: its task, its context, where it works, and what to hand back. */
export function subagentSystemPrompt(marker: SubagentMarker, workspace: string): string {
  const parts = ['You are a subagent: another agent handed you one task. Work on it alone; nobody can answer questions.', '', `TASK:\n${marker.goal}`];
  if (marker.context?.trim()) parts.push('', `CONTEXT:\n${marker.context}`);
  parts.push(
    '',
    `WORKSPACE:\n${workspace}\nRelative paths and commands start there. Do not guess other locations (such as /workspace/...); find them first.`,
    '',
    'Use your tools to finish the task, then reply with a short summary for the agent that delegated it: what you did,',
    'what you found or achieved, which files you created or changed, and any problem you hit. Your reply is all it sees.',
  );
  if (marker.role === 'orchestrator' && marker.tools.includes('delegate_task')) {
    parts.push('', 'You may use delegate_task to split independent parts of this task among your own subagents; combine their results yourself.');
  }
  return parts.join('\n');
}

/** What a child gets back instead of an approval prompt it cannot show. */
export function subagentApprovalRefusal(command: string, description: string): string {
  return `BLOCKED: subagents cannot ask for approval, and this command needs it (${description}); it was not run: ${command}. Set delegation.subagent_auto_approve: true in config.yaml to let subagents run such commands.`;
}

export class SubagentTimeout extends Error {
  override name = 'AbortError';
}

const newStreamId = () => crypto.randomUUID().replace(/-/g, '');
const SUMMARY_EVENT_CHARS = 500;

export interface SpawnerOptions {
  deps: ChildRunDeps;
  /** The runtime the children's turns run on (the builtin agent itself). */
  runtime: AgentRuntime;
  /** `home`: the parent's profile home, which the children work in too. */
  parent: {
    sessionId: string;
    workspace: string;
    model: string | null;
    depth: number;
    toolNames: string[];
    profile?: unknown;
    projectId?: unknown;
    home?: HermesHome;
  };
  config: DelegationConfig;
  now: () => number;
  /** The parent turn's events: the tree's `subagent` rows go there. */
  emit: EmitEvent;
}

/**
 * Runs delegate_task's children, each as its own session (`parent_session_id`, `session_source:
 * "subagent"`) and its own run in the registry: so a child's stream can be opened and cancelled
 * like any turn, and the parent's cancel reaches every child.
 */
export function subagentSpawner(o: SpawnerOptions): SubagentSpawner {
  return {
    depth: o.parent.depth,
    maxSpawnDepth: o.config.maxSpawnDepth,
    maxConcurrentChildren: o.config.maxConcurrentChildren,
    orchestratorEnabled: o.config.orchestratorEnabled,
    run: (tasks, signal) => Promise.all(tasks.map((task, i) => runChild(o, task, i, tasks.length, signal))),
  };
}

async function runChild(o: SpawnerOptions, task: SubagentTask, index: number, count: number, signal: AbortSignal): Promise<SubagentResult> {
  const { sessions, registry, logger } = o.deps;
  const depth = o.parent.depth + 1;
  const canDelegate = task.role === 'orchestrator' && o.config.orchestratorEnabled && depth < o.config.maxSpawnDepth;
  const marker: SubagentMarker = {
    depth,
    goal: task.goal,
    ...(task.context ? { context: task.context } : {}),
    role: canDelegate ? 'orchestrator' : 'leaf',
    tools: childToolNames(o.parent.toolNames, task, canDelegate),
    task_index: index,
  };
  const model = o.config.model ?? o.parent.model;
  const sid = newSessionId();
  const streamId = newStreamId();
  const started = o.now();
  const user: Message = { role: 'user', content: task.goal, timestamp: started };
  const row = { parent_session_id: o.parent.sessionId, session_id: sid, stream_id: streamId, task_index: index, task_count: count, goal: task.goal, depth };
  let toolCount = 0;
  let apiCalls = 0;
  const progress = (event_type: RunEventPayloads['subagent']['event_type'], extra: Partial<RunEventPayloads['subagent']> = {}) =>
    o.emit('subagent', { event_type, ...row, status: 'running', tool_count: toolCount, ...extra });

  let present: (<T>(value: T) => T) | undefined;
  let run: Run | undefined;
  let session: Session;
  try {
    present = o.deps.presenter ? await o.deps.presenter() : undefined;
    run = await registry.beginOwned(sid, streamId, 'subagent');
    session = await sessions.create({
      session_id: sid,
      title: provisionalTitle([user]) ?? DEFAULT_TITLE,
      workspace: o.parent.workspace,
      model,
      model_provider: null,
      created_at: started,
      updated_at: started,
      pinned: false,
      archived: false,
      project_id: typeof o.parent.projectId === 'string' ? o.parent.projectId : null,
      profile: typeof o.parent.profile === 'string' ? o.parent.profile : 'default',
      input_tokens: 0,
      output_tokens: 0,
      estimated_cost: null,
      parent_session_id: o.parent.sessionId,
      session_source: 'subagent',
      // The incumbent's marks for a delegated child: view-only, sourced from a subagent.
      source_tag: 'subagent',
      read_only: true,
      subagent: marker,
      active_stream_id: streamId,
      pending_started_at: started,
      messages: [user],
      tool_calls: [],
    });
  } catch (err) {
    if (run) await registry.end(run, 'errored');
    const error = `Could not create the subagent's session: ${(err as Error)?.message ?? err}`;
    return { ...emptyResult(index, sid, model), status: 'error', exit_reason: 'error', error };
  }

  // The parent's cancel (or shutdown) stops the child with the same reason; so does its own timeout.
  const stop = () => run.abort.abort(signal.reason);
  if (signal.aborted) stop();
  else signal.addEventListener('abort', stop, { once: true });
  let timedOut = false;
  const timer =
    o.config.childTimeoutSeconds !== null
      ? setTimeout(() => {
          timedOut = true;
          run.abort.abort(new SubagentTimeout(`Subagent timed out after ${o.config.childTimeoutSeconds}s`));
        }, o.config.childTimeoutSeconds * 1000)
      : null;

  // The child's own outputs pass through untouched; the parent's tree hears about its tools.
  const observe = (out: TurnOutput) => {
    if (out.type === 'usage') apiCalls++;
    if (out.type !== 'event') return;
    if (out.event === 'tool') {
      toolCount++;
      progress('subagent.progress', { tool: out.data.name });
    } else if (out.event === 'tool_complete') progress('subagent.progress');
    // A grandchild's rows go up the tree as they are.
    else if (out.event === 'subagent') o.emit('subagent', out.data);
  };
  const tapped: AgentRuntime = {
    kind: o.runtime.kind,
    check: (m, home) => o.runtime.check(m, home),
    startTurn: (input) => tap(o.runtime.startTurn(input), observe),
  };

  progress('subagent.start');
  try {
    // Never throws: every way a turn ends is an event, a stored session and a released run.
    await driveTurn({ sessions, registry, logger, now: o.now, ...(present ? { present } : {}) }, tapped, run, {
      session,
      streamId,
      model,
      workspace: o.parent.workspace,
      signal: run.abort.signal,
      ...(o.parent.home ? { home: o.parent.home } : {}),
    });
  } finally {
    signal.removeEventListener('abort', stop);
    if (timer) clearTimeout(timer);
  }

  const stored = await sessions.get(sid).catch(() => null);
  const result = resultOf(stored, run, { index, sid, model, apiCalls, timedOut, duration: round2(o.now() - started), parentStopped: signal.aborted });
  o.emit('subagent', {
    event_type: 'subagent.complete',
    ...row,
    status: result.status,
    tool_count: toolCount,
    api_calls: result.api_calls,
    duration_seconds: result.duration_seconds,
    ...(result.summary ? { summary: cutBeforeToken(result.summary, SUMMARY_EVENT_CHARS) } : {}),
  });
  return result;
}

async function* tap(source: AsyncIterable<TurnOutput>, observe: (out: TurnOutput) => void): AsyncIterable<TurnOutput> {
  for await (const out of source) {
    observe(out);
    yield out;
  }
}

const round2 = (n: number) => Math.round(n * 100) / 100;

function emptyResult(index: number, sid: string, model: string | null): SubagentResult {
  return {
    task_index: index,
    status: 'failed',
    summary: null,
    api_calls: 0,
    duration_seconds: 0,
    model,
    exit_reason: 'error',
    truncated: false,
    tokens: { input: 0, output: 0 },
    tool_trace: [],
    session_id: sid,
  };
}

/** The parent's result entry, read from what the child's run stored and how it ended. */
function resultOf(
  session: Session | null,
  run: Run,
  r: { index: number; sid: string; model: string | null; apiCalls: number; timedOut: boolean; duration: number; parentStopped: boolean },
): SubagentResult {
  const messages = session?.messages.slice(1) ?? [];
  const answers = messages.filter((m) => m.role === 'assistant' && m._error !== true && m._partial !== true);
  const last = answers.at(-1);
  const summary = last ? messageText(last).trim() : '';
  const notice = messages.findLast((m) => m._error === true);
  const base: SubagentResult = {
    ...emptyResult(r.index, r.sid, r.model),
    summary: summary || null,
    // The model that answered (the configured default when none was picked).
    model: typeof last?._usedModel === 'string' ? last._usedModel : r.model,
    api_calls: r.apiCalls,
    duration_seconds: r.duration,
    tokens: { input: session?.input_tokens ?? 0, output: session?.output_tokens ?? 0 },
    tool_trace: toolTrace(messages),
  };
  if (run.status === 'completed') {
    const maxed = typeof last?._turn_exit_reason === 'string' && last._turn_exit_reason.startsWith('max_iterations_reached');
    return {
      ...base,
      status: summary ? 'completed' : 'failed',
      exit_reason: maxed ? 'max_iterations' : 'completed',
      truncated: maxed,
      ...(summary ? {} : { error: 'Subagent did not produce a response.' }),
    };
  }
  if (r.timedOut)
    return { ...base, status: 'timeout', exit_reason: 'timeout', error: 'The subagent ran past delegation.child_timeout_seconds and was stopped.' };
  if (run.status === 'cancelled' || r.parentStopped) {
    const error = r.parentStopped ? 'The parent turn was cancelled before the subagent finished.' : 'The subagent was cancelled before it finished.';
    return { ...base, status: 'interrupted', exit_reason: 'interrupted', error };
  }
  const error = notice ? messageText(notice).split('\n\n')[0] || 'The subagent failed.' : 'The subagent failed.';
  return { ...base, status: 'failed', exit_reason: 'error', error };
}

/** Hermes' tool trace: each call's tool and argument size, then its result's size and ok/error. */
function toolTrace(messages: Message[]): SubagentResult['tool_trace'] {
  const trace: SubagentResult['tool_trace'] = [];
  const byId = new Map<string, SubagentResult['tool_trace'][number]>();
  for (const m of messages) {
    if (m.role === 'assistant' && Array.isArray(m.tool_calls)) {
      for (const call of m.tool_calls as Array<{ id?: string; function?: { name?: string; arguments?: string } }>) {
        const entry = { tool: call.function?.name ?? 'unknown', args_bytes: (call.function?.arguments ?? '').length };
        trace.push(entry);
        if (call.id) byId.set(call.id, entry);
      }
    } else if (m.role === 'tool') {
      const content = messageText(m);
      const entry = (typeof m.tool_call_id === 'string' && byId.get(m.tool_call_id)) || trace.at(-1);
      if (entry) Object.assign(entry, { result_bytes: content.length, status: isToolErrorResult(content) ? 'error' : 'ok' });
    }
  }
  return trace;
}
