import { Hono } from 'hono';
import { z } from 'zod';
import { stripAnsi } from '../agent/tools/ansi.js';
import type { AppDeps } from '../deps.js';
import { queryParams } from '../http/validate.js';
import { presenter } from '../http/redaction.js';
import type { SessionProcessesResponse } from '../shared/processes.js';
import { SessionId, requireSession } from './session-common.js';

const Query = z.object({ session_id: SessionId });

/** GET /api/session/processes: a session's background processes, for its Activity (also after a reload). */
export function processRoutes(deps: AppDeps) {
  const app = new Hono();
  app.get('/api/session/processes', async (c) => {
    const q = queryParams(c, Query);
    await requireSession(deps, q.session_id);
    const rows = (deps.agent.processes?.list(q.session_id) ?? []).map((r) => ({ ...r, output_preview: stripAnsi(r.output_preview) }));
    const body: SessionProcessesResponse = { processes: await (await presenter(deps.settings))(rows) };
    return c.json(body);
  });
  return app;
}
