import { z } from 'zod';
import { cutBeforeToken } from './redact.js';
import { SessionSchema } from './session.js';

/**
 * The chat stream's contract: every SSE event a run emits (`/api/chat/stream`, the run
 * journals), its payload, which events close the stream, and how tool rows are previewed.
 * Names and fields are the incumbent's (hermes-webui's `put(event, data)`), byte for byte.
 *
 * Each payload is a zod schema; the TypeScript types are inferred from them, so the check the
 * tests run and the type producers are held to cannot drift apart. Every schema is annotated
 * pure: the browser imports the types and the tool rules from here, and the bundler then drops
 * the schemas (and zod with them).
 *
 * To add an event: add its schema to RUN_EVENT_SCHEMAS (and to CLOSING_EVENTS if the stream
 * ends after it), emit it from a runtime as `{ type: 'event', event, data }` — the compiler
 * checks the shape — and handle it in components/state/run-stream.ts. The contract test
 * (tests/runs/run-events-contract.test.ts) parses every event real turns emit against it.
 */

const str = z.string();
const num = z.number();

/** The session as `done`, `cancel` and `apperror` carry it (presentSession's shape, redacted). */
export const PresentedSessionSchema = /* @__PURE__ */ SessionSchema.extend({
  message_count: num,
  _messages_truncated: z.boolean().optional(),
  _messages_offset: num.optional(),
});

const ToolArgsSchema = /* @__PURE__ */ z.record(str, z.unknown());

const ToolStartedSchema = /* @__PURE__ */ z.strictObject({
  event_type: z.literal('tool.started'),
  name: str,
  /** `<name> <target>`: see toolPreview. */
  preview: str,
  /** The first TOOL_ARGS_PREVIEWED arguments, strings cut (toolArgsPreview). */
  args: ToolArgsSchema,
  tool_call_id: str,
});

const ToolCompletedSchema = /* @__PURE__ */ ToolStartedSchema.extend({
  event_type: z.literal('tool.completed'),
  /** Seconds (absent when the gateway does not say). */
  duration: num.optional(),
  is_error: z.boolean(),
  /** The result, cut at TOOL_RESULT_PREVIEW_CHARS (toolResultPreview). */
  result: str,
});

const ApprovalChoiceSchema = /* @__PURE__ */ z.enum(['once', 'session', 'always', 'deny']);

/** Everything a run event may carry, by name. */
export const RUN_EVENT_SCHEMAS = /* @__PURE__ */ (() => ({
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
  metering: z.strictObject({
    session_id: str,
    tps: num,
    tps_available: z.boolean(),
    estimated: z.boolean(),
    usage: z.strictObject({ input_tokens: num, output_tokens: num, cost: num.optional() }),
  }),
  todo_state: z.strictObject({
    todos: z.array(z.strictObject({ id: str, content: str, status: z.enum(['pending', 'in_progress', 'completed', 'cancelled']) })),
    summary: z.strictObject({ total: num, pending: num, in_progress: num, completed: num, cancelled: num }),
    version: z.literal(1),
  }),
  /** Something the person should know that does not stop the turn (`type` names it). */
  warning: z.strictObject({ type: str, message: str }),
  /**
   * The model call failed in a way worth another try; attempt `attempt` of `max` starts after
   * `delay_ms`. Not closing: the turn goes on with its next token, tool or closing event.
   */
  retrying: z.strictObject({ attempt: z.number().int().positive(), max: z.number().int().positive(), reason: str, delay_ms: z.number().nonnegative() }),
  /** The transcript is stored; not closing (a title may follow, then stream_end). */
  done: z.strictObject({
    session: PresentedSessionSchema,
    usage: z.strictObject({ input_tokens: num, output_tokens: num, estimated_cost: num.nullable() }),
  }),
  stream_end: z.strictObject({ session_id: str }),
  cancel: z.strictObject({
    message: str,
    type: z.literal('cancelled'),
    status: z.literal('cancelled'),
    session_id: str,
    session: PresentedSessionSchema.optional(),
  }),
  /** The turn failed; `type` is the incumbent's error class (rate_limit, auth_mismatch, interrupted, …). */
  apperror: z.strictObject({
    message: str,
    type: str,
    hint: str,
    details: str.optional(),
    session_id: str,
    session: PresentedSessionSchema.optional(),
  }),
}))();

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
  metering: 0,
  todo_state: 0,
  warning: 0,
  retrying: 0,
  done: 0,
  stream_end: 0,
  cancel: 0,
  apperror: 0,
} satisfies Record<RunEventName, 0>) as RunEventName[];

