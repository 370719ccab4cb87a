// The server's English for each code of server-texts.ts: what `hint` says beside `hint_code`
// (the incumbent's clients read only the English). Server-only; the web app has its own msg() table.
import type { FAILURE_HINTS, FailureHintArgs, FailureHintCode, HintTexts, LOG_HINTS, LogHintArgs, LogHintCode } from './server-texts.js';

export const GATEWAY_KEY_HINT =
  'Set HERMES_WEBUI_GATEWAY_API_KEY (or API_SERVER_KEY in $HERMES_HOME/.env) to the key the Hermes API server was started with (its API_SERVER_KEY).';

export function startHint(baseUrl: string): string {
  return `Start Hermes' API server (API_SERVER_ENABLED=true in $HERMES_HOME/.env, then \`hermes gateway\`), or point HERMES_WEBUI_GATEWAY_BASE_URL at it (now ${baseUrl}).`;
}

const FAILURE_EN: HintTexts<typeof FAILURE_HINTS> = {
  provider_key_rejected_env: (a) => `Check the API key: ${a.provider} rejected the one in ${a.env} in $HERMES_HOME/.env (or model.api_key in config.yaml).`,
  provider_key_rejected_config: (a) =>
    `Check the API key: ${a.provider} rejected the one in model.api_key in $HERMES_HOME/config.yaml (or the key variable in .env).`,
  provider_key_missing_env: (a) => `${a.provider} needs an API key: set ${a.env} in $HERMES_HOME/.env (or model.api_key in config.yaml).`,
  provider_key_missing_config: (a) => `${a.provider} needs an API key: set model.api_key in $HERMES_HOME/config.yaml (or the key variable in .env).`,
  provider_model_not_found: (a) =>
    `The model "${a.model}" was not found at ${a.base_url}. Check the model name (model.default in config.yaml) and that base_url is right.`,
  provider_rate_limit: (a) => `${a.provider} is rate-limiting requests; wait a moment and try again.`,
  provider_rate_limit_retry: (a) => `${a.provider} is rate-limiting requests; retry after ${a.wait} (Retry-After).`,
  provider_5xx: () => 'The provider failed; try again.',
  provider_rejected: (a) => `${a.provider} rejected the request (HTTP ${a.status}).`,
  provider_unreachable: (a) => `Is the server at ${a.base_url} running and reachable from this machine?`,
  provider_cut_off: () => 'The connection dropped before the answer finished; try again.',
  provider_stream_error: () => 'The provider failed while answering; try again.',
  provider_malformed: (a) => `The answer from ${a.base_url} could not be read; check base_url and api_mode in config.yaml, then try again.`,
  model_empty_response: () => 'Try again, or pick another model if it keeps happening.',
  gateway_key_rejected: () => `The gateway refused the API key. ${GATEWAY_KEY_HINT}`,
  gateway_key_missing: () => `The gateway needs an API key. ${GATEWAY_KEY_HINT}`,
  gateway_busy: () =>
    'Hermes is already running as many turns as it allows (gateway.api_server.max_concurrent_runs in its config.yaml); wait for one to finish and try again.',
  gateway_busy_retry: (a) =>
    `Hermes is already running as many turns as it allows (gateway.api_server.max_concurrent_runs in its config.yaml); retry after ${a.wait}.`,
  gateway_rate_limit: () => 'Hermes is rate-limiting requests; wait for one to finish and try again.',
  gateway_rate_limit_retry: (a) => `Hermes is rate-limiting requests; retry after ${a.wait}.`,
  gateway_not_offered: (a) => `This Hermes does not offer ${a.what}. Update Hermes Agent, or check HERMES_WEBUI_GATEWAY_BASE_URL (now ${a.base_url}).`,
  gateway_too_large: () => 'The message is larger than Hermes accepts (10 MB); send less at once.',
  gateway_5xx: () => 'Hermes Agent failed on its side; its log ($HERMES_HOME/logs/gateway.log) says why. Try again.',
  gateway_refused: (a) => `Hermes Agent refused the request (HTTP ${a.status}).`,
  gateway_unreachable: (a) => `Is it running? ${startHint(a.base_url)}`,
  gateway_silent: (a) =>
    `The gateway at ${a.base_url} may be stuck or the connection dropped; its log ($HERMES_HOME/logs/gateway.log) may say why. HERMES_WEBUI_GATEWAY_READ_TIMEOUT sets how long to wait (now ${a.seconds} s).`,
  gateway_malformed: (a) =>
    `Check that HERMES_WEBUI_GATEWAY_BASE_URL (now ${a.base_url}) is a Hermes API server, and that this WebUI and Hermes Agent are both up to date.`,
  gateway_cut_off: () => 'The connection to the gateway dropped before the answer finished; try again.',
  gateway_stream_unreliable: () => 'The connection to the gateway is unreliable; try again. The run may still finish in Hermes (see `hermes sessions`).',
  gateway_unknown_event: () =>
    'Update Hermes WebUI (or check that Hermes Agent and this WebUI are compatible versions); Hermes may still have finished the run (see `hermes sessions`).',
  gateway_no_api: () => 'Update Hermes Agent, or check HERMES_WEBUI_GATEWAY_BASE_URL.',
  gateway_run_failed: () =>
    "The failure happened inside Hermes (its model provider or a tool); $HERMES_HOME/logs/agent.log has the details. Check Hermes' model settings (`hermes model`) and try again.",
  gateway_cancelled: () => 'It was stopped on the Hermes side (another client, or the gateway restarting). Send your message again to retry.',
  gateway_empty_answer: () => 'Try again; if it keeps happening, check the gateway log ($HERMES_HOME/logs/gateway.log).',
  gateway_run_forgotten: () => 'Hermes keeps finished runs only for a while, and forgets all of them when it restarts. Send your message again to retry.',
  interrupted: () => 'Send your message again to retry.',
  internal_error: () => 'Try again; if it keeps happening, check the server log.',
  resume_failed: () => 'Send your message again to retry; if it keeps happening, check the server log.',
};

const LOG_EN: HintTexts<typeof LOG_HINTS> = {
  server_log_not_kept: () => 'This deployment keeps no server log file.',
  hermes_logs_not_kept: () => "Hermes' log files are not kept on this deployment.",
  log_file_missing: (a) => `Log file for ${a.file} not found yet.`,
};

/** A hint with its code and values, the English made from them. */
export interface CodedHint<C extends string = string> {
  text: string;
  code: C;
  args: Record<string, string>;
}

export function failureHint<C extends FailureHintCode>(code: C, args: FailureHintArgs<C>): CodedHint<FailureHintCode> {
  return { text: (FAILURE_EN[code] as (a: FailureHintArgs<C>) => string)(args), code, args };
}

export function logHint<C extends LogHintCode>(code: C, args: LogHintArgs<C>): CodedHint<LogHintCode> {
  return { text: (LOG_EN[code] as (a: LogHintArgs<C>) => string)(args), code, args };
}
