import type { HermesHome } from '../ports/hermes-home.js';
import { Hono } from 'hono';
import { requestHome, sessionHome } from '../http/request-home.js';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { BadRequest, NotFound } from '../ports/errors.js';
import { jsonBody, requiring } from '../http/validate.js';
import type { Personality } from '../agent/personalities.js';
import { SessionId, requireSession } from './session-common.js';

// The incumbent's texts: require() on session_id, then "Missing required field: name" ("" clears it).
const SetBody = requiring(['session_id'], z.object({ session_id: SessionId, name: z.unknown().optional() })).transform((b, ctx) => {
  if (b.name === undefined || typeof b.name !== 'string' || b.name.length > 128) {
    ctx.addIssue({ code: 'custom', message: 'Missing required field: name' });
    return z.NEVER;
  }
  return { session_id: b.session_id, name: b.name };
});

/**
 * `/personality`: config.yaml's `agent.personalities` (the CLI's list), and the one a session
 * uses. The builtin agent adds the chosen prompt to its system prompt on the next turn.
 */
export function personalityRoutes(deps: AppDeps) {
  const app = new Hono();
  const list = async (home: HermesHome): Promise<Personality[]> => (deps.agentConfig ? ((await home.config.load()).personalities ?? []) : []);

  app.get('/api/personalities', async (c) => {
    return c.json({ personalities: (await list(await requestHome(c, deps))).map((p) => ({ name: p.name, description: p.description })) });
  });

  app.post('/api/personality/set', async (c) => {
    const b = await jsonBody(c, SetBody);
    const session = await requireSession(deps, b.session_id);
    if (session.session_source === 'subagent') throw new BadRequest('Subagent sessions are view-only and cannot be modified');
    const name = b.name.trim();
    let prompt = '';
    if (name) {
      // The session's own profile decides which personalities it can take.
      const found = (await list(await sessionHome(deps, session))).find((p) => p.name === name);
      if (!found) throw new NotFound(`Personality "${name}" not found in config.yaml`);
      prompt = found.prompt;
    }
    const updated = await deps.sessions.update(session.session_id, { personality: name || null });
    return c.json({ ok: true, personality: (updated.personality as string | null) ?? null, prompt });
  });

  return app;
}
