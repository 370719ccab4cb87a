import { z } from 'zod';
import { SessionSchema } from './session.js';
import { FileChangeSchema } from './file-changes.js';
import type { ClosingEventName } from './run-event-rules.js';

// The closing set and the tool-row rules live in a zod-free module the browser bundle can
// import; they are part of this contract and exported from here too.
export * from './run-event-rules.js';

/**
 * The chat stream's contract: every SSE event a run emits (`/api/chat/stream`, the run
 * journals), its payload, which events close the stream, and how tool rows are previewed.
 * Names and fields are the incumbent's (hermes-webui's `put(event, data)`) wherever it has
 * them; this project adds `tool_call_id`/`result` on tool rows and the `retrying` event.
 *
 * Each payload is a zod schema; the TypeScript types are inferred from them, so the check the
 * tests run and the type producers are held to cannot drift apart. The browser imports only
 * types from this file (`import type`, so zod stays out of the bundle) and the closing set and
 * tool rules from ./run-event-rules.js.
 *
 * To add an event: add its schema to RUN_EVENT_SCHEMAS and its name to RUN_EVENT_NAMES (the
 * compiler insists on both; ClosingEventName/CLOSING_EVENTS in run-event-rules.ts if the
 * stream ends after it), emit it from a runtime with `runEvent(name, data)` or
 * `{ type: 'event', event, data }` — the compiler checks the shape — and give it a handler in
 * components/state/run-handlers.ts (RunEventHandlers requires one per name). The contract
 * test (tests/runs/run-events-contract.test.ts) parses every event real turns emit.
 */

const str = z.string();
const num = z.number();

/** The session as `done`, `cancel` and `apperror` carry it (presentSession's shape, redacted). */
export const PresentedSessionSchema = SessionSchema.extend({
  message_count: num,
  _messages_truncated: z.boolean().optional(),
  _messages_offset: num.optional(),
});

const ToolArgsSchema = z.record(str, z.unknown());

const ToolStartedSchema = z.strictObject({
  event_type: z.literal('tool.started'),
  name: str,
  /** `<name> <target>`: see toolPreview. */
  preview: str,
  /** The first TOOL_ARGS_PREVIEWED arguments, strings cut (toolArgsPreview). */
  args: ToolArgsSchema,
  tool_call_id: str,
});

const ToolCompletedSchema = ToolStartedSchema.extend({
  event_type: z.literal('tool.completed'),
  /** Seconds (absent when the gateway does not say). */
  duration: num.optional(),
  is_error: z.boolean(),
  /** The result, cut at TOOL_RESULT_PREVIEW_CHARS (toolResultPreview). */
  result: str,
});

const ApprovalChoiceSchema = z.enum(['once', 'session', 'always', 'deny']);

