import { Hono } from 'hono';
import { requestWorkspaces } from '../http/request-home.js';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { BadRequest, Conflict, NotFound } from '../ports/errors.js';
import { DEFAULT_TITLE, newSessionId, toRow } from '../domain/session-rows.js';
import { bodyFlag, jsonBody, requiring } from '../http/validate.js';
import { SETTINGS_DEFAULTS } from '../shared/settings.js';
import { presenter } from '../http/redaction.js';
import { cutBeforeToken } from '../shared/redact.js';
import { ExpectedVersion, SessionId, presentSession, requireSession } from './session-common.js';

// The incumbent checks most of these with its require(): "Missing required field(s): session_id".
const IdBody = z.object({ session_id: SessionId });
const RequiredIdBody = requiring(['session_id'], IdBody);
// Its require() also refuses an empty title; here an empty one means "Untitled" (a blank one does there too).
const RenameBody = z
  .record(z.string(), z.unknown())
  .superRefine((b, ctx) => {
    const missing = [!b.session_id && 'session_id', (b.title === undefined || b.title === null) && 'title'].filter(Boolean);
    if (missing.length) ctx.addIssue({ code: 'custom', message: `Missing required field(s): ${missing.join(', ')}` });
  })
  .pipe(z.object({ session_id: SessionId, title: z.string().max(1000), expected_updated_at: ExpectedVersion }));
const UpdateBody = requiring(
  ['session_id'],
  z.object({
    session_id: SessionId,
    workspace: z.string().min(1).optional(),
    model: z.string().max(256).nullable().optional(),
    model_provider: z.string().max(128).nullable().optional(),
    expected_updated_at: ExpectedVersion,
  }),
);
const PinBody = requiring(['session_id'], z.object({ session_id: SessionId, pinned: bodyFlag.default(true) }));
const ArchiveBody = requiring(['session_id'], z.object({ session_id: SessionId, archived: bodyFlag.default(true) }));
// No project (absent, null or empty) takes the session out of its project, as the incumbent reads it.
const MoveBody = requiring(
  ['session_id'],
  z.object({
    session_id: SessionId,
    project_id: z
      .string()
      .max(128)
      .nullish()
      .transform((v) => v || null),
  }),
);
const TruncateBody = requiring(['session_id'], requiring(['keep_count'], z.object({ session_id: SessionId, keep_count: z.number().int().min(0) })));
const BranchBody = requiring(
  ['session_id'],
  z.object({ session_id: SessionId, keep_count: z.number().int().min(0).optional(), title: z.string().max(1000).optional() }),
);

const TITLE_MAX = 80;
const cleanTitle = (title: string) => cutBeforeToken(title.trim().replace(/\s+/g, ' '), TITLE_MAX) || DEFAULT_TITLE;

