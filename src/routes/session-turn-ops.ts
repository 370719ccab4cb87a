import { sessionHome } from '../http/request-home.js';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { AppError, BadRequest, Conflict } from '../ports/errors.js';
import { messageText } from '../domain/session-rows.js';
import { jsonBody, queryParams, requiring } from '../http/validate.js';
import { presenter } from '../http/redaction.js';
import type { Message, Session } from '../shared/session.js';
import { SessionId, sessionIdQuery, presentSession, requireSession } from './session-common.js';

// The incumbent's require() and its "Missing session_id" for the status query.
const IdBody = requiring(['session_id'], z.object({ session_id: SessionId }));
const TitleBody = requiring(['session_id'], z.object({ session_id: SessionId, prefer_latest: z.boolean().optional() }));
const StatusQuery = sessionIdQuery();

const PREVIEW_CHARS = 40;

/** The text a user typed, without the "[Attached files: …]" line the server appended for the model. */
function typedText(m: Message): string {
  const text = messageText(m);
  return Array.isArray(m.attachments) && m.attachments.length ? text.replace(/\n\n\[Attached files: [^\]]*\]$/, '') : text;
}

function attachmentPaths(m: Message): string[] {
  if (!Array.isArray(m.attachments)) return [];
  return (m.attachments as Array<{ path?: unknown }>).map((a) => (typeof a?.path === 'string' ? a.path : '')).filter(Boolean);
}

function lastUserIndex(messages: readonly Message[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === 'user') return i;
  return -1;
}

/**
 * The incumbent's conversation operations that act on the last exchange (retry, undo), the
 * session's status card and an on-demand title. Retry and undo cut on the server, so the CLI's
 * `/retry` and `/undo` and the web UI's agree on what they remove.
 */
export function sessionTurnOpRoutes(deps: AppDeps) {
  const app = new Hono();
  const present = async <T>(value: T): Promise<T> => (await presenter(deps.settings))(value);

  /** A session whose transcript may be changed now: not a subagent's, no turn running. */
  async function editable(id: string): Promise<Session> {
    const session = await requireSession(deps, id);
    if (session.session_source === 'subagent') throw new BadRequest('Subagent sessions are view-only and cannot be modified');
    if (deps.agent.registry.activeFor(id) || session.active_stream_id)
      throw new Conflict('Session has a turn running; wait for it to finish (or stop it) first');
    return session;
  }

  /** Cuts the transcript before its last user message; the cut message and what went. */
  async function dropLastExchange(session: Session, nothing: string) {
    const at = lastUserIndex(session.messages);
    if (at < 0) throw new BadRequest(nothing);
    const removed = session.messages[at]!;
    await deps.sessions.replaceMessages(session.session_id, session.messages.slice(0, at), undefined, { ifUpdatedAt: session.updated_at });
    return { removed, removedCount: session.messages.length - at };
  }

  app.post('/api/session/retry', async (c) => {
    const b = await jsonBody(c, IdBody);
    const { removed, removedCount } = await dropLastExchange(await editable(b.session_id), 'No previous message to retry.');
    // `last_user_attachments` is ours (additive): the files the message carried, sent again with it.
    return c.json({
      ok: true,
      last_user_text: await present(typedText(removed)),
      last_user_attachments: attachmentPaths(removed),
      removed_count: removedCount,
    });
  });

  app.post('/api/session/undo', async (c) => {
    const b = await jsonBody(c, IdBody);
    const { removed, removedCount } = await dropLastExchange(await editable(b.session_id), 'Nothing to undo.');
    const text = typedText(removed);
    return c.json({
      ok: true,
      removed_count: removedCount,
      removed_preview: await present(text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}...` : text),
      // Ours (additive): the whole message, so the composer can take it back.
      removed_text: await present(text),
      removed_attachments: attachmentPaths(removed),
    });
  });

  app.get('/api/session/status', async (c) => {
    const q = queryParams(c, StatusQuery);
    const s = await requireSession(deps, q.session_id);
    const input = typeof s.input_tokens === 'number' ? s.input_tokens : 0;
    const output = typeof s.output_tokens === 'number' ? s.output_tokens : 0;
    // Only a stream this process runs counts as live (a stored id can be left over from a crash).
    const live = deps.agent.registry.activeFor(s.session_id);
    return c.json(
      await present({
        session_id: s.session_id,
        title: s.title,
        model: s.model ?? null,
        profile: s.profile || 'default',
        // The session's profile home (empty where the agent's files are elsewhere).
        hermes_home: deps.agentConfig ? (await sessionHome(deps, s)).root : '',
        workspace: s.workspace ?? null,
        personality: typeof s.personality === 'string' && s.personality ? s.personality : null,
        message_count: s.messages.length,
        created_at: s.created_at,
        updated_at: s.updated_at,
        agent_running: !!live,
        active_stream_id: live?.streamId ?? null,
        input_tokens: input,
        output_tokens: output,
        total_tokens: input + output,
        estimated_cost: s.estimated_cost ?? null,
      }),
    );
  });

  app.post('/api/session/title/regenerate', async (c) => {
    const b = await jsonBody(c, TitleBody);
    const session = await requireSession(deps, b.session_id);
    if (session.read_only) throw new AppError(403, 'Read-only imported sessions cannot regenerate titles');
    const runtime = deps.agent.runtime;
    if (!runtime.generateTitle || !(await (runtime.canGenerateTitle?.() ?? true))) {
      throw new BadRequest('Title generation needs the built-in agent; the Hermes gateway has no call for it');
    }
    if (!session.messages.some((m) => m.role === 'user')) throw new AppError(422, 'Could not generate a better title (no user message yet)');
    const title = await runtime.generateTitle({ session, preferLatest: !!b.prefer_latest, signal: c.req.raw.signal, home: await sessionHome(deps, session) });
    if (!title) throw new AppError(422, 'Could not generate a better title (empty)');
    const updated = await deps.sessions.update(session.session_id, { title, llm_title_generated: true, manual_title: false });
    return c.json({
      session: await present(presentSession(updated, { messages: false })),
      title: await present(title),
      status: 'generated',
      raw_preview: await present(title),
    });
  });

  return app;
}
