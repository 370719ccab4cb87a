import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { NotFound } from '../ports/errors.js';
import type { SessionPage, StoreProblem } from '../ports/session-store.js';
import { MessageSchema, type Session } from '../shared/session.js';
import { DEFAULT_TITLE, messageText, newSessionId, toRow } from '../domain/session-rows.js';
import { bodyFlag, jsonBody, queryFlag, queryInt, queryParams } from '../http/validate.js';
import { MSG_LIMIT_MAX, SessionId, presentSession, requireSession } from './session-common.js';
import { defaultWorkspaceFor } from './workspaces.js';

const ListQuery = z.object({
  include_archived: queryFlag,
  limit: queryInt(),
  offset: queryInt(),
});

const GetQuery = z.object({
  session_id: SessionId,
  messages: queryFlag,
  msg_limit: queryInt(MSG_LIMIT_MAX),
  msg_before: queryInt(),
});

const SearchQuery = z.object({
  q: z.string().max(500).optional(),
  content: queryFlag,
  limit: queryInt(1000),
});

const NewBody = z.object({
  workspace: z.string().min(1).optional(),
  model: z.string().max(256).nullable().optional(),
  model_provider: z.string().max(128).nullable().optional(),
  project_id: z.string().nullable().optional(),
  profile: z.string().max(128).nullable().optional(),
});

const ImportBody = z.object({
  messages: z.array(MessageSchema, { error: 'messages must be a list of messages' }),
  title: z.string().max(200).optional(),
  workspace: z.string().min(1).nullable().optional(),
  model: z.string().max(256).nullable().optional(),
  model_provider: z.string().max(128).nullable().optional(),
  tool_calls: z.array(z.unknown()).optional(),
  pinned: bodyFlag.optional(),
});

const ExportQuery = z.object({
  session_id: SessionId,
  format: z.enum(['json', 'md'], { error: 'format must be "json" or "md"' }).optional(),
});

/** A fresh session with the incumbent's defaults. */
export function blankSession(deps: AppDeps, fields: Partial<Session> & { workspace: string }): Session {
  const now = deps.clock.now();
  return {
    session_id: newSessionId(),
    title: DEFAULT_TITLE,
    model: null,
    model_provider: null,
    created_at: now,
    updated_at: now,
    pinned: false,
    archived: false,
    project_id: null,
    profile: 'default',
    input_tokens: 0,
    output_tokens: 0,
    estimated_cost: null,
    ...fields,
    messages: fields.messages ?? [],
    tool_calls: fields.tool_calls ?? [],
  };
}

const utf8 = new TextEncoder();

/**
 * The list response's bytes per query variant, for one store revision at a time: rows are
 * serialised and encoded once per change, not once per request. (So the body carries no
 * per-request field; the response's Date header gives the server's clock.)
 */
class ListBodyCache {
  #revision = '';
  #byVariant = new Map<string, Uint8Array<ArrayBuffer>>();