/** Everything a run event may carry, by name. */
export const RUN_EVENT_SCHEMAS = {
  token: z.strictObject({ text: str }),
  reasoning: z.strictObject({ text: str }),
  tool: ToolStartedSchema,
  tool_complete: ToolCompletedSchema,
  /** A command waits for a person's approval (InteractionHub's PendingApproval, plus the queue length). */
  approval: z.strictObject({
    command: str,
    description: str,
    pattern_key: str,
    pattern_keys: z.array(str),
    tool: str,
    approval_id: str,
    run_id: str,
    session_id: str,
    choices: z.array(ApprovalChoiceSchema),
    allow_permanent: z.boolean(),
    requested_at: num,
    pending_count: num,
    /** The Hermes run the approval belongs to (gateway runtime only). */
    gateway_run_id: str.optional(),
    /**
     * A file edit (`write_file`, `patch`) that waits for approval: the unified diff the call would
     * make (ours), and the workspace-relative or absolute path it writes. Absent for commands.
     */
    diff: str.optional(),
    path: str.optional(),
  }),
  clarify: z.strictObject({
    clarify_id: str,
    session_id: str,
    question: str,
    choices_offered: z.array(str),
    kind: z.literal('clarify'),
    requested_at: num,
    timeout_seconds: num,
  }),
  compressing: z.strictObject({ session_id: str, message: str }),
  compressed: z.strictObject({
    session_id: str,
    old_session_id: str,
    new_session_id: str,
    continuation_session_id: str.nullable(),
    message: str,
    summarised_messages: num.optional(),
  }),
  title: z.strictObject({ session_id: str, title: str }),
  /**
   * The prefill context this browser turn got (the incumbent's event, sent once before the model
   * is asked, `not_configured` included): where it came from and how many messages, never their
   * text. `compacted`: over the character budget, so a stand-in (see src/agent/prefill.ts) went.
   */
  context_status: z.strictObject({
    session_id: str,
    prefill: z.strictObject({
      status: z.enum(['not_configured', 'loaded', 'error']),
      source: str,
      label: str,
      message_count: z.number().int().nonnegative(),
      error: str.optional(),
      compacted: z.literal(true).optional(),
      original_source: str.optional(),
      original_char_count: num.optional(),
      max_chars: num.optional(),
    }),
  }),
  metering: z.strictObject({
    session_id: str,
    tps: num,
    tps_available: z.boolean(),
    estimated: z.boolean(),
    usage: z.strictObject({
      input_tokens: num,
      output_tokens: num,
      cost: num.optional(),
      /** Of input_tokens, how many the provider read from / wrote to its prompt cache. */
      cache_read_tokens: num.optional(),
      cache_write_tokens: num.optional(),
    }),
  }),
  todo_state: z.strictObject({
    todos: z.array(z.strictObject({ id: str, content: str, status: z.enum(['pending', 'in_progress', 'completed', 'cancelled']) })),
    summary: z.strictObject({ total: num, pending: num, in_progress: num, completed: num, cancelled: num }),
    version: z.literal(1),
  }),
  /**
   * A delegate_task child (its own session and run) started, moved on or ended. The parent's
   * stream carries it (a grandchild's too, with its own parent_session_id), so the Activity row
   * shows the tree live; `stream_id` is the child's run, for opening and cancelling it.
   */
  subagent: z.strictObject({
    event_type: z.enum(['subagent.start', 'subagent.progress', 'subagent.complete']),
    parent_session_id: str,
    session_id: str,
    stream_id: str,
    task_index: z.number().int().nonnegative(),
    task_count: z.number().int().positive(),
    goal: str,
    depth: z.number().int().positive(),
    status: z.enum(['running', 'completed', 'failed', 'interrupted', 'timeout', 'error']),
    /** The tool the child is running now. */
    tool: str.optional(),
    tool_count: z.number().int().nonnegative(),
    api_calls: z.number().int().nonnegative().optional(),
    duration_seconds: num.optional(),
    /** The child's final answer (cut), once it ended. */
    summary: str.optional(),
  }),
  /**
   * The agent changed one of Hermes' files the control center shows (the incumbent's event):
   * `kind: 'memory'` after the memory tool wrote MEMORY.md or USER.md, `skill` with the skill's
   * `name`. An open panel reloads.
   */
  state_saved: z.strictObject({ session_id: str, kind: z.enum(['memory', 'skill']), action: str, name: str.optional() }),
  /** Something the person should know that does not stop the turn (`type` names it). */
  warning: z.strictObject({ type: str, message: str }),
  /**
   * The model call failed in a way worth another try; attempt `attempt` of `max` starts after
   * `delay_ms`. Not closing: the turn goes on with its next token, tool or closing event.
   */
  retrying: z.strictObject({ attempt: z.number().int().positive(), max: z.number().int().positive(), reason: str, delay_ms: z.number().nonnegative() }),
  /**
   * Steer text (POST /api/chat/steer) entered the conversation after a tool batch, appended to
   * the result of `tool_call_id` (Hermes' "User guidance:" marker); the next model call sees it.
   */
  steer_applied: z.strictObject({ session_id: str, text: str, tool_call_id: str }),
  /**
   * The server restarted (or the instance that ran the turn died) and the turn carries on here
   * (ours; the incumbent has no such event). `attempt` counts resumes of this turn from 1;
   * `partial` says the answer streamed before it is kept as it was (an incomplete answer) and
   * what follows continues after it; `interrupted_tools` names the tool calls that were running
   * and are recorded as interrupted, never re-run. The browser shows a quiet "resumed after a
   * restart" line; nothing already streamed is sent again.
   */
  resumed: z.strictObject({
    session_id: str,
    attempt: z.number().int().positive(),
    message: str,
    partial: z.boolean(),
    interrupted_tools: z.array(z.strictObject({ tool_call_id: str, name: str })),
  }),
  /**
   * The files this turn created, edited, moved or deleted in the session's workspace (ours),
   * found by comparing the workspace before and after the turn; sent once, before `done`, and
   * only when something changed. The same list is stored on the turn's final assistant message
   * as `file_changes`; GET /api/session/changes has the diffs, POST …/changes/undo reverts them.
   */
  turn_changes: z.strictObject({
    session_id: str,
    stream_id: str,
    file_changes: z.array(FileChangeSchema),
    additions: z.number().int().nonnegative(),
    deletions: z.number().int().nonnegative(),
  }),
  /** The turn ended before a tool boundary took the steer text (the incumbent's event): it goes back to the composer. */
  pending_steer_leftover: z.strictObject({ session_id: str, text: str }),
  /** The transcript is stored; not closing (a title may follow, then stream_end). */
  done: z.strictObject({
    session: PresentedSessionSchema,
    usage: z.strictObject({
      input_tokens: num,
      output_tokens: num,
      estimated_cost: num.nullable(),
      // The incumbent's cache fields: the turn's counts, and cache reads as a percent of the prompt.
      cache_read_tokens: num.optional(),
      cache_write_tokens: num.optional(),
      cache_hit_percent: num.nullable().optional(),
    }),
  }),
  stream_end: z.strictObject({ session_id: str }),
  cancel: z.strictObject({
    message: str,
    type: z.literal('cancelled'),
    status: z.literal('cancelled'),
    session_id: str,
    session: PresentedSessionSchema.optional(),
  }),
  /**
   * The turn failed; `type` is the incumbent's error class (rate_limit, auth_mismatch, interrupted, …).
   * Ours, beside the English `hint`: `hint_code` (server-texts.ts FAILURE_HINTS) and its values
   * `hint_args`, for the web app to show the hint in the reader's language.
   */
  apperror: z.strictObject({
    message: str,
    type: str,
    hint: str,
    hint_code: str.optional(),
    hint_args: z.record(z.string(), z.string()).optional(),
    details: str.optional(),
    session_id: str,
    session: PresentedSessionSchema.optional(),
  }),
};

