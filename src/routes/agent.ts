import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import type { AgentInfo } from '../agent/runtime.js';
import { NotFound } from '../ports/errors.js';
import { queryParams } from '../http/validate.js';
import { presenter } from '../http/redaction.js';

const SessionQuery = z.object({ session_id: z.string().min(1, 'session_id is required').max(256) });

/** How many of the agent's own sessions the sidebar lists, and messages a read-only view shows. */
const LIST_LIMIT = 200;
const MESSAGE_LIMIT = 2000;

/**
 * `GET /api/agent` (`?refresh=1` asks again): who answers chat turns and over which path — the
 * builtin agent, or a Hermes Agent gateway over its runs API or chat completions — and what
 * that path cannot do, for the quiet note beside the composer.
 *
 * `GET /api/agent/sessions` and `GET /api/agent/session`: the Hermes Agent's own sessions (CLI,
 * Telegram, … from `$HERMES_HOME/state.db`), read-only, when the `show_cli_sessions` setting is on.
 */
export function agentRoutes(deps: AppDeps) {
  const app = new Hono();
  app.get('/api/agent', async (c) => {
    const runtime = deps.agent.runtime;
    const refresh = ['1', 'true'].includes(c.req.query('refresh') ?? '');
    const info: AgentInfo = runtime.describe
      ? await runtime.describe({ refresh })
      : {
          kind: runtime.kind,
          label: runtime.kind === 'builtin' ? 'Built-in agent' : runtime.kind,
          path: runtime.kind,
          reachable: true,
          features:
            runtime.kind === 'builtin'
              ? { streaming: true, tool_events: true, reasoning: true, approvals: true, clarify: true, stop: true, sessions: true }
              : {},
          limitations: [],
        };
    return c.json(info);
  });

  const enabled = async () => (await deps.settings.read()).show_cli_sessions === true;

  app.get('/api/agent/sessions', async (c) => {
    const source = deps.agentSessions;
    const available = source ? await source.available() : false;
    const on = await enabled();
    if (!source || !available || !on) return c.json({ available, enabled: on, sessions: [] });
    const present = await presenter(deps.settings);
    // Turns this WebUI drove through the gateway are recorded by Hermes too: listed once, as ours.
    const rows = [];
    for (const row of await source.list({ limit: LIST_LIMIT })) {
      if (row.source === 'api_server' && (await deps.sessions.get(row.session_id).catch(() => null))) continue;
      rows.push(row);
    }
    return c.json({ available, enabled: on, sessions: present(rows) });
  });

  app.get('/api/agent/session', async (c) => {
    const q = queryParams(c, SessionQuery);
    const source = deps.agentSessions;
    if (!source || !(await enabled())) throw new NotFound('Hermes sessions are not shown (Settings: show_cli_sessions)');
    const found = await source.get(q.session_id, { limit: MESSAGE_LIMIT });
    if (!found) throw new NotFound('Hermes session not found');
    const present = await presenter(deps.settings);
    return c.json({
      session: present({
        ...found.row,
        messages: found.messages,
        message_count: found.row.message_count || found.messages.length,
        _messages_truncated: found.truncated,
      }),
    });
  });
  return app;
}
