/**
 * How Hermes' `state.db` sessions become sidebar conversations, as the incumbent projects them
 * (api/agent_sessions.py): each source named once for people, compression chains collapsed to
 * one row that opens their tip, and empty or throwaway CLI rows left out. Pure: the adapter
 * reads the rows, this decides.
 */
import type { AgentSidebarRow } from '../ports/agent-sessions.js';

export type { AgentSidebarRow };

/** A `sessions` row with its message counts, as the adapter reads it (absent columns are null). */
export interface StateSessionRaw {
  id: string;
  source: string | null;
  title: string | null;
  model: string | null;
  started_at: number | null;
  ended_at: number | null;
  end_reason: string | null;
  parent_session_id: string | null;
  user_id: string | null;
  chat_id: string | null;
  chat_type: string | null;
  thread_id: string | null;
  session_key: string | null;
  platform: string | null;
  message_count: number | null;
  actual_message_count: number;
  actual_user_message_count: number;
  last_activity: number | null;
  first_user: string | null;
}

export const MESSAGING_SOURCES = new Set(['discord', 'email', 'wecom', 'wecom_callback', 'slack', 'telegram', 'weixin', 'matrix', 'whatsapp', 'signal']);

const LABELS: Record<string, string> = {
  acp: 'ACP',
  api_server: 'API',
  cli: 'CLI',
  cron: 'Cron',
  discord: 'Discord',
  email: 'Email',
  kanban: 'Kanban',
  wecom: 'WeCom',
  wecom_callback: 'WeCom Callback',
  slack: 'Slack',
  telegram: 'Telegram',
  tool: 'Tool',
  tui: 'TUI',
  webhook: 'Webhook',
  webui: 'WebUI',
  weixin: 'Weixin',
  matrix: 'Matrix',
  whatsapp: 'WhatsApp',
  signal: 'Signal',
};

const titleCase = (s: string) => s.replace(/_/g, ' ').replace(/\b\w/g, (ch) => ch.toUpperCase());

/** The incumbent's `normalize_agent_session_source`. */
export function normalizeSource(raw: string | null | undefined): { raw_source: string | null; session_source: string; source_label: string } {
  const r = String(raw ?? '')
    .trim()
    .toLowerCase();
  const family =
    r === 'webui'
      ? 'webui'
      : ['acp', 'cli', 'tui'].includes(r)
        ? 'cli'
        : MESSAGING_SOURCES.has(r)
          ? 'messaging'
          : ['cron', 'webhook', 'kanban', 'tool'].includes(r)
            ? r
            : r === 'api_server'
              ? 'api'
              : 'other';
  return { raw_source: r || null, session_source: family, source_label: LABELS[r] ?? (r ? titleCase(r) : 'Agent') };
}

/** A compression (or `hermes -c` after a close) continues the same conversation; a fork or another source does not. */
function continues(parent: StateSessionRaw | undefined, child: StateSessionRaw): boolean {
  if (!parent) return false;
  if (parent.source && child.source && parent.source !== child.source) return false;
  if (parent.end_reason !== 'compression' && parent.end_reason !== 'cli_close') return false;
  if (parent.ended_at == null) return true;
  return (child.started_at ?? 0) >= parent.ended_at;
}

const activity = (r: StateSessionRaw) => r.last_activity ?? r.started_at ?? 0;

/** The collapsed conversations, and which raw id belongs to which (every segment names its row). */
export interface Projection {
  rows: ProjectedRow[];
  /** Segment id → its conversation. */
  byId: Map<string, ProjectedRow>;
}

export interface ProjectedRow {
  /** The row as a chain head looks (its title, start), with the tip's id, counts and activity. */
  raw: StateSessionRaw;
  /** Oldest first: every segment whose messages make up the transcript. */
  segments: string[];
  root: string;
}

