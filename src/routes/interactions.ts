import { Hono } from 'hono';
import { z } from 'zod';
import type { ApprovalChoice } from '../agent/tools/types.js';
import type { AppDeps } from '../deps.js';
import { bodyFlag, jsonBody, queryFlag, queryParams, requiring } from '../http/validate.js';
import { SessionId, sessionIdQuery, requireSession } from './session-common.js';

const SessionQuery = z.object({ session_id: SessionId });
const ApprovalBody = z
  .object({
    session_id: SessionId,
    choice: z.unknown().optional(),
    approval_id: z.string().max(64).optional(),
    yolo: bodyFlag.optional(),
  })
  // The incumbent's text names what was sent: "Invalid choice: x".
  .transform((b, ctx) => {
    const { choice } = b;
    if (choice === undefined || choice === 'once' || choice === 'session' || choice === 'always' || choice === 'deny') {
      return { ...b, choice: choice as ApprovalChoice | undefined };
    }
    ctx.addIssue({ code: 'custom', message: `Invalid choice: ${typeof choice === 'string' ? choice : JSON.stringify(choice)}` });
    return z.NEVER;
  });
const ClarifyBody = z.object({
  session_id: SessionId,
  response: z.string().max(100_000).optional(),
  answer: z.string().max(100_000).optional(),
  choice: z.string().max(100_000).optional(),
  clarify_id: z.string().max(64).optional(),
});
const YoloQuery = sessionIdQuery({ enabled: queryFlag });
// As the incumbent: require() on session_id, and no `enabled` turns yolo on.
const YoloBody = requiring(['session_id'], z.object({ session_id: SessionId, enabled: bodyFlag.default(true) }));

/** Answers to what a run is waiting on: approvals, clarifying questions, and per-session yolo. */
export function interactionRoutes(deps: AppDeps) {
  const app = new Hono();
  const hub = deps.agent.hub;

  app.get('/api/approval/pending', async (c) => {
    const q = queryParams(c, SessionQuery);
    return c.json(hub.pendingApproval(q.session_id));
  });

  app.post('/api/approval/respond', async (c) => {
    const b = await jsonBody(c, ApprovalBody);
    if (b.yolo) {
      hub.setYolo(b.session_id, true);
      return c.json({ ok: true, choice: b.choice ?? 'once', yolo_enabled: true });
    }
    // No choice is a denial, as the incumbent reads it.
    const choice = b.choice ?? 'deny';
    const answered = hub.respondApproval(b.session_id, choice, b.approval_id);
    return c.json({ ok: true, choice, approval_id: answered.approval_id, ...hub.pendingApproval(b.session_id) });
  });

  app.get('/api/clarify/pending', async (c) => {
    const q = queryParams(c, SessionQuery);
    return c.json({ pending: hub.pendingClarify(q.session_id) });
  });

  app.post('/api/clarify/respond', async (c) => {
    const b = await jsonBody(c, ClarifyBody);
    const answer = b.response ?? b.answer ?? b.choice;
    if (answer === undefined || !answer.trim()) return c.json({ error: 'response is required' }, 400);
    hub.respondClarify(b.session_id, answer, b.clarify_id);
    return c.json({ ok: true, response: answer });
  });

  app.get('/api/session/yolo', async (c) => {
    const q = queryParams(c, YoloQuery);
    await requireSession(deps, q.session_id);
    if (q.enabled !== undefined) hub.setYolo(q.session_id, q.enabled);
    return c.json({ session_id: q.session_id, yolo_enabled: hub.isYolo(q.session_id) });
  });

  app.post('/api/session/yolo', async (c) => {
    const b = await jsonBody(c, YoloBody);
    await requireSession(deps, b.session_id);
    hub.setYolo(b.session_id, b.enabled);
    return c.json({ session_id: b.session_id, yolo_enabled: hub.isYolo(b.session_id) });
  });

  return app;
}
