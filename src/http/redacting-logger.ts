import type { Logger } from '../ports/platform.js';
import { redactDeep } from '../shared/redact.js';

/**
 * A logger that masks credentials in every string of every record (nested plain objects and
 * arrays included) before handing it on. Logs are always redacted, whatever
 * `api_redact_enabled` says: they outlive the session and travel further. Class instances
 * (an `Error` object) are passed as they are; log `String(err)` or `err.stack` to have them
 * redacted.
 *
 * @example
 * const logger = redactingLogger(jsonLineLogger());
 */
export function redactingLogger(logger: Logger): Logger {
  return {
    info: (record) => logger.info(redactDeep(record)),
    error: (record) => logger.error(redactDeep(record)),
  };
}
