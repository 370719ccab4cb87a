import type { Tool, ToolContext } from './types.js';

/** One delegated task, as the model gives it (`goal` alone or one entry of `tasks`). */
export interface SubagentTask {
  goal: string;
  context?: string;
  toolsets?: string[];
  role: 'leaf' | 'orchestrator';
}

/** One entry of the `results` array the parent model receives (Hermes' result-entry shape). */
export interface SubagentResult {
  task_index: number;
  status: 'completed' | 'failed' | 'interrupted' | 'timeout' | 'error';
  summary: string | null;
  api_calls: number;
  duration_seconds: number;
  model: string | null;
  exit_reason: 'completed' | 'max_iterations' | 'interrupted' | 'timeout' | 'error';
  truncated: boolean;
  tokens: { input: number; output: number };
  tool_trace: Array<{ tool: string; args_bytes: number; result_bytes?: number; status?: 'ok' | 'error' }>;
  error?: string;
  /** This project's addition: the child session, so the parent's tool card can link to it. */
  session_id: string;
}

/** What a turn offers delegate_task: its limits and a way to run children (src/agent/builtin/subagents.ts). */
export interface SubagentSpawner {
  /** The delegating agent's depth (0: the conversation's own agent). */
  depth: number;
  maxSpawnDepth: number;
  maxConcurrentChildren: number;
  orchestratorEnabled: boolean;
  run(tasks: SubagentTask[], signal: AbortSignal): Promise<SubagentResult[]>;
}

/** Tools a child never gets, whatever it asks for: no user questions, no shared memory writes. */
export const SUBAGENT_BLOCKED_TOOLS = new Set(['delegate_task', 'clarify', 'memory', 'send_message', 'execute_code']);

/** Hermes' toolset names for the tools this runtime has; a tool in none (an MCP tool) is always inherited. */
export const TOOLSET_OF: Record<string, string> = {
  terminal: 'terminal',
  process: 'terminal',
  read_file: 'file',
  write_file: 'file',
  patch: 'file',
  search_files: 'file',
  web_search: 'web',
  web_extract: 'web',
  todo: 'todo',
  memory: 'memory',
  clarify: 'clarify',
  skills_list: 'skills',
  skill_view: 'skills',
  skill_manage: 'skills',
  session_search: 'session_search',
  vision_analyze: 'vision',
  delegate_task: 'delegation',
};

const error = (message: string) => JSON.stringify({ error: message });

function stringList(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const list = value.filter((v): v is string => typeof v === 'string' && v.trim() !== '').map((v) => v.trim());
  return list.length ? list : undefined;
}

const roleOf = (value: unknown): 'leaf' | 'orchestrator' =>
  typeof value === 'string' && value.trim().toLowerCase() === 'orchestrator' ? 'orchestrator' : 'leaf';

/** The task list from the arguments, or the error the model gets back. */
export function delegateTasks(args: Record<string, unknown>, maxChildren: number): SubagentTask[] | string {
  let tasks = args.tasks;
  // Some models send the batch as a JSON string; Hermes accepts that too.
  if (typeof tasks === 'string') {
    if (!tasks.trim()) tasks = undefined;
    else {
      try {
        tasks = JSON.parse(tasks);
      } catch {
        return 'tasks must be a JSON array of task objects; received a string that is not valid JSON.';
      }
    }
  }
  const topRole = roleOf(args.role);
  let list: unknown[];
  if (Array.isArray(tasks) && tasks.length) {
    if (tasks.length > maxChildren) {
      return `Too many tasks: ${tasks.length} provided, but max_concurrent_children is ${maxChildren}. Send fewer tasks, split them over several delegate_task calls, or raise delegation.max_concurrent_children in config.yaml.`;
    }
    list = tasks;
  } else if (typeof args.goal === 'string' && args.goal.trim()) {
    list = [{ goal: args.goal, context: args.context, toolsets: args.toolsets, role: args.role }];
  } else {
    return "Provide either 'goal' (single task) or 'tasks' (batch).";
  }
  const out: SubagentTask[] = [];
  for (const [i, raw] of list.entries()) {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return `Task ${i} must be an object.`;
    const t = raw as Record<string, unknown>;
    if (typeof t.goal !== 'string' || !t.goal.trim()) return `Task ${i} is missing a 'goal'.`;
    const toolsets = stringList(t.toolsets) ?? stringList(args.toolsets);
    out.push({
      goal: t.goal.trim(),
      ...(typeof t.context === 'string' && t.context.trim() ? { context: t.context } : {}),
      ...(toolsets ? { toolsets } : {}),
      role: t.role !== undefined ? roleOf(t.role) : topRole,
    });
  }
  return out;
}

