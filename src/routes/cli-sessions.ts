import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import type { AgentSessionSource, AgentSidebarRow, AgentTranscript } from '../ports/agent-sessions.js';
import type { HermesHome } from '../ports/hermes-home.js';
import { NotFound, VersionConflict } from '../ports/errors.js';
import type { SearchHit, SessionPage } from '../ports/session-store.js';
import type { Message, Session, SessionRow } from '../shared/session.js';
import { matchPreview, messageText } from '../domain/session-rows.js';
import { type AgentListOptions, agentRowsToList, mergeRows } from '../domain/agent-sidebar.js';
import { MSG_LIMIT_MAX, presentSession } from '../domain/present-session.js';
import { requestHome, requestWorkspaces } from '../http/request-home.js';
import { jsonBody } from '../http/validate.js';
import { presenter } from '../http/redaction.js';
import { redactSecrets } from '../shared/redact.js';
import { SessionId } from './session-common.js';
import { blankSession } from './sessions.js';
import { defaultWorkspaceFor } from './workspaces.js';
import { sessionShare } from './shares.js';

/**
 * Hermes' own sessions (CLI, Telegram, Discord, cron … in `$HERMES_HOME/state.db`) in the one
 * session list when `show_cli_sessions` is on, opened like any session (read from state.db,
 * paged), and made a normal writable session here by `POST /api/session/import_cli`. Nothing
 * writes state.db: it is Hermes'.
 */

type Settings = Record<string, unknown>;

const on = (settings: Settings) => settings.show_cli_sessions === true;
const flag = (settings: Settings, key: string) => settings[key] === true;

const sourceOf = (deps: AppDeps, home: HermesHome): AgentSessionSource | undefined => deps.agentSessionsFor?.(home) ?? deps.agentSessions;

/** The homes whose state.db a request reads: its own, or every profile's with `all_profiles`. */
async function homesFor(deps: AppDeps, c: Context, allProfiles: boolean): Promise<HermesHome[]> {
  const own = await requestHome(c, deps);
  if (!allProfiles || !deps.homes.multiProfile) return [own];
  const names = await deps.homes.list();
  const homes = await Promise.all(names.map((n) => (n === own.profile ? own : deps.homes.get(n).catch(() => null))));
  return homes.filter((h): h is HermesHome => h !== null);
}

// Ids of the WebUI's own sessions per rows array (frozen per store revision), for the dedupe.
const ownIds = new WeakMap<readonly SessionRow[], Set<string>>();
function idsOf(rows: readonly SessionRow[]): Set<string> {
  let ids = ownIds.get(rows);
  if (!ids) {
    ids = new Set();
    for (const r of rows) {
      ids.add(r.session_id);
      const root = (r as { _lineage_root_id?: unknown })._lineage_root_id;
      if (typeof root === 'string') ids.add(root);
    }
    ownIds.set(rows, ids);
  }
  return ids;
}

type Merged = { key: string; revision: string; rows: SessionPage['rows'] };

/**
 * `GET /api/sessions`' rows with Hermes' conversations merged in, and a revision that moves when
 * state.db does. The merged array is kept per (store rows, state.db signatures, settings), so
 * repeated asks (and every page of one list state) share it and its per-array memos.
 */
export function agentListMerger(deps: AppDeps) {
  const memo = new Map<string, Merged>();
  return async (c: Context, page: SessionPage, allProfiles: boolean, settings: Settings): Promise<SessionPage> => {
    if (!on(settings)) return page;
    const homes = await homesFor(deps, c, allProfiles);
    const lists = await Promise.all(
      homes.map(async (h) => {
        const src = sourceOf(deps, h);
        return src?.sidebar ? await src.sidebar(h.profile) : { signature: 'none', rows: [] as readonly AgentSidebarRow[] };
      }),
    );
    const options = {
      showWebhook: flag(settings, 'show_webhook_sessions'),
      showKanban: flag(settings, 'show_kanban_sessions'),
      showPreviousMessaging: flag(settings, 'show_previous_messaging_sessions'),
    };
    const key = `${homes.map((h, i) => `${h.profile}=${lists[i]!.signature}`).join(',')}|${+options.showWebhook}${+options.showKanban}${+options.showPreviousMessaging}`;
    const slot = `${allProfiles ? '*' : homes[0]!.profile}`;
    const hit = memo.get(slot);
    // The store's revision names its rows (a list may hand out a fresh array of the same rows).
    if (hit && hit.key === key && hit.revision === page.revision) return { ...page, rows: hit.rows, revision: `${page.revision}~${hashKey(key)}` };
    // The store's full list (archived too): an archived import still stands for its conversation.
    const own = idsOf((await deps.sessions.list({ includeArchived: true })).rows as SessionRow[]);
    const theirs = lists.flatMap((l) => agentRowsToList(l.rows, own, options));
    const rows = theirs.length ? mergeRows(page.rows, theirs) : page.rows;
    memo.set(slot, { key, revision: page.revision, rows });
    return { ...page, rows, revision: `${page.revision}~${hashKey(key)}` };
  };
}

