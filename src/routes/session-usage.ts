import { Hono } from 'hono';
import type { AppDeps } from '../deps.js';
import { BadRequest } from '../ports/errors.js';
import type { Session } from '../shared/session.js';
import type { SessionUsage } from '../shared/session-usage.js';
import { sessionIdQuery, requireSession } from './session-common.js';

const UsageQuery = sessionIdQuery();

const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
const positiveOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : null);

/**
 * A session's token use, cost and context fill. The incumbent's fields first (input, output and
 * total tokens, estimated_cost, model), then what the context ring reads: the prompt-cache
 * totals, the last prompt's size, the model's window and the auto-compression trigger, as the
 * last turn (or manual compression) stored them. A figure nobody reported is null, never guessed.
 */
export function sessionUsage(s: Session): SessionUsage {
  const input = count(s.input_tokens);
  const output = count(s.output_tokens);
  const cacheRead = count(s.cache_read_tokens);
  return {
    input_tokens: input,
    output_tokens: output,
    total_tokens: input + output,
    estimated_cost: typeof s.estimated_cost === 'number' ? s.estimated_cost : null,
    // A session on the configured default names no model: the one that last answered does.
    model: s.model || lastUsedModel(s),
    cache_read_tokens: cacheRead,
    cache_write_tokens: count(s.cache_write_tokens),
    cache_hit_percent: input > 0 && cacheRead > 0 ? Math.min(100, Math.round((cacheRead / input) * 100)) : null,
    last_prompt_tokens: count(s.last_prompt_tokens),
    context_length: positiveOrNull(s.context_length),
    threshold_tokens: positiveOrNull(s.threshold_tokens),
  };
}

function lastUsedModel(s: Session): string | null {
  for (let i = s.messages.length - 1; i >= 0; i--) {
    const used = s.messages[i]!._usedModel;
    if (typeof used === 'string' && used) return used;
  }
  return null;
}

/** GET /api/session/usage?session_id= (what `/usage` shows). */
export function sessionUsageRoutes(deps: AppDeps) {
  const app = new Hono();
  app.get('/api/session/usage', async (c) => {
    const q = UsageQuery.safeParse({ session_id: c.req.query('session_id') });
    if (!q.success) throw new BadRequest(q.error.issues[0]?.message ?? 'session_id is required');
    return c.json(sessionUsage(await requireSession(deps, q.data.session_id)));
  });
  return app;
}
