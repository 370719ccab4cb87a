import type { MiddlewareHandler } from 'hono';
import type { Logger } from '../ports/platform.js';

/** One structured line per request: method, path, status, milliseconds. */
export function requestLog(logger: Logger): MiddlewareHandler {
  return async (c, next) => {
    const start = performance.now();
    await next();
    logger.info({
      ts: new Date().toISOString(),
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round((performance.now() - start) * 100) / 100,
    });
  };
}
