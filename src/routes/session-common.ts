import { z } from 'zod';
import { requiring } from '../http/validate.js';
import type { AppDeps } from '../deps.js';
import { NotFound } from '../ports/errors.js';
import { isSafeSessionId, type Session } from '../shared/session.js';

export const SessionId = z.string({ error: 'session_id is required' }).refine(isSafeSessionId, 'Invalid session id');

/** A query with `session_id`, where the incumbent answers a missing one with "Missing session_id". */
export const sessionIdQuery = <T extends z.ZodRawShape = Record<never, never>>(shape?: T) =>
  requiring(['session_id'], z.object({ session_id: SessionId }).extend(shape ?? ({} as T)), () => 'Missing session_id');

/** Optional optimistic-concurrency token: the `updated_at` the client last saw. */
export const ExpectedVersion = z.number().optional();

export async function requireSession(deps: AppDeps, id: string): Promise<Session> {
  const session = await deps.sessions.get(id);
  if (!session) throw new NotFound('Session not found');
  return session;
}

export { MSG_LIMIT_MAX, presentSession } from '../domain/present-session.js';
