import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { NotFound } from '../ports/errors.js';
import { isSafeSessionId, type Session } from '../shared/session.js';

export const SessionId = z.string({ error: 'session_id is required' }).refine(isSafeSessionId, 'Invalid session id');

/** Optional optimistic-concurrency token: the `updated_at` the client last saw. */
export const ExpectedVersion = z.number().optional();

export async function requireSession(deps: AppDeps, id: string): Promise<Session> {
  const session = await deps.sessions.get(id);
  if (!session) throw new NotFound('Session not found');
  return session;
}

export { MSG_LIMIT_MAX, presentSession } from '../domain/present-session.js';
