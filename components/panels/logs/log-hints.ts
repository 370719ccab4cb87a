import { msg, str } from '@lit/localize';
import { type HintTexts, hintText, LOG_HINTS } from '../../../src/shared/server-texts.js';

// The log panel's hint in the reader's language, from the `hint_code` and `hint_args` that
// /api/logs sends beside its English `hint` (src/shared/server-texts.ts); typed by LOG_HINTS, so
// every code the server can send has a text here.
const TEXTS: HintTexts<typeof LOG_HINTS> = {
  server_log_not_kept: () => msg('This deployment keeps no server log file.'),
  hermes_logs_not_kept: () => msg("Hermes' log files are not kept on this deployment."),
  log_file_missing: (a) => msg(str`Log file for ${a.file} not found yet.`),
};

/** Why a log shows nothing, in the current language; the server's English for a code this build does not know. */
export function logHintText(answer: { hint: string; hint_code?: string; hint_args?: Record<string, string> }): string {
  return hintText(LOG_HINTS, TEXTS, answer.hint_code, answer.hint_args) ?? answer.hint;
}
