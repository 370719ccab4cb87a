import type { SessionRow } from '../shared/session.js';
import { compareRows } from './session-rows.js';
import type { AgentSidebarRow } from './agent-lineage.js';

/**
 * Hermes' own conversations merged into the WebUI's session list, as the incumbent merges them
 * (routes.py `_build_session_list_cache_payload`): a conversation this WebUI already holds (an
 * import, or its own turns Hermes recorded) is listed once, as ours; one row per messaging
 * conversation; webhook and kanban runs stay out. Cron runs are left to `cronView`.
 */

/** Background sources the sidebar leaves out unless their setting is on. */
export interface AgentListOptions {
  showWebhook: boolean;
  showKanban: boolean;
  /** `show_previous_messaging_sessions`: every session of a chat, not only its newest. */
  showPreviousMessaging: boolean;
}

/** The incumbent's `_messaging_session_identity`: one chat (user, chat, thread) is one conversation. */
export function messagingKey(row: AgentSidebarRow): string | null {
  if (row.session_source !== 'messaging') return null;
  const raw = row.raw_source ?? row.source_tag;
  if (row.session_key) return `${raw}|session_key:${row.session_key}`;
  const parts: string[] = [];
  if (row.chat_type) parts.push(`chat_type:${row.chat_type}`);
  if (row.chat_id) parts.push(`chat_id:${row.chat_id}`);
  if (row.thread_id) parts.push(`thread_id:${row.thread_id}`);
  if (row.user_id) parts.push(`user_id:${row.user_id}`);
  return parts.length ? `${raw}|${parts.join('|')}` : raw;
}

/** The rows to add to the WebUI list: not ours already, not hidden, newest per messaging chat. */
export function agentRowsToList(rows: readonly AgentSidebarRow[], ours: ReadonlySet<string>, options: AgentListOptions): AgentSidebarRow[] {
  const out: AgentSidebarRow[] = [];
  const newest = new Map<string, AgentSidebarRow>();
  for (const r of rows) {
    if (ours.has(r.session_id) || (r._lineage_root_id && ours.has(r._lineage_root_id))) continue;
    if (r.source_tag === 'webhook' && !options.showWebhook) continue;
    if (r.source_tag === 'kanban' && !options.showKanban) continue;
    const key = options.showPreviousMessaging ? null : messagingKey(r);
    if (key === null) {
      out.push(r);
      continue;
    }
    const kept = newest.get(key);
    if (!kept || compareRows(r as unknown as SessionRow, kept as unknown as SessionRow) < 0) newest.set(key, r);
  }
  out.push(...newest.values());
  return out;
}

/** Both lists in list order (`compareRows`); `web` is already in that order. */
export function mergeRows(web: readonly Readonly<SessionRow>[], agent: readonly AgentSidebarRow[]): Readonly<SessionRow>[] {
  const theirs = (agent as unknown as SessionRow[]).slice().sort(compareRows);
  const out: Readonly<SessionRow>[] = new Array(web.length + theirs.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < web.length && j < theirs.length) out[k++] = compareRows(web[i]!, theirs[j]!) <= 0 ? web[i++]! : theirs[j++]!;
  while (i < web.length) out[k++] = web[i++]!;
  while (j < theirs.length) out[k++] = theirs[j++]!;
  return Object.freeze(out) as Readonly<SessionRow>[];
}
