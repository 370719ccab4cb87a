import { msg, str } from '@lit/localize';
import { formatNumber } from '../i18n/format.js';
import type { RunEventPayloads } from '../../src/shared/run-events.js';

/** One delegate_task child as the Activity row's tree shows it. */
export interface SubagentView {
  session_id: string;
  parent_session_id: string;
  /** The child's run (live only): for cancelling it. */
  stream_id?: string;
  goal: string;
  status: RunEventPayloads['subagent']['status'];
  depth: number;
  task_index: number;
  /** The tool running now. */
  tool?: string;
  tool_count: number;
  duration?: number;
  summary?: string;
}

/** The list with one `subagent` event applied (a child's row is replaced, a new one appended). */
export function applySubagentEvent(list: readonly SubagentView[], d: RunEventPayloads['subagent']): SubagentView[] {
  const row: SubagentView = {
    session_id: d.session_id,
    parent_session_id: d.parent_session_id,
    stream_id: d.stream_id,
    goal: d.goal,
    status: d.status,
    depth: d.depth,
    task_index: d.task_index,
    tool_count: d.tool_count,
    ...(d.tool ? { tool: d.tool } : {}),
    ...(d.duration_seconds !== undefined ? { duration: d.duration_seconds } : {}),
    ...(d.summary ? { summary: d.summary } : {}),
  };
  const i = list.findIndex((s) => s.session_id === d.session_id);
  return i < 0 ? [...list, row] : list.map((s, k) => (k === i ? row : s));
}

const STATUSES = new Set(['running', 'completed', 'failed', 'interrupted', 'timeout', 'error']);

/**
 * The children a stored delegate_task call ran, from its arguments (the goals) and its result
 * (`{"results": [{task_index, status, summary, session_id, …}]}`): the tree after a reload.
 */
export function subagentsFromResult(args: Record<string, unknown>, result: string, parentSessionId: string): SubagentView[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(result);
  } catch {
    return [];
  }
  const results = (parsed as { results?: unknown })?.results;
  if (!Array.isArray(results)) return [];
  const tasks = Array.isArray(args.tasks) ? (args.tasks as Array<{ goal?: unknown }>) : [{ goal: args.goal }];
  const out: SubagentView[] = [];
  for (const r of results as Array<Record<string, unknown>>) {
    if (!r || typeof r.session_id !== 'string') continue;
    const index = typeof r.task_index === 'number' ? r.task_index : out.length;
    const goal = tasks[index]?.goal;
    out.push({
      session_id: r.session_id,
      parent_session_id: parentSessionId,
      goal: typeof goal === 'string' ? goal : msg(str`Task ${formatNumber(index + 1)}`),
      status: typeof r.status === 'string' && STATUSES.has(r.status) ? (r.status as SubagentView['status']) : 'failed',
      depth: 1,
      task_index: index,
      tool_count: Array.isArray(r.tool_trace) ? r.tool_trace.length : 0,
      ...(typeof r.duration_seconds === 'number' ? { duration: r.duration_seconds } : {}),
      ...(typeof r.summary === 'string' && r.summary ? { summary: r.summary } : {}),
    });
  }
  return out;
}
