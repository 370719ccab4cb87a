import { cutBeforeToken } from './redact.js';

/**
 * The parts of the run-event contract (src/shared/run-events.ts, which re-exports them) that
 * the browser runs too: which events close the stream, and how a tool call becomes a row.
 * No zod here, so the web bundle can import it.
 */

/** Events after which the stream closes (the incumbent's SSE_RELAY_CLOSE_EVENTS, less its unused `error`). */
export type ClosingEventName = 'stream_end' | 'cancel' | 'apperror';
export const CLOSING_EVENTS: ReadonlySet<string> = new Set<ClosingEventName>(['stream_end', 'cancel', 'apperror']);

export function isClosingEvent(name: string): name is ClosingEventName {
  return CLOSING_EVENTS.has(name);
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

/** What a tool call works on, whole: the first target argument, else the first argument. */
export function toolTarget(args: Record<string, unknown>): string {
  const key = TARGET_KEYS.find((k) => args[k] !== undefined && args[k] !== null);
  const first = key ? args[key] : Object.values(args)[0];
  return typeof first === 'string' ? first : first === undefined ? '' : JSON.stringify(first);
}

/** The `preview` field: the tool's name, then its target cut at TOOL_PREVIEW_CHARS. */
export function toolPreview(name: string, target: string): string {
  const t = cut(target, TOOL_PREVIEW_CHARS);
  return t ? `${name} ${t}` : name;
}

/** The target back out of a `preview` (what a row shows beside the name). */
export function toolPreviewTarget(name: string, preview: string): string {
  return preview.startsWith(name) ? preview.slice(name.length).trimStart() : preview;
}

/** What a stored call's row shows beside the name: exactly what its live `preview` showed. */
export function toolRowTarget(name: string, args: Record<string, unknown>): string {
  return toolPreviewTarget(name, toolPreview(name, toolTarget(args)));
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

/** A tool's result that reports failure: a JSON `{"error": …}` or `{"success": false…}`, or the approval gate's BLOCKED. */
export function isToolErrorResult(result: string): boolean {
  // Hermes' tools answer failures as `{"error": …}` or, for memory, skills, web, vision and
  // session_search, `{"success": false, …}`.
  return /^\s*\{\s*"error"\s*:/.test(result) || /^\s*\{\s*"success"\s*:\s*false\b/.test(result) || result.startsWith('BLOCKED:');
}

/** Whether a finished call failed: the runtime says so, or its result does. */
export function toolFailed(done: { is_error?: boolean | undefined; result?: string | undefined }): boolean {
  return !!done.is_error || isToolErrorResult(done.result ?? '');
}