/** Changes to one session: rename, model/workspace, pin, archive, project, clear, truncate, fork, copy, delete. */
export function sessionOpRoutes(deps: AppDeps) {
  const app = new Hono();
  const s = deps.sessions;
  /** What a browser may see of a session, a row or a title (`api_redact_enabled`). */
  const present = async <T>(value: T): Promise<T> => (await presenter(deps.settings))(value);

  app.post('/api/session/rename', async (c) => {
    const b = await jsonBody(c, RenameBody);
    const session = await s.update(b.session_id, { title: cleanTitle(b.title), manual_title: true }, { ifUpdatedAt: b.expected_updated_at });
    return c.json({ session: await present(toRow(session)) });
  });

  app.post('/api/session/update', async (c) => {
    const b = await jsonBody(c, UpdateBody);
    const current = await requireSession(deps, b.session_id);
    const patch: Record<string, unknown> = {};
    if (b.workspace !== undefined) patch.workspace = await deps.files.checkWorkspace(b.workspace);
    // The running turn's tools work in the old folder: moving under them would split the turn (the incumbent refuses too).
    if (patch.workspace !== undefined && patch.workspace !== current.workspace && deps.agent.registry.activeFor(b.session_id)) {
      throw new Conflict('Cannot switch workspace while agent is running');
    }
    if (b.model !== undefined) patch.model = b.model;
    if (b.model_provider !== undefined) patch.model_provider = b.model_provider?.trim().toLowerCase() || null;
    const session = await s.update(b.session_id, patch, { ifUpdatedAt: b.expected_updated_at });
    if (typeof patch.workspace === 'string') await (await requestWorkspaces(c, deps)).setLast(patch.workspace);
    return c.json({ session: await present(presentSession(session)) });
  });

  app.post('/api/session/delete', async (c) => {
    const b = await jsonBody(c, IdBody);
    if (deps.agent.registry.activeFor(b.session_id)) throw new Conflict('Session has a turn running; cancel it first');
    // Deleting what is already gone is done, as the incumbent answers it (two tabs, a retried script); `deleted` is ours.
    if (!(await deleteSession(deps, b.session_id))) return c.json({ ok: true, deleted: false });
    return c.json({ ok: true });
  });

  app.post('/api/session/pin', async (c) => {
    const b = await jsonBody(c, PinBody);
    if (b.pinned) {
      const current = await requireSession(deps, b.session_id);
      const settings = await deps.settings.read();
      const limit = typeof settings.pinned_sessions_limit === 'number' ? settings.pinned_sessions_limit : SETTINGS_DEFAULTS.pinned_sessions_limit;
      const pinned = (await s.list({ includeArchived: true })).rows.filter((r) => r.pinned).length;
      if (!current.pinned && limit > 0 && pinned >= limit) {
        throw new BadRequest(`You can pin at most ${limit} sessions; unpin one first (or raise the limit in settings)`);
      }
    }
    const session = await s.update(b.session_id, { pinned: b.pinned });
    return c.json({ ok: true, session: await present(toRow(session)) });
  });

  app.post('/api/session/archive', async (c) => {
    const b = await jsonBody(c, ArchiveBody);
    const session = await s.update(b.session_id, { archived: b.archived });
    return c.json({ ok: true, session: await present(toRow(session)) });
  });

  app.post('/api/session/move', async (c) => {
    const b = await jsonBody(c, MoveBody);
    await requireSession(deps, b.session_id);
    if (b.project_id && !(await deps.projects.get(b.project_id))) throw new NotFound('Project not found');
    const session = await s.update(b.session_id, { project_id: b.project_id });
    return c.json({ ok: true, session: await present(toRow(session)) });
  });

  app.post('/api/session/clear', async (c) => {
    const b = await jsonBody(c, RequiredIdBody);
    const current = await requireSession(deps, b.session_id);
    const generation = typeof current.clear_generation === 'number' ? current.clear_generation + 1 : 1;
    const session = await s.replaceMessages(b.session_id, [], {
      title: DEFAULT_TITLE,
      manual_title: false,
      tool_calls: [],
      clear_generation: generation,
    });
    return c.json({ ok: true, session: await present(toRow(session)) });
  });

  app.post('/api/session/truncate', async (c) => {
    const b = await jsonBody(c, TruncateBody);
    const current = await requireSession(deps, b.session_id);
    const session = await s.replaceMessages(b.session_id, current.messages.slice(0, b.keep_count), undefined, { ifUpdatedAt: current.updated_at });
    return c.json({ ok: true, session: await present(presentSession(session)) });
  });

  app.post('/api/session/branch', async (c) => {
    const b = await jsonBody(c, BranchBody);
    const source = await requireSession(deps, b.session_id);
    const title = b.title?.trim() ? cleanTitle(b.title) : `${source.title || DEFAULT_TITLE} (fork)`;
    const now = deps.clock.now();
    const fork = await s.create({
      ...copyOf(source),
      session_id: newSessionId(),
      title,
      created_at: now,
      updated_at: now,
      pinned: false,
      archived: false,
      parent_session_id: source.session_id,
      session_source: 'fork',
      messages: source.messages.slice(0, b.keep_count ?? source.messages.length),
    });
    return c.json({ session_id: fork.session_id, title: await present(fork.title), parent_session_id: source.session_id });
  });

  app.post('/api/session/duplicate', async (c) => {
    const b = await jsonBody(c, IdBody);
    const source = await requireSession(deps, b.session_id);
    const now = deps.clock.now();
    const copy = await s.create({
      ...copyOf(source),
      session_id: newSessionId(),
      title: `${source.title || DEFAULT_TITLE} (copy)`,
      created_at: now,
      updated_at: now,
      pinned: false,
      archived: false,
    });
    return c.json({ session: await present(presentSession(copy)) });
  });

  return app;
}

/** A session's content without what belongs to the original alone (its live run, its share link). */
function copyOf<T extends Record<string, unknown>>(source: T): T {
  const copy = structuredClone(source);
  for (const key of ['active_stream_id', 'pending_user_message', 'pending_started_at', 'share_token', 'share_created_at', 'manual_title']) {
    delete copy[key];
  }
  return copy;
}

/** Deletes a session and what hangs off it (journal, change records, processes, terminal); false when it was gone. */
export async function deleteSession(deps: AppDeps, id: string): Promise<boolean> {
  if (!(await deps.sessions.delete(id))) return false;
  await deps.agent.registry.journal.deleteSession(id);
  await deps.changes?.store.deleteSession(id);
  deps.agent.hub.forget(id);
  // Its background processes die with it (Hermes stops a session's processes at teardown).
  await deps.agent.processes?.stopSession(id);
  deps.terminals?.close(id);
  return true;
}