type Schemas = typeof RUN_EVENT_SCHEMAS;
export type RunEventName = keyof Schemas;
/** The payload of each event, inferred from its schema. */
export type RunEventPayloads = { [K in RunEventName]: z.infer<Schemas[K]> };
export type RunEventData<K extends RunEventName> = RunEventPayloads[K];
/** One event as a discriminated union on `event`: narrowing on the name types the data. */
export type RunEventBody = { [K in RunEventName]: { event: K; data: RunEventPayloads[K] } }[RunEventName];

export const RUN_EVENT_NAMES = Object.keys({
  token: 0,
  reasoning: 0,
  tool: 0,
  tool_complete: 0,
  approval: 0,
  clarify: 0,
  compressing: 0,
  compressed: 0,
  title: 0,
  context_status: 0,
  metering: 0,
  todo_state: 0,
  state_saved: 0,
  subagent: 0,
  warning: 0,
  retrying: 0,
  steer_applied: 0,
  resumed: 0,
  pending_steer_leftover: 0,
  turn_changes: 0,
  done: 0,
  stream_end: 0,
  cancel: 0,
  apperror: 0,
} satisfies Record<RunEventName, 0>) as RunEventName[];

// Every closing event is one of the contract's.
const _closingAreEvents: ClosingEventName extends RunEventName ? true : never = true;
void _closingAreEvents;

/** Events whose data is model or tool output shown as is, so they are redacted before framing (see turn-driver). */
export const PRESENTED_EVENTS: ReadonlySet<RunEventName> = new Set<RunEventName>(['tool', 'tool_complete', 'title', 'subagent']);

/** Checks one event against the contract: the parsed data, or why it does not fit. */
export function parseRunEvent(event: string, data: unknown): { ok: true; value: RunEventBody } | { ok: false; error: string } {
  const schema = (RUN_EVENT_SCHEMAS as Record<string, z.ZodType>)[event];
  if (!schema) return { ok: false, error: `unknown event "${event}"` };
  const r = schema.safeParse(data);
  if (!r.success) return { ok: false, error: `${event}: ${z.prettifyError(r.error)}` };
  return { ok: true, value: { event, data: r.data } as RunEventBody };
}