/** Which of the parent's tools a child gets: the requested toolsets (default all), never the blocked ones. */
export function childToolNames(parentTools: string[], task: Pick<SubagentTask, 'toolsets'>, canDelegate: boolean): string[] {
  const wanted = task.toolsets ? new Set(task.toolsets) : null;
  return parentTools.filter((name) => {
    if (name === 'delegate_task') return canDelegate;
    if (SUBAGENT_BLOCKED_TOOLS.has(name)) return false;
    const toolset = TOOLSET_OF[name];
    return !wanted || !toolset || wanted.has(toolset);
  });
}

function description(s: Pick<SubagentSpawner, 'maxConcurrentChildren' | 'maxSpawnDepth'>): string {
  return [
    'Hand work to subagents that run in their own, fresh conversations with their own tools and terminal. Only each',
    "subagent's final summary comes back to you; its intermediate steps never enter your context.",
    '',
    "Give either 'goal' (one task, with optional 'context' and 'toolsets') or 'tasks' (a batch run in parallel:",
    `up to ${s.maxConcurrentChildren} tasks, set by delegation.max_concurrent_children; results come back together).`,
    s.maxSpawnDepth >= 2
      ? `Nested delegation is on (max_spawn_depth=${s.maxSpawnDepth}): role='orchestrator' lets a child delegate further.`
      : `Nested delegation is off (max_spawn_depth=${s.maxSpawnDepth}): children cannot delegate.`,
    '',
    'Use it for reasoning-heavy subtasks, work that would flood your context, and independent parallel work. Do not',
    'use it for a single tool call or for anything that needs the user: subagents cannot ask questions.',
    '',
    'Subagents know nothing of this conversation: put every path, error and constraint they need in',
    "'context', and the language to answer in when it is not English. Their summaries are their own reports:",
    'verify side effects that matter before telling the user they happened. Subagents cannot use delegate_task',
    '(unless orchestrators), clarify, memory, send_message or execute_code. The parent waits for them; cancelling',
    'the turn cancels them. The result is JSON with a `results` array, one entry per task.',
  ].join('\n');
}

const TOOLSETS_HINT = "Toolsets to enable ('terminal', 'file', 'web', 'todo', 'skills', 'session_search', 'vision'). Default: the ones you have.";

/**
 * Hermes' `delegate_task`: one or more child agents, each its own session and run (openable and
 * cancellable in the web UI). The parent gets `{"results": [...], "total_duration_seconds"}`.
 */
export function delegateTaskTool(limits: Pick<SubagentSpawner, 'maxConcurrentChildren' | 'maxSpawnDepth'>): Tool {
  return {
    spec: {
      name: 'delegate_task',
      description: description(limits),
      parameters: {
        type: 'object',
        properties: {
          goal: { type: 'string', description: 'What the subagent should achieve: specific and self-contained (it has none of your conversation).' },
          context: { type: 'string', description: 'What the subagent needs to know: file paths, error messages, constraints, project layout.' },
          toolsets: { type: 'array', items: { type: 'string' }, description: TOOLSETS_HINT },
          tasks: {
            type: 'array',
            description: `Batch mode: up to ${limits.maxConcurrentChildren} tasks run in parallel, each in its own subagent. When given, the top-level goal/context/toolsets are ignored.`,
            items: {
              type: 'object',
              properties: {
                goal: { type: 'string', description: 'Task goal' },
                context: { type: 'string', description: 'Task-specific context' },
                toolsets: { type: 'array', items: { type: 'string' }, description: TOOLSETS_HINT },
                role: { type: 'string', enum: ['leaf', 'orchestrator'], description: "Per-task role; see 'role'." },
              },
              required: ['goal'],
            },
          },
          role: {
            type: 'string',
            enum: ['leaf', 'orchestrator'],
            description:
              "'leaf' (default): a focused worker that cannot delegate. 'orchestrator': may delegate further when delegation.max_spawn_depth allows.",
          },
        },
        required: [],
      },
    },
    async run(args: Record<string, unknown>, ctx: ToolContext): Promise<string> {
      const spawner = ctx.subagents;
      if (!spawner) return error('delegate_task is not available on this server.');
      if (spawner.depth >= spawner.maxSpawnDepth) {
        return error(
          `Delegation depth limit reached (depth=${spawner.depth}, max_spawn_depth=${spawner.maxSpawnDepth}). Raise delegation.max_spawn_depth in config.yaml for deeper nesting.`,
        );
      }
      const tasks = delegateTasks(args, spawner.maxConcurrentChildren);
      if (typeof tasks === 'string') return error(tasks);
      const started = Date.now();
      const results = await spawner.run(tasks, ctx.signal);
      return JSON.stringify({ results, total_duration_seconds: Math.round((Date.now() - started) / 10) / 100 });
    },
  };
}