  body(page: SessionPage, variant: string, problems: StoreProblem[]): Uint8Array<ArrayBuffer> {
    if (page.revision !== this.#revision) {
      this.#revision = page.revision;
      this.#byVariant.clear();
    }
    let bytes = this.#byVariant.get(variant);
    if (bytes === undefined) {
      bytes = utf8.encode(
        `{"sessions":${JSON.stringify(page.rows)},"total":${page.total},"archived_count":${page.archivedCount}` +
          (problems.length ? `,"unreadable_sessions":${JSON.stringify(problems)}` : '') +
          '}',
      );
      // Only a handful of variants are ever asked for; bound it anyway.
      if (this.#byVariant.size < 16) this.#byVariant.set(variant, bytes);
    }
    return bytes;
  }
}

/** Listing, reading, search, creation, import and export of sessions. */
export function sessionRoutes(deps: AppDeps) {
  const app = new Hono();

  // The sidebar asks for the same list again and again; its JSON is rebuilt only when the
  // store's revision moves, and a client holding the current ETag gets a bodiless 304.
  const listCache = new ListBodyCache();
  app.get('/api/sessions', async (c) => {
    const q = queryParams(c, ListQuery);
    const page = await deps.sessions.list({ includeArchived: q.include_archived ?? false, limit: q.limit, offset: q.offset });
    const variant = `${q.include_archived ? 1 : 0}.${q.limit ?? ''}.${q.offset ?? ''}`;
    const etag = `W/"${page.revision}.${variant}"`;
    if (c.req.header('If-None-Match') === etag) return c.body(null, 304, { ETag: etag });
    const body = listCache.body(page, variant, await deps.sessions.problems());
    return c.body(body, 200, { 'Content-Type': 'application/json; charset=utf-8', ETag: etag });
  });

  app.get('/api/session', async (c) => {
    const q = queryParams(c, GetQuery);
    const session = await requireSession(deps, q.session_id);
    return c.json({ session: presentSession(session, { messages: q.messages ?? true, limit: q.msg_limit, before: q.msg_before }) });
  });

  app.get('/api/sessions/search', async (c) => {
    const q = queryParams(c, SearchQuery);
    const query = (q.q ?? '').trim();
    if (!query) {
      const page = await deps.sessions.list({});
      return c.json({ sessions: page.rows, query: '', count: page.rows.length });
    }
    const hits = await deps.sessions.search(query, { content: q.content ?? false, limit: q.limit });
    return c.json({ sessions: hits, query: query.toLowerCase(), count: hits.length });
  });

  app.post('/api/session/new', async (c) => {
    const body = await jsonBody(c, NewBody);
    const workspace = body.workspace ? await deps.files.checkWorkspace(body.workspace) : await defaultWorkspaceFor(deps);
    if (body.project_id && !(await deps.projects.get(body.project_id))) throw new NotFound('Project not found');
    const session = await deps.sessions.create(
      blankSession(deps, {
        workspace,
        model: body.model ?? null,
        model_provider: body.model_provider?.trim().toLowerCase() || null,
        project_id: body.project_id ?? null,
        ...(body.profile ? { profile: body.profile } : {}),
      }),
    );
    return c.json({ session: presentSession(session) });
  });

  app.get('/api/session/export', async (c) => {
    const q = queryParams(c, ExportQuery);
    const session = await requireSession(deps, q.session_id);
    const format = q.format ?? 'json';
    const body = format === 'md' ? toMarkdown(session) : JSON.stringify(session, null, 2);
    return c.body(body, 200, {
      'Content-Type': format === 'md' ? 'text/markdown; charset=utf-8' : 'application/json; charset=utf-8',
      'Content-Disposition': `attachment; filename="hermes-${session.session_id}.${format}"`,
      'Cache-Control': 'no-store',
    });
  });

  app.post('/api/session/import', async (c) => {
    const body = await jsonBody(c, ImportBody);
    const workspace = body.workspace ? await deps.files.checkWorkspace(body.workspace) : await defaultWorkspaceFor(deps);
    const session = await deps.sessions.create(
      blankSession(deps, {
        title: body.title?.trim() || 'Imported session',
        workspace,
        model: body.model ?? null,
        model_provider: body.model_provider?.trim().toLowerCase() || null,
        pinned: body.pinned ?? false,
        messages: body.messages,
        tool_calls: body.tool_calls ?? [],
      }),
    );
    return c.json({ ok: true, session: presentSession(session) });
  });

  return app;
}

const ROLE_HEADINGS: Record<string, string> = { user: 'User', assistant: 'Assistant', system: 'System', tool: 'Tool' };

/** A readable transcript: one heading per message, tool calls and results as code blocks. */
export function toMarkdown(session: Session): string {
  const row = toRow(session);
  const lines = [`# ${row.title}`, '', `- Session: \`${session.session_id}\``];
  if (session.model) lines.push(`- Model: ${session.model}`);
  if (session.workspace) lines.push(`- Workspace: \`${session.workspace}\``);
  lines.push(`- Created: ${new Date(session.created_at * 1000).toISOString()}`, '');
  for (const m of session.messages) {
    const heading = ROLE_HEADINGS[m.role] ?? m.role;
    const text = messageText(m);
    lines.push(`## ${heading}${m.role === 'tool' && typeof m.name === 'string' ? ` · ${m.name}` : ''}`, '');
    if (m.role === 'tool') lines.push('```', text, '```', '');
    else if (text) lines.push(text, '');
    if (Array.isArray(m.tool_calls)) {
      for (const call of m.tool_calls as Array<{ function?: { name?: string; arguments?: string } }>) {
        lines.push(`**Tool call:** \`${call.function?.name ?? 'tool'}\``, '', '```json', call.function?.arguments ?? '', '```', '');
      }
    }
  }
  return lines.join('\n');
}
