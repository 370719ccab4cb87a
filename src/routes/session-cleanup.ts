import { Hono } from 'hono';
import type { AppDeps } from '../deps.js';
import { DEFAULT_TITLE } from '../domain/session-rows.js';
import { deleteSession } from './session-ops.js';

/**
 * Bulk cleanup, the incumbent's rules: `/api/sessions/cleanup` deletes every empty session still
 * titled "Untitled", `/cleanup_zero_message` every empty session whatever its title; pinned and
 * archived ones are not spared (nor are they by the incumbent). A session with a turn running is
 * never deleted: its first message may not be stored yet. Answers `{ok, cleaned}`.
 */
export function sessionCleanupRoutes(deps: AppDeps) {
  const app = new Hono();
  const cleanup = async (zeroOnly: boolean) => {
    const { rows } = await deps.sessions.list({ includeArchived: true });
    let cleaned = 0;
    for (const row of rows) {
      if (row.message_count !== 0 || (!zeroOnly && row.title !== DEFAULT_TITLE)) continue;
      if (row.active_stream_id || deps.agent.registry.activeFor(row.session_id)) continue;
      if (await deleteSession(deps, row.session_id)) cleaned++;
    }
    return cleaned;
  };
  app.post('/api/sessions/cleanup', async (c) => c.json({ ok: true, cleaned: await cleanup(false) }));
  app.post('/api/sessions/cleanup_zero_message', async (c) => c.json({ ok: true, cleaned: await cleanup(true) }));
  return app;
}
