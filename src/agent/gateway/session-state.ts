import type { Message, Session } from '../../shared/session.js';
import { modelHistory } from '../builtin/history.js';
import { withAttachmentNote } from './attachment-note.js';

/** What this project keeps about the gateway in a session (`hermes_gateway`), to continue it next turn. */
export interface GatewaySessionState {
  path: string;
  /** The WebUI session this was written for: a branch or copy carries the key along, but must start its own Hermes conversation. */
  for: string;
  /** Hermes' id for the conversation: ours on the runs path, the echoed X-Hermes-Session-Id on chat completions. */
  session_id: string | null;
  /** How many messages the transcript had when Hermes last saw all of it; any other count means it changed here. */
  synced_messages: number;
  /** Chat completions report the Hermes session's running totals; the last ones, to add only the difference. */
  usage_totals?: { input: number; output: number };
}

const HISTORY_LIMIT = 200;

/** The gateway state stored for this very session (null when absent, malformed, or carried over from another one). */
export function sessionState(session: Session): GatewaySessionState | null {
  const s = session.hermes_gateway as GatewaySessionState | undefined;
  return s && typeof s === 'object' && typeof s.path === 'string' && s.for === session.session_id ? s : null;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((p) => (p && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : '')).join('\n');
  return '';
}

/** The message this turn answers (the transcript ends with it). */
export function lastUserText(session: Session): string {
  const last = [...session.messages].reverse().find((m) => m.role === 'user');
  return last ? textOf(withAttachmentNote(last).content) : '';
}

/**
 * The conversation before this turn's message as Hermes' `conversation_history` takes it:
 * user and assistant text only (tool calls stay with whoever ran them), notices dropped, an
 * earlier compression's summary in place of what it summarised, one assistant entry per reply.
 */
export function conversationHistory(session: Session): Array<{ role: 'user' | 'assistant'; content: string }> {
  const messages: Message[] = session.messages.slice(0, Math.max(0, session.messages.length - 1)).map(withAttachmentNote);
  const anchor = session.compression_anchor_visible_idx;
  const summary = session.compression_anchor_summary;
  const compression = typeof anchor === 'number' && typeof summary === 'string' && summary ? { anchor, summary } : null;
  const out: Array<{ role: 'user' | 'assistant'; content: string }> = [];
  for (const m of modelHistory(messages, compression)) {
    if (m.role !== 'user' && m.role !== 'assistant') continue;
    const text = textOf(m.content);
    if (!text.trim()) continue;
    const prev = out.at(-1);
    if (prev && prev.role === m.role && m.role === 'assistant') prev.content = `${prev.content}\n\n${text}`;
    else out.push({ role: m.role, content: text });
  }
  return out.slice(-HISTORY_LIMIT);
}