/**
 * `GET /api/sessions/search`'s rows from Hermes' state.db (show_cli_sessions on): the
 * conversations the merged list would show (not imported ones, hidden sources as the list hides
 * them), in the search's row shape. [] with the setting off.
 */
export async function agentSearchHits(
  deps: AppDeps,
  c: Context,
  needle: string,
  options: { content: boolean; depth: number; limit: number; allProfiles: boolean; redacting: boolean },
): Promise<SearchHit[]> {
  const settings = await deps.settings.read();
  if (!on(settings)) return [];
  const list = {
    showWebhook: flag(settings, 'show_webhook_sessions'),
    showKanban: flag(settings, 'show_kanban_sessions'),
    showPreviousMessaging: flag(settings, 'show_previous_messaging_sessions'),
  };
  const own = idsOf((await deps.sessions.list({ includeArchived: true })).rows as SessionRow[]);
  const cron = flag(settings, 'show_cron_sessions');
  const found = await Promise.all(
    (await homesFor(deps, c, options.allProfiles)).map(async (home) => {
      const src = sourceOf(deps, home);
      if (!src?.find || !src.sidebar) return [];
      // The rows the list shows for this home: a hit elsewhere (an older chat session, an import) is not one.
      const listed = listedIds((await src.sidebar(home.profile)).rows, own, list);
      const hits = await src.find(needle, { content: options.content, depth: options.depth, limit: options.limit }, home.profile);
      return hits.filter((h) => listed.has(h.row.session_id) && (cron || h.row.session_source !== 'cron'));
    }),
  );
  // With redaction on, the whole message is masked before the preview is cut from it (a cut may hold too little of a secret to be recognised).
  const clean = (text: string) => (options.redacting ? redactSecrets(text) : text);
  return found.flat().map((h) => {
    const title = clean(h.row.title);
    return {
      ...h.row,
      title,
      match_type: h.match_type,
      match_preview: h.match_type === 'title' ? title : matchPreview(clean(h.text), needle),
    } as unknown as SearchHit;
  });
}

// The ids the merged list shows of a state.db's rows, kept per (rows, our ids, list options): a keystroke's search reuses them.
const listedMemo = new WeakMap<readonly AgentSidebarRow[], { own: Set<string>; key: string; ids: Set<string> }>();
function listedIds(rows: readonly AgentSidebarRow[], own: Set<string>, options: AgentListOptions): Set<string> {
  const key = `${+options.showWebhook}${+options.showKanban}${+options.showPreviousMessaging}`;
  const hit = listedMemo.get(rows);
  if (hit && hit.own === own && hit.key === key) return hit.ids;
  const ids = new Set(agentRowsToList(rows, own, options).map((r) => r.session_id));
  listedMemo.set(rows, { own, key, ids });
  return ids;
}

/** A short, ETag-safe name for the state.db signatures. */
function hashKey(text: string): string {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return (h >>> 0).toString(36);
}

/** The conversation `id` from the request's state.db (then the other profiles'), windowed; null when none has it. */
async function findTranscript(deps: AppDeps, c: Context, id: string, window: { limit?: number; before?: number }): Promise<AgentTranscript | null> {
  for (const home of await homesFor(deps, c, true)) {
    const found = await sourceOf(deps, home)?.transcript?.(id, window, home.profile);
    if (found) return found;
  }
  return null;
}

/**
 * `GET /api/session` for an id only state.db knows: the session answer's shape (a window of
 * `msg_limit` messages before `msg_before`, `_messages_offset`, `_messages_truncated`) with the
 * row's source fields and `read_only: true`. Null when the setting is off or no state.db has it.
 */
