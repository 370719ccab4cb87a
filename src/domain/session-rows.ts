import type { Message, Session, SessionRow } from '../shared/session.js';
import { cutBeforeToken } from '../shared/redact.js';

/** 12 lowercase hex characters, like the incumbent's `uuid4().hex[:12]`. */
export function newSessionId(): string {
  return crypto.randomUUID().replace(/-/g, '').slice(0, 12);
}

export const DEFAULT_TITLE = 'Untitled';
const PROVISIONAL_TITLE_CHARS = 64;

/** Text of a message whose content is a string or a list of `{type:'text', text}` parts. */
export function messageText(message: Message): string {
  const content = message.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (part && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : ''))
      .filter(Boolean)
      .join('\n');
  }
  return '';
}

/**
 * The first user message, trimmed to 64 characters (before a word the cut would split, so a
 * pasted key is never kept in half, too short to redact): the title until a better one exists.
 */
export function provisionalTitle(messages: readonly Message[]): string | null {
  const first = messages.find((m) => m.role === 'user' && messageText(m).trim());
  if (!first) return null;
  return cutBeforeToken(messageText(first).trim().replace(/\s+/g, ' '), PROVISIONAL_TITLE_CHARS);
}

/** When the conversation last moved: the newest non-tool message's `_ts` or `timestamp`. */
function lastMessageAt(messages: readonly Message[]): number | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (!m || m.role === 'tool') continue;
    const ts = typeof m._ts === 'number' ? m._ts : m.timestamp;
    if (typeof ts === 'number') return ts;
  }
  return null;
}

/** The list row for a session: bounded metadata and counts (the incumbent's `compact()` order). */
export function toRow(session: Session): SessionRow {
  const messages = session.messages ?? [];
  const row: SessionRow = {
    session_id: session.session_id,
    title: session.title || DEFAULT_TITLE,
    workspace: session.workspace ?? null,
    model: session.model ?? null,
    model_provider: session.model_provider ?? null,
    message_count: messages.length,
    created_at: session.created_at,
    updated_at: session.updated_at,
    last_message_at: lastMessageAt(messages) ?? session.updated_at,
    pinned: session.pinned === true,
    archived: session.archived === true,
    project_id: session.project_id ?? null,
    profile: session.profile ?? null,
    input_tokens: typeof session.input_tokens === 'number' ? session.input_tokens : 0,
    output_tokens: typeof session.output_tokens === 'number' ? session.output_tokens : 0,
    estimated_cost: session.estimated_cost ?? null,
  };
  if (typeof session.cache_read_tokens === 'number' && session.cache_read_tokens > 0) row.cache_read_tokens = session.cache_read_tokens;
  if (session.parent_session_id) row.parent_session_id = session.parent_session_id;
  if (session.pre_compression_snapshot === true) row.pre_compression_snapshot = true;
  if (typeof session.session_source === 'string' && session.session_source) row.session_source = session.session_source;
  // An imported Hermes conversation keeps its source badge and lineage (the list never shows it twice).
  if (typeof session.source_tag === 'string' && session.source_tag) row.source_tag = session.source_tag;
  if (typeof session.source_label === 'string' && session.source_label) row.source_label = session.source_label;
  if (session.is_cli_session === true) row.is_cli_session = true;
  if (typeof session._lineage_root_id === 'string' && session._lineage_root_id) row._lineage_root_id = session._lineage_root_id;
  row.user_message_count = messages.filter((m) => m.role === 'user').length;
  row.active_stream_id = session.active_stream_id ?? null;
  return row;
}

/** List order: newest `updated_at` first, then `session_id` so the order is total and stable. */
export function compareRows(a: SessionRow, b: SessionRow): number {
  return b.updated_at - a.updated_at || (a.session_id < b.session_id ? -1 : a.session_id > b.session_id ? 1 : 0);
}

/** A timestamp strictly after `previous`, so `updated_at` works as a version. */
export function nextUpdatedAt(now: number, previous: number): number {
  return now > previous ? now : Math.round((previous + 0.001) * 1e6) / 1e6;
}

/** A short excerpt of `text` around the first match of `needle` (already lower-cased). */
export function matchPreview(text: string, needle: string, radius = 60): string {
  const at = text.toLowerCase().indexOf(needle);
  if (at < 0) return text.slice(0, radius * 2);
  const start = Math.max(0, at - radius);
  const end = Math.min(text.length, at + needle.length + radius);
  return (start > 0 ? '…' : '') + text.slice(start, end).replace(/\s+/g, ' ') + (end < text.length ? '…' : '');
}
