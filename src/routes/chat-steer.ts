import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { BadRequest } from '../ports/errors.js';
import { jsonBody } from '../http/validate.js';
import type { SteerFallback } from '../agent/runtime.js';
import { SessionId } from './session-common.js';

const SteerBody = z.object({
  session_id: SessionId,
  text: z.string({ error: 'text is required' }).max(100_000, 'text is too long'),
});

/** The incumbent's answer: `fallback` null when taken, `stream_id` the turn it went to (when there is one). */
type SteerAnswer = { accepted: boolean; fallback: SteerFallback | null; stream_id: string | null };

/**
 * `POST /api/chat/steer {session_id, text}`: hands text to the session's running turn, which
 * takes it at its next tool-result boundary without being interrupted. Every outcome is a 200
 * with the incumbent's fallback names (the composer decides what becomes of text not taken);
 * only a malformed body is a 400.
 */
export function chatSteerRoutes(deps: AppDeps) {
  const app = new Hono();
  const { registry, runtime } = deps.agent;

  app.post('/api/chat/steer', async (c) => {
    const b = await jsonBody(c, SteerBody);
    const text = b.text.trim();
    if (!text) throw new BadRequest('text is required');
    const answer = (a: SteerAnswer) => c.json(a);
    const session = await deps.sessions.get(b.session_id);
    if (!session) return answer({ accepted: false, fallback: 'session_not_found', stream_id: null });
    const run = registry.activeFor(session.session_id);
    if (run?.status !== 'running' || run.abort.signal.aborted) {
      // The session still names a stream nobody runs: it died (a crash, a restart) rather than ended.
      const fallback = session.active_stream_id && !run ? 'stream_dead' : 'not_running';
      return answer({ accepted: false, fallback, stream_id: null });
    }
    // Past `done` (a title being written) the transcript is stored: no boundary will come.
    if (session.active_stream_id !== run.streamId) return answer({ accepted: false, fallback: 'not_running', stream_id: null });
    if (!runtime.steer) return answer({ accepted: false, fallback: 'agent_lacks_steer', stream_id: null });
    try {
      const out = await runtime.steer({ sessionId: session.session_id, streamId: run.streamId, text });
      return answer({ accepted: out.accepted, fallback: out.accepted ? null : out.fallback, stream_id: run.streamId });
    } catch (err) {
      deps.logger.error({ msg: 'steer failed', session_id: session.session_id, stream_id: run.streamId, error: String((err as Error)?.message ?? err) });
      return answer({ accepted: false, fallback: 'steer_error', stream_id: run.streamId });
    }
  });

  return app;
}
