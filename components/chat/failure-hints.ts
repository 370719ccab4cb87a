import { msg, str } from '@lit/localize';
import { FAILURE_HINTS, type HintTexts, hintText } from '../../src/shared/server-texts.js';

// A failed turn's hint in the reader's language: the server sends `hint` in English with
// `hint_code` and `hint_args` beside it (src/shared/server-texts.ts); each code's sentence is
// written here, its values (provider ids, models, URLs, env var names, waits) set in as they came.
// The table is typed by FAILURE_HINTS, so a code the server can send has a text here or the
// typecheck fails. English of each text = the server's (src/shared/server-texts-en.ts).
const TEXTS: HintTexts<typeof FAILURE_HINTS> = {
  provider_key_rejected_env: (a) =>
    msg(str`Check the API key: ${a.provider} rejected the one in ${a.env} in $HERMES_HOME/.env (or model.api_key in config.yaml).`),
  provider_key_rejected_config: (a) =>
    msg(str`Check the API key: ${a.provider} rejected the one in model.api_key in $HERMES_HOME/config.yaml (or the key variable in .env).`),
  provider_key_missing_env: (a) => msg(str`${a.provider} needs an API key: set ${a.env} in $HERMES_HOME/.env (or model.api_key in config.yaml).`),
  provider_key_missing_config: (a) => msg(str`${a.provider} needs an API key: set model.api_key in $HERMES_HOME/config.yaml (or the key variable in .env).`),
  provider_model_not_found: (a) =>
    msg(str`The model "${a.model}" was not found at ${a.base_url}. Check the model name (model.default in config.yaml) and that base_url is right.`),
  provider_rate_limit: (a) => msg(str`${a.provider} is rate-limiting requests; wait a moment and try again.`),
  provider_rate_limit_retry: (a) => msg(str`${a.provider} is rate-limiting requests; retry after ${a.wait} (Retry-After).`),
  provider_5xx: () => msg('The provider failed; try again.'),
  provider_rejected: (a) => msg(str`${a.provider} rejected the request (HTTP ${a.status}).`),
  provider_unreachable: (a) => msg(str`Is the server at ${a.base_url} running and reachable from this machine?`),
  provider_cut_off: () => msg('The connection dropped before the answer finished; try again.'),
  provider_stream_error: () => msg('The provider failed while answering; try again.'),
  provider_malformed: (a) => msg(str`The answer from ${a.base_url} could not be read; check base_url and api_mode in config.yaml, then try again.`),
  model_empty_response: () => msg('Try again, or pick another model if it keeps happening.'),
  gateway_key_rejected: () =>
    msg(
      'The gateway refused the API key. Set HERMES_WEBUI_GATEWAY_API_KEY (or API_SERVER_KEY in $HERMES_HOME/.env) to the key the Hermes API server was started with (its API_SERVER_KEY).',
    ),
  gateway_key_missing: () =>
    msg(
      'The gateway needs an API key. Set HERMES_WEBUI_GATEWAY_API_KEY (or API_SERVER_KEY in $HERMES_HOME/.env) to the key the Hermes API server was started with (its API_SERVER_KEY).',
    ),
  gateway_busy: () =>
    msg(
      'Hermes is already running as many turns as it allows (gateway.api_server.max_concurrent_runs in its config.yaml); wait for one to finish and try again.',
    ),
  gateway_busy_retry: (a) =>
    msg(str`Hermes is already running as many turns as it allows (gateway.api_server.max_concurrent_runs in its config.yaml); retry after ${a.wait}.`),
  gateway_rate_limit: () => msg('Hermes is rate-limiting requests; wait for one to finish and try again.'),
  gateway_rate_limit_retry: (a) => msg(str`Hermes is rate-limiting requests; retry after ${a.wait}.`),
  gateway_not_offered: (a) => msg(str`This Hermes does not offer ${a.what}. Update Hermes Agent, or check HERMES_WEBUI_GATEWAY_BASE_URL (now ${a.base_url}).`),
  gateway_too_large: () => msg('The message is larger than Hermes accepts (10 MB); send less at once.'),
  gateway_5xx: () => msg('Hermes Agent failed on its side; its log ($HERMES_HOME/logs/gateway.log) says why. Try again.'),
  gateway_refused: (a) => msg(str`Hermes Agent refused the request (HTTP ${a.status}).`),
  gateway_unreachable: (a) =>
    msg(
      str`Is it running? Start Hermes' API server (API_SERVER_ENABLED=true in $HERMES_HOME/.env, then \`hermes gateway\`), or point HERMES_WEBUI_GATEWAY_BASE_URL at it (now ${a.base_url}).`,
    ),
  gateway_silent: (a) =>
    msg(
      str`The gateway at ${a.base_url} may be stuck or the connection dropped; its log ($HERMES_HOME/logs/gateway.log) may say why. HERMES_WEBUI_GATEWAY_READ_TIMEOUT sets how long to wait (now ${a.seconds} s).`,
    ),
  gateway_malformed: (a) =>
    msg(str`Check that HERMES_WEBUI_GATEWAY_BASE_URL (now ${a.base_url}) is a Hermes API server, and that this WebUI and Hermes Agent are both up to date.`),
  gateway_cut_off: () => msg('The connection to the gateway dropped before the answer finished; try again.'),
  gateway_stream_unreliable: () => msg('The connection to the gateway is unreliable; try again. The run may still finish in Hermes (see `hermes sessions`).'),
  gateway_unknown_event: () =>
    msg(
      'Update Hermes WebUI (or check that Hermes Agent and this WebUI are compatible versions); Hermes may still have finished the run (see `hermes sessions`).',
    ),
  gateway_no_api: () => msg('Update Hermes Agent, or check HERMES_WEBUI_GATEWAY_BASE_URL.'),
  gateway_run_failed: () =>
    msg(
      "The failure happened inside Hermes (its model provider or a tool); $HERMES_HOME/logs/agent.log has the details. Check Hermes' model settings (`hermes model`) and try again.",
    ),
  gateway_cancelled: () => msg('It was stopped on the Hermes side (another client, or the gateway restarting). Send your message again to retry.'),
  gateway_empty_answer: () => msg('Try again; if it keeps happening, check the gateway log ($HERMES_HOME/logs/gateway.log).'),
  gateway_run_forgotten: () => msg('Hermes keeps finished runs only for a while, and forgets all of them when it restarts. Send your message again to retry.'),
  interrupted: () => msg('Send your message again to retry.'),
  internal_error: () => msg('Try again; if it keeps happening, check the server log.'),
  resume_failed: () => msg('Send your message again to retry; if it keeps happening, check the server log.'),
};

/** What a failed turn's error says to do, in the current language; the server's English for a code this build does not know. */
export function failureHintText(error: { hint?: string; hintCode?: string; hintArgs?: Record<string, string> }): string | undefined {
  return hintText(FAILURE_HINTS, TEXTS, error.hintCode, error.hintArgs) ?? error.hint;
}
