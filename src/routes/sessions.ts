import { Hono, type Context } from 'hono';
import { requestHome, requestWorkspaces } from '../http/request-home.js';
import { scopeByProfile } from '../domain/profile-scope.js';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { NotFound } from '../ports/errors.js';
import type { SearchHit } from '../ports/session-store.js';
import { MessageSchema, type Session } from '../shared/session.js';
import { DEFAULT_TITLE, matchPreview, messageText, newSessionId, toRow } from '../domain/session-rows.js';
import { bodyFlag, jsonBody, queryFlag, queryInt, queryParams } from '../http/validate.js';
import { toHtml } from '../domain/session-html.js';
import { presenter, redactRowTitles } from '../http/redaction.js';
import { redactSecrets } from '../shared/redact.js';
import { acceptedLanguages, chooseLocale, type LocaleCode } from '../shared/locales.js';
import { MSG_LIMIT_MAX, SessionId, presentSession, requireSession } from './session-common.js';
import { defaultWorkspaceFor } from './workspaces.js';
import { sessionListRoutes } from './session-list.js';
import { canonicalFields } from './session-canonical.js';
import { agentSearchHits, cliSessionRoutes, openAgentSession } from './cli-sessions.js';
import { autoAssignProject } from '../domain/project-bindings.js';
import { deriveTodoState } from '../domain/todo-state.js';
import { sessionShare } from './shares.js';

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
  // How many of a Hermes session's first messages are searched (0: all); as the incumbent, a malformed value is its default 5.
  depth: z
    .string()
    .optional()
    .transform((v) => (v !== undefined && /^-?\d+$/.test(v.trim()) ? Math.max(0, Number(v)) : 5)),
  all_profiles: queryFlag,
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
  format: z.enum(['json', 'md', 'html'], { error: 'format must be "json", "md" or "html"' }).optional(),
  theme: z.enum(['light', 'dark', 'system'], { error: 'theme must be "light", "dark" or "system"' }).optional(),
});

const EXPORT_TYPES = { json: 'application/json', md: 'text/markdown', html: 'text/html' } as const;

/** The export's language: the `language` setting when it names one ("auto", unset or unreadable: the browser's). */
async function exportLocale(deps: AppDeps, c: Context): Promise<LocaleCode> {
  const setting = await deps.settings.read().then(
    (s) => (typeof s.language === 'string' ? s.language : null),
    () => null,
  );
  return chooseLocale(setting, acceptedLanguages(c.req.header('Accept-Language')));
}

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

