import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { AppError, TooManyRequests } from '../ports/errors.js';
import type { Logger } from '../ports/platform.js';

/** Maps any thrown error to `{"error": …}`; unknown errors become a logged 500 with no details. */
export function errorResponder(logger: Logger) {
  return (err: Error, c: Context) => {
    if (err instanceof AppError) {
      if (err instanceof TooManyRequests) c.header('Retry-After', String(err.retryAfter));
      return c.json({ error: err.message, ...err.extra }, err.status);
    }
    if (err instanceof HTTPException) {
      const status = err.status;
      const message = status === 413 ? 'Request body too large' : err.message || 'Request failed';
      return c.json({ error: message }, status);
    }
    logger.error({ msg: 'unhandled error', method: c.req.method, path: c.req.path, error: String(err?.stack ?? err) });
    return c.json({ error: 'Internal server error' }, 500);
  };
}
