import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { jsonBody, requiredFields } from '../http/validate.js';
import { SessionId, requireSession } from './session-common.js';

const PathBody = requiredFields(['session_id', 'path'], z.object({ session_id: SessionId, path: z.string().max(4096) }));

/**
 * `POST /api/file/path {session_id, path}` → `{ok, path}`: the absolute path of a workspace entry
 * ("Copy file path"); it need not exist, and nothing outside the workspace is answered.
 */
export function filePathRoutes(deps: AppDeps) {
  const app = new Hono();
  app.post('/api/file/path', async (c) => {
    const b = await jsonBody(c, PathBody);
    const session = await requireSession(deps, b.session_id);
    const root = session.workspace || deps.options.defaultWorkspace;
    return c.json({ ok: true, path: await deps.files.absolutePath(root, b.path === '.' ? '' : b.path) });
  });
  return app;
}
