import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { messageText } from '../domain/session-rows.js';
import { queryInt, queryParams } from '../http/validate.js';
import { presenter } from '../http/redaction.js';
import { redactSecrets } from '../shared/redact.js';
import { SessionId, requireSession } from './session-common.js';

const FIND_LIMIT_MAX = 1000;

const FindQuery = z.object({
  session_id: SessionId,
  q: z.string({ error: 'q is required' }).trim().min(1, 'q is required').max(500),
  limit: queryInt(FIND_LIMIT_MAX),
});

/**
 * Find in one session: the stored indexes of the messages whose text holds `q` (case-insensitive,
 * as `/api/sessions/search` matches), oldest first. The browser loads only the last page of a long
 * transcript, so it asks here and then loads the pages up to the hit it jumps to.
 */
export function sessionFindRoutes(deps: AppDeps) {
  const app = new Hono();

  app.get('/api/session/find', async (c) => {
    const q = queryParams(c, FindQuery);
    const session = await requireSession(deps, q.session_id);
    const present = await presenter(deps.settings);
    const needle = q.q.toLowerCase();
    const limit = q.limit ?? 200;
    const indexes: number[] = [];
    let count = 0;
    session.messages.forEach((m, i) => {
      const raw = messageText(m);
      // With redaction on, a secret the page never shows is not found either.
      const text = present.redacting ? redactSecrets(raw) : raw;
      if (!text.toLowerCase().includes(needle)) return;
      count++;
      if (indexes.length < limit) indexes.push(i);
    });
    return c.json({ session_id: session.session_id, query: needle, indexes, count, message_count: session.messages.length });
  });

  return app;
}
