// Texts the server sends for the web app to show (a failed turn's hint, the log panel's hint),
// each with a stable code and its values beside the English, so the browser can say it in the
// reader's language (components/chat/failure-hints.ts, components/panels/logs/log-hints.ts) and
// fall back to the English for a code it does not know. Runtime-free: Node, Workers and the web
// app import it. A code maps to the names of its values; the client's table is typed by these, so
// a code added here without a client text fails the typecheck.

/** A failed turn's hint (`apperror.hint_code`, the stored notice's `hint_code`) → its values' names. */
export const FAILURE_HINTS = {
  // A model provider (the builtin agent: providers/openai.ts, anthropic.ts, builtin/model-call.ts)
  provider_key_rejected_env: ['provider', 'env'],
  provider_key_rejected_config: ['provider'],
  provider_key_missing_env: ['provider', 'env'],
  provider_key_missing_config: ['provider'],
  provider_model_not_found: ['model', 'base_url'],
  provider_rate_limit: ['provider'],
  provider_rate_limit_retry: ['provider', 'wait'],
  provider_5xx: ['provider'],
  provider_rejected: ['provider', 'status'],
  provider_unreachable: ['provider', 'base_url'],
  provider_cut_off: ['provider'],
  provider_stream_error: ['provider'],
  provider_malformed: ['provider', 'base_url'],
  model_empty_response: [],
  // Hermes Agent's API server (agent/gateway/*)
  gateway_key_rejected: [],
  gateway_key_missing: [],
  gateway_busy: [],
  gateway_busy_retry: ['wait'],
  gateway_rate_limit: [],
  gateway_rate_limit_retry: ['wait'],
  gateway_not_offered: ['what', 'base_url'],
  gateway_too_large: [],
  gateway_5xx: [],
  gateway_refused: ['status'],
  gateway_unreachable: ['base_url'],
  gateway_silent: ['base_url', 'seconds'],
  gateway_malformed: ['base_url'],
  gateway_cut_off: [],
  gateway_stream_unreliable: [],
  gateway_unknown_event: [],
  gateway_no_api: [],
  gateway_run_failed: [],
  gateway_cancelled: [],
  gateway_empty_answer: [],
  gateway_run_forgotten: [],
  // The turn itself (runs/turn-driver.ts, recovery.ts, resume-turn.ts)
  interrupted: [],
  internal_error: [],
  resume_failed: [],
} as const satisfies Record<string, readonly string[]>;

/** The log panel's hint (`/api/logs` → `hint_code`, `hint_args`) → its values' names. */
export const LOG_HINTS = {
  server_log_not_kept: [],
  hermes_logs_not_kept: [],
  log_file_missing: ['file'],
} as const satisfies Record<string, readonly string[]>;

export type FailureHintCode = keyof typeof FAILURE_HINTS;
export type LogHintCode = keyof typeof LOG_HINTS;
/** A code's values by name (provider ids, env var names, URLs… never translated). */
export type HintArgs<T extends Record<string, readonly string[]>, C extends keyof T> = Record<T[C][number], string>;
export type FailureHintArgs<C extends FailureHintCode> = HintArgs<typeof FAILURE_HINTS, C>;
export type LogHintArgs<C extends LogHintCode> = HintArgs<typeof LOG_HINTS, C>;

/** One text per code, from its values: the English on the server, a translated one in the browser. */
export type HintTexts<T extends Record<string, readonly string[]>> = { [C in keyof T]: (args: HintArgs<T, C>) => string };

/**
 * The text for `code` with `args` from `texts`, or null when the code is unknown or a value it
 * needs is missing (the caller then shows the server's English).
 */
export function hintText<T extends Record<string, readonly string[]>>(names: T, texts: HintTexts<T>, code: unknown, args: unknown): string | null {
  if (typeof code !== 'string' || !Object.hasOwn(names, code)) return null;
  const values = (args && typeof args === 'object' ? args : {}) as Record<string, unknown>;
  const needed = names[code] as readonly string[];
  if (!needed.every((n) => typeof values[n] === 'string')) return null;
  return (texts[code] as (a: Record<string, string>) => string)(values as Record<string, string>);
}
