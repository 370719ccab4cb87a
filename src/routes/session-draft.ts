import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { BadRequest } from '../ports/errors.js';
import { jsonBody, queryParams, requiredFields } from '../http/validate.js';
import { SessionId, requireSession } from './session-common.js';

/** The incumbent's caps: a misbehaving client must not write megabytes into the session file on every keystroke. */
export const MAX_DRAFT_TEXT = 50_000;
export const MAX_DRAFT_FILES = 50;

/** What the incumbent's field means: a wrong type is cleared, a long value cut (never a 400). */
const DraftText = z
  .unknown()
  .optional()
  .transform((v) => (v === undefined || v === null ? undefined : typeof v === 'string' ? v.slice(0, MAX_DRAFT_TEXT) : ''));
const DraftFiles = z
  .unknown()
  .optional()
  .transform((v) => (v === undefined || v === null ? undefined : Array.isArray(v) ? v.slice(0, MAX_DRAFT_FILES) : []));

const DraftBody = requiredFields(['session_id'], z.object({ session_id: SessionId, text: DraftText, files: DraftFiles }));
const DraftQuery = z.object({ session_id: z.string({ error: 'session_id is required' }).min(1, 'session_id is required').pipe(SessionId) });

type Draft = { text?: string; files?: unknown[] };

const draftOf = (value: unknown): Draft => (value && typeof value === 'object' && !Array.isArray(value) ? { ...(value as Draft) } : {});

/**
 * `composer_draft` on the session (the incumbent's field, so a draft typed on one device is there
 * on another): GET ?session_id= reads it, POST {session_id, text?, files?} changes what is given.
 */
export function sessionDraftRoutes(deps: AppDeps) {
  const app = new Hono();

  app.get('/api/session/draft', async (c) => {
    const q = queryParams(c, DraftQuery);
    const session = await requireSession(deps, q.session_id);
    return c.json({ draft: draftOf(session.composer_draft) });
  });

  app.post('/api/session/draft', async (c) => {
    const b = await jsonBody(c, DraftBody);
    const session = await requireSession(deps, b.session_id);
    // A delegate_task child is its parent's work, shown as it ran.
    if (session.session_source === 'subagent') throw new BadRequest('Subagent sessions are view-only and cannot store a draft from WebUI');
    const current = draftOf(session.composer_draft);
    const next: Draft = { ...current };
    if (b.text !== undefined) next.text = b.text;
    if (b.files !== undefined) next.files = b.files;
    if (JSON.stringify(next) === JSON.stringify(current)) return c.json({ ok: true, draft: current, unchanged: true });
    // Not conversation activity: the session keeps its place in the list.
    const saved = await deps.sessions.update(b.session_id, { composer_draft: next }, { touch: false });
    return c.json({ ok: true, draft: draftOf(saved.composer_draft) });
  });

  return app;
}
