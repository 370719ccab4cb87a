import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { BadRequest } from '../ports/errors.js';
import { jsonBody, requiredFields } from '../http/validate.js';
import { SessionId, requireSession } from './session-common.js';

const ToolsetsBody = requiredFields(['session_id'], z.object({ session_id: SessionId, toolsets: z.unknown().optional() }));

/** The incumbent's shape check: null clears, else a non-empty list of non-empty names (no catalog lookup). */
function toolsetsOf(value: unknown): string[] | null {
  if (value === null || value === undefined) return null;
  if (!Array.isArray(value) || value.length === 0) throw new BadRequest('toolsets must be a non-empty list or null');
  if (!value.every((t) => typeof t === 'string' && t)) throw new BadRequest('each toolset must be a non-empty string');
  return value as string[];
}

/**
 * `POST /api/session/toolsets {session_id, toolsets|null}`: the session's `enabled_toolsets`; the
 * built-in agent offers only the tools of those toolsets on its next turns (MCP tools stay).
 */
export function sessionToolsetRoutes(deps: AppDeps) {
  const app = new Hono();
  app.post('/api/session/toolsets', async (c) => {
    const b = await jsonBody(c, ToolsetsBody);
    const toolsets = toolsetsOf(b.toolsets);
    const session = await requireSession(deps, b.session_id);
    if (session.session_source === 'subagent') throw new BadRequest('Subagent sessions are view-only and cannot be modified from WebUI');
    const saved = await deps.sessions.update(b.session_id, { enabled_toolsets: toolsets });
    return c.json({ ok: true, enabled_toolsets: saved.enabled_toolsets ?? null });
  });
  return app;
}