/** Collapses compression chains to one row per conversation (the incumbent's `_project_agent_session_rows`). */
export function projectLineages(rows: readonly StateSessionRaw[]): Projection {
  const byRawId = new Map(rows.map((r) => [r.id, r]));
  const children = new Map<string, StateSessionRaw[]>();
  const continuation = new Set<string>();
  for (const r of rows) {
    if (!r.parent_session_id) continue;
    const list = children.get(r.parent_session_id) ?? [];
    list.push(r);
    children.set(r.parent_session_id, list);
    if (continues(byRawId.get(r.parent_session_id), r)) continuation.add(r.id);
  }
  const out: ProjectedRow[] = [];
  const byId = new Map<string, ProjectedRow>();
  for (const head of rows) {
    if (continuation.has(head.id)) continue;
    // Walk every continuation below the head; the tip is the freshest segment with messages.
    let tip: StateSessionRaw | null = head.actual_message_count > 0 ? head : null;
    const path = new Map<string, string[]>([[head.id, [head.id]]]);
    const stack = [head];
    const seen = new Set<string>();
    while (stack.length) {
      const cur = stack.pop()!;
      if (seen.has(cur.id)) continue;
      seen.add(cur.id);
      if (cur.actual_message_count > 0 && (!tip || activity(cur) >= activity(tip))) tip = cur;
      for (const child of children.get(cur.id) ?? []) {
        if (seen.has(child.id) || !continues(cur, child)) continue;
        path.set(child.id, [...path.get(cur.id)!, child.id]);
        stack.push(child);
      }
    }
    if (!tip) continue;
    const merged: StateSessionRaw =
      tip === head
        ? head
        : {
            ...head,
            id: tip.id,
            model: tip.model,
            message_count: tip.message_count,
            actual_message_count: tip.actual_message_count,
            actual_user_message_count: tip.actual_user_message_count,
            ended_at: tip.ended_at,
            end_reason: tip.end_reason,
            last_activity: tip.last_activity,
            title: head.title || tip.title,
          };
    const row: ProjectedRow = { raw: merged, segments: path.get(tip.id)!, root: head.id };
    out.push(row);
    for (const id of seen) byId.set(id, row);
  }
  return { rows: out, byId };
}

const DEFAULT_TITLES = new Set(['', 'untitled', 'cli', 'cli session']);

function looksDefaultTitle(raw: StateSessionRaw): boolean {
  const t = (raw.title ?? '').trim().toLowerCase();
  return DEFAULT_TITLES.has(t) || t === `${(raw.source ?? '').toLowerCase()} session`;
}

/** The incumbent's `is_cli_session_row_visible`: throwaway CLI rows (no title, one question) stay out. */
export function visible(p: ProjectedRow): boolean {
  const r = p.raw;
  const family = normalizeSource(r.source).session_source;
  if (family !== 'cli') return true;
  if (r.actual_message_count <= 0) return false;
  if (r.actual_user_message_count > 0 && r.ended_at == null && !r.end_reason) return true;
  if (r.source === 'tui') return true;
  if (r.source === 'acp') return r.actual_user_message_count > 0;
  if (p.segments.length > 1) return true;
  if (!looksDefaultTitle(r)) return true;
  return r.actual_user_message_count >= 2;
}

/** The row `/api/sessions` lists for a conversation of `profile`. */
export function sidebarRow(p: ProjectedRow, profile: string): AgentSidebarRow {
  const r = p.raw;
  const source = r.source || 'cli';
  const meta = normalizeSource(source);
  const firstLine = (r.first_user ?? '').replace(/\s+/g, ' ').trim();
  const title = r.title?.trim() || (firstLine ? (firstLine.length > 60 ? `${firstLine.slice(0, 60)}…` : firstLine) : `${titleCase(source)} Session`);
  const created = r.started_at ?? 0;
  const updated = Math.max(created, r.last_activity ?? 0);
  const row: AgentSidebarRow = {
    session_id: r.id,
    title,
    workspace: null,
    model: r.model || null,
    message_count: r.message_count || r.actual_message_count || 0,
    created_at: created,
    updated_at: updated,
    last_message_at: updated,
    pinned: false,
    archived: false,
    project_id: null,
    profile,
    source_tag: source,
    ...meta,
    user_id: r.user_id,
    chat_id: r.chat_id,
    chat_type: r.chat_type,
    thread_id: r.thread_id,
    session_key: r.session_key,
    platform: r.platform,
    parent_session_id: r.parent_session_id,
    end_reason: r.end_reason,
    actual_message_count: r.actual_message_count,
    user_message_count: r.actual_user_message_count,
    is_cli_session: meta.session_source === 'cli',
    read_only: true,
  };
  if (p.segments.length > 1) {
    row._lineage_root_id = p.root;
    row._lineage_tip_id = r.id;
    row._compression_segment_count = p.segments.length;
  }
  return row;
}