/** Listing, reading, search, creation, import and export of sessions. */
export function sessionRoutes(deps: AppDeps) {
  const app = new Hono();

  app.route('/', sessionListRoutes(deps));
  app.route('/', cliSessionRoutes(deps));

  app.get('/api/session', async (c) => {
    const q = queryParams(c, GetQuery);
    const stored = await deps.sessions.get(q.session_id);
    if (!stored) {
      // Not ours: one of Hermes' own (CLI, Telegram …) when show_cli_sessions is on, read from state.db.
      const theirs = await openAgentSession(deps, c, q.session_id, q);
      if (theirs) return c.json({ session: theirs });
    }
    const session = stored ?? (await requireSession(deps, q.session_id));
    const present = await presenter(deps.settings);
    const body = {
      ...presentSession(session, { messages: q.messages ?? true, limit: q.msg_limit, before: q.msg_before }),
      ...(await canonicalFields(deps, session)),
    };
    // As the incumbent: the todo list from the whole transcript (not the window), for the Todos panel after a reload.
    const todos = q.messages === false ? null : deriveTodoState(session.messages);
    const shared = { ...body, ...(await sessionShare(deps, session.session_id)) };
    return c.json({ session: present(todos ? { ...shared, todo_state: todos } : shared) });
  });

  app.get('/api/sessions/search', async (c) => {
    const q = queryParams(c, SearchQuery);
    const query = (q.q ?? '').trim();
    const present = await presenter(deps.settings);
    // The active profile's sessions, or every profile's with all_profiles=1 (as the incumbent).
    const scope = <T extends { profile?: string | null }>(rows: readonly T[], active: string) => {
      const { items, all_profiles, active_profile } = scopeByProfile([...rows], active, q.all_profiles ?? false);
      return { items, all_profiles, active_profile };
    };
    const active = (await requestHome(c, deps)).profile;
    if (!query) {
      const page = await deps.sessions.list({});
      const { items, ...profiles } = scope(page.rows, active);
      const rows = present.redacting ? redactRowTitles(items) : items;
      return c.json({ sessions: rows, query: '', count: rows.length, ...profiles });
    }
    const found = await deps.sessions.search(query, { content: q.content ?? false, limit: q.limit });
    const { items, ...profiles } = scope(found, active);
    const ours = present.redacting ? await redactHits(deps, items, query.toLowerCase()) : items;
    // Hermes' own conversations (show_cli_sessions), after ours, within the same limit.
    const room = (q.limit ?? 1000) - ours.length;
    const options = { content: q.content ?? false, depth: q.depth, limit: room, allProfiles: q.all_profiles ?? false, redacting: present.redacting };
    const theirs = room > 0 ? await agentSearchHits(deps, c, query.toLowerCase(), options) : [];
    const hits = theirs.length ? [...ours, ...theirs] : ours;
    return c.json({ sessions: hits, query: query.toLowerCase(), count: hits.length, ...profiles });
  });

  app.post('/api/session/new', async (c) => {
    const body = await jsonBody(c, NewBody);
    // The session belongs to the browser's profile (its turns run in that profile's home).
    const profile = (await requestHome(c, deps)).profile;
    const workspace = body.workspace ? await deps.files.checkWorkspace(body.workspace) : await defaultWorkspaceFor(deps, await requestWorkspaces(c, deps));
    if (body.project_id && !(await deps.projects.get(body.project_id))) throw new NotFound('Project not found');
    // No project named: an auto-assign project bound to this workspace files the session.
    const projectId = body.project_id || autoAssignProject(await deps.projects.list(), workspace, profile);
    const session = await deps.sessions.create(
      blankSession(deps, {
        workspace,
        model: body.model ?? null,
        model_provider: body.model_provider?.trim().toLowerCase() || null,
        project_id: projectId,
        profile,
      }),
    );
    return c.json({ session: (await presenter(deps.settings))(presentSession(session)) });
  });

  app.get('/api/session/export', async (c) => {
    const q = queryParams(c, ExportQuery);
    // An export leaves the server for good: it gets the same redaction as the API.
    const session = (await presenter(deps.settings))(await requireSession(deps, q.session_id));
    const format = q.format ?? 'json';
    // The HTML file speaks the user's language: the `language` setting, or the browser's when "auto".
    const locale = format === 'html' ? await exportLocale(deps, c) : null;
    const body = format === 'md' ? toMarkdown(session) : locale ? toHtml(session, { theme: q.theme ?? 'system', locale }) : JSON.stringify(session, null, 2);
    return c.body(body, 200, {
      'Content-Type': `${EXPORT_TYPES[format]}; charset=utf-8`,
      // The HTML file may be opened from this origin too: it runs nothing either way.
      ...(locale
        ? { 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox", 'Content-Language': locale, Vary: 'Accept-Language' }
        : {}),
      'Content-Disposition': `attachment; filename="hermes-${session.session_id}.${format}"`,
      'Cache-Control': 'no-store',
    });
  });

  app.post('/api/session/import', async (c) => {
    const body = await jsonBody(c, ImportBody);
    const workspace = body.workspace ? await deps.files.checkWorkspace(body.workspace) : await defaultWorkspaceFor(deps, await requestWorkspaces(c, deps));
    const session = await deps.sessions.create(
      blankSession(deps, {
        title: body.title?.trim() || 'Imported session',
        workspace,
        model: body.model ?? null,
        model_provider: body.model_provider?.trim().toLowerCase() || null,
        pinned: body.pinned ?? false,
        profile: (await requestHome(c, deps)).profile,
        messages: body.messages,
        tool_calls: body.tool_calls ?? [],
      }),
    );
    return c.json({ ok: true, session: (await presenter(deps.settings))(presentSession(session)) });
  });

  return app;
}

/**
 * Search hits with titles and previews redacted. A content preview cut out of a longer message
 * may hold only part of a secret — too little for a rule to recognise — so a cut preview is
 * made again from the message's redacted text instead.
 */
async function redactHits(deps: AppDeps, hits: SearchHit[], needle: string): Promise<SearchHit[]> {
  const out: SearchHit[] = [];
  for (const hit of hits) {
    const title = redactSecrets(hit.title);
    let preview = hit.match_type === 'title' ? title : redactSecrets(hit.match_preview);
    if (hit.match_type === 'content' && (hit.match_preview.startsWith('…') || hit.match_preview.endsWith('…'))) {
      const session = await deps.sessions.get(hit.session_id).catch(() => null);
      const text = session?.messages.map(messageText).find((t) => t.toLowerCase().includes(needle));
      preview = text === undefined ? '' : matchPreview(redactSecrets(text), needle);
    }
    out.push(title === hit.title && preview === hit.match_preview ? hit : { ...hit, title, match_preview: preview });
  }
  return out;
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