/** Events after which the stream closes (the incumbent's SSE_RELAY_CLOSE_EVENTS, less its unused `error`). */
export type ClosingEventName = 'stream_end' | 'cancel' | 'apperror';
export const CLOSING_EVENTS: ReadonlySet<string> = new Set<ClosingEventName>(['stream_end', 'cancel', 'apperror']);

export function isClosingEvent(name: string): name is ClosingEventName {
  return CLOSING_EVENTS.has(name);
}

/** Events whose data is model or tool output shown as is, so they are redacted before framing (see turn-driver). */
export const PRESENTED_EVENTS: ReadonlySet<RunEventName> = new Set<RunEventName>(['tool', 'tool_complete', 'title']);

/** Checks one event against the contract: the parsed data, or why it does not fit. */
export function parseRunEvent(event: string, data: unknown): { ok: true; value: RunEventBody } | { ok: false; error: string } {
  const schema = (RUN_EVENT_SCHEMAS as Record<string, z.ZodType>)[event];
  if (!schema) return { ok: false, error: `unknown event "${event}"` };
  const r = schema.safeParse(data);
  if (!r.success) return { ok: false, error: `${event}: ${z.prettifyError(r.error)}` };
  return { ok: true, value: { event, data: r.data } as RunEventBody };
}

// ---- Tool rows: one rule for both runtimes, the stored transcript and the live stream ------

/** A preview's target and each previewed argument stop here (before a split word). */
export const TOOL_PREVIEW_CHARS = 120;
/** `tool_complete.result` stops here; the transcript keeps the whole result. */
export const TOOL_RESULT_PREVIEW_CHARS = 2000;
/** How many arguments `args` carries. */
export const TOOL_ARGS_PREVIEWED = 4;
/** The arguments a row names, in order of preference: what a tool runs, reads, searches or asks. */
const TARGET_KEYS = ['command', 'path', 'pattern', 'question', 'action'] as const;

function cut(text: string, max: number): string {
  return text.length > max ? `${cutBeforeToken(text, max)}…` : text;
}

/** What a tool call works on, for its one-line row: the first target argument, else the first argument. */
export function toolTarget(args: Record<string, unknown>): string {
  const key = TARGET_KEYS.find((k) => args[k] !== undefined && args[k] !== null);
  const first = key ? args[key] : Object.values(args)[0];
  const text = typeof first === 'string' ? first : first === undefined ? '' : JSON.stringify(first);
  return cut(text, TOOL_PREVIEW_CHARS);
}

/** The `preview` field: the tool's name, then its target (cut). */
export function toolPreview(name: string, target: string): string {
  const t = cut(target, TOOL_PREVIEW_CHARS);
  return t ? `${name} ${t}` : name;
}

/** The target back out of a `preview` (what a row shows beside the name). */
export function toolPreviewTarget(name: string, preview: string): string {
  return preview.startsWith(name) ? preview.slice(name.length).trimStart() : preview;
}

/**
 * Which argument a bare preview stands for (the gateway reports a preview text, not the
 * arguments), so a stored call yields the same target with toolTarget.
 */
export function toolTargetKey(name: string): (typeof TARGET_KEYS)[number] {
  if (/terminal|process|execute|shell|command/.test(name)) return 'command';
  if (/search|grep|find/.test(name)) return 'pattern';
  if (/file|patch|read|write|edit/.test(name)) return 'path';
  if (name === 'clarify') return 'question';
  return 'action';
}

/** The `args` field: the first TOOL_ARGS_PREVIEWED arguments, long values cut. */
export function toolArgsPreview(args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args).slice(0, TOOL_ARGS_PREVIEWED)) {
    const s = typeof v === 'string' ? v : JSON.stringify(v);
    out[k] = s !== undefined && s.length > TOOL_PREVIEW_CHARS ? `${cutBeforeToken(s, TOOL_PREVIEW_CHARS)}…` : v;
  }
  return out;
}

/** The `result` field. */
export function toolResultPreview(result: string): string {
  return cut(result, TOOL_RESULT_PREVIEW_CHARS);
}

/** A tool's result that reports failure: a JSON `{"error": …}` or the approval gate's BLOCKED. */
export function isToolErrorResult(result: string): boolean {
  return /^\s*\{\s*"error"\s*:/.test(result) || result.startsWith('BLOCKED:');
}

/** Whether a finished call failed: the runtime says so, or its result does. */
export function toolFailed(done: { is_error?: boolean | undefined; result?: string | undefined }): boolean {
  return !!done.is_error || isToolErrorResult(done.result ?? '');
}
