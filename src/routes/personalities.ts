import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { BadRequest, NotFound } from '../ports/errors.js';
import { jsonBody } from '../http/validate.js';
import type { Personality } from '../agent/personalities.js';
import { SessionId, requireSession } from './session-common.js';

const SetBody = z.object({ session_id: SessionId, name: z.string({ error: 'name is required ("" clears it)' }).max(128) });

/**
 * `/personality`: config.yaml's `agent.personalities` (the CLI's list), and the one a session
 * uses. The builtin agent adds the chosen prompt to its system prompt on the next turn.
 */
export function personalityRoutes(deps: AppDeps) {
  const app = new Hono();
  const list = async (): Promise<Personality[]> => (deps.agentConfig ? ((await deps.agentConfig.load()).personalities ?? []) : []);

  app.get('/api/personalities', async (c) => {
    return c.json({ personalities: (await list()).map((p) => ({ name: p.name, description: p.description })) });
  });

  app.post('/api/personality/set', async (c) => {
    const b = await jsonBody(c, SetBody);
    const session = await requireSession(deps, b.session_id);
    if (session.session_source === 'subagent') throw new BadRequest('Subagent sessions are view-only and cannot be modified');
    const name = b.name.trim();
    let prompt = '';
    if (name) {
      const found = (await list()).find((p) => p.name === name);
      if (!found) throw new NotFound(`Personality "${name}" not found in config.yaml`);
      prompt = found.prompt;
    }
    const updated = await deps.sessions.update(session.session_id, { personality: name || null });
    return c.json({ ok: true, personality: (updated.personality as string | null) ?? null, prompt });
  });

  return app;
}