export async function openAgentSession(deps: AppDeps, c: Context, id: string, q: { messages?: boolean; msg_limit?: number; msg_before?: number }) {
  if (!on(await deps.settings.read())) return null;
  const window =
    q.messages === false
      ? { limit: 0 }
      : { ...(q.msg_limit !== undefined ? { limit: q.msg_limit } : {}), ...(q.msg_before !== undefined ? { before: q.msg_before } : {}) };
  const found = await findTranscript(deps, c, id, window);
  if (!found) return null;
  const present = await presenter(deps.settings);
  const end = found.offset + found.messages.length;
  return present({
    ...found.row,
    message_count: found.total,
    messages: found.messages,
    tool_calls: [],
    _messages_truncated: found.offset > 0 || end < found.total,
    _messages_offset: found.offset,
    _msg_limit_max: MSG_LIMIT_MAX,
    // Shareable as it stands in state.db: the page shows its live link like any session's.
    ...(await sessionShare(deps, found.row.session_id)),
  });
}

/**
 * One of Hermes' conversations (any segment's id finds it) as a session of this project's shape,
 * its whole transcript read from state.db and `read_only: true`, for what snapshots it (share
 * links). Nothing is stored. Null when no state.db has it.
 */
export async function agentSessionCopy(deps: AppDeps, c: Context, id: string): Promise<Session | null> {
  const found = await findTranscript(deps, c, id, {});
  if (!found) return null;
  const { read_only: _readOnly, ...row } = found.row;
  return { ...row, messages: found.messages, tool_calls: [], read_only: true } as Session;
}

const ImportBody = z.object({ session_id: SessionId });

/** Whether two messages are the same turn (Hermes' copy and ours may differ in fields we add, never in these). */
const sameMessage = (a: Message, b: Message) => a.role === b.role && messageText(a) === messageText(b);

/**
 * An imported conversation Hermes went on with since (more messages in state.db, ours their
 * prefix): the new ones appended, as the incumbent's import refresh does. When ours diverged
 * (turns taken here) or a turn is running, nothing is changed: nothing of ours is lost.
 */
async function catchUp(deps: AppDeps, session: Session, found: AgentTranscript | null): Promise<Session> {
  if (!found || session.is_cli_session !== true || session.active_stream_id) return session;
  const ours = session.messages;
  const theirs = found.messages;
  if (theirs.length <= ours.length || !ours.every((m, i) => sameMessage(m, theirs[i]!))) return session;
  // Guarded by the version read: a turn or edit that lands meanwhile wins, and this waits for the next import.
  try {
    return await deps.sessions.appendMessages(session.session_id, theirs.slice(ours.length), {}, { ifUpdatedAt: session.updated_at });
  } catch (err) {
    if (err instanceof VersionConflict) return session;
    throw err;
  }
}

/** `POST /api/session/import_cli {session_id}`: the conversation as a normal session here (same id, its times kept). */
export function cliSessionRoutes(deps: AppDeps) {
  const app = new Hono();
  app.post('/api/session/import_cli', async (c) => {
    const body = await jsonBody(c, ImportBody);
    const present = await presenter(deps.settings);
    const stored = (s: Session) => c.json({ session: present({ ...presentSession(s), is_cli_session: s.is_cli_session === true }), imported: false });
    const existing = await deps.sessions.get(body.session_id);
    const found = await findTranscript(deps, c, body.session_id, {});
    if (existing) return stored(await catchUp(deps, existing, found));
    if (!found?.messages.length) throw new NotFound('Session not found in CLI store');
    const r = found.row;
    // The tip's id: the sidebar's row and any later open name this session from now on.
    const already = r.session_id !== body.session_id ? await deps.sessions.get(r.session_id) : null;
    if (already) return stored(await catchUp(deps, already, found));
    const workspace = await defaultWorkspaceFor(deps, await requestWorkspaces(c, deps));
    const session = await deps.sessions.create({
      ...blankSession(deps, { workspace, title: r.title, model: r.model, profile: r.profile, messages: found.messages }),
      session_id: r.session_id,
      created_at: r.created_at,
      updated_at: r.updated_at,
      is_cli_session: true,
      source_tag: r.source_tag,
      raw_source: r.raw_source,
      session_source: r.session_source,
      source_label: r.source_label,
      user_id: r.user_id,
      chat_id: r.chat_id,
      chat_type: r.chat_type,
      thread_id: r.thread_id,
      session_key: r.session_key,
      platform: r.platform,
      _cli_origin: r.session_id,
      ...(r._lineage_root_id ? { _lineage_root_id: r._lineage_root_id } : {}),
    });
    return c.json({ session: present({ ...presentSession(session), is_cli_session: true }), imported: true });
  });
  return app;
}
