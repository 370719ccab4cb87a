import type { Session } from '../shared/session.js';
import { toRow } from './session-rows.js';

export const MSG_LIMIT_MAX = 500;

/**
 * The session as the API returns it: metadata, counts, and the transcript (or a tail window of
 * it: `msg_limit` messages ending before index `msg_before`).
 */
export function presentSession(session: Session, window: { messages?: boolean; limit?: number; before?: number } = {}) {
  // The builtin agent's stored system prompt is the model's business, not the page's.
  const { messages, tool_calls, builtin_system_prompt: _prompt, ...meta } = session;
  const row = toRow(session);
  const total = messages.length;
  let start = 0;
  let end = total;
  if (window.messages === false) {
    start = end = total;
  } else {
    if (window.before !== undefined) end = Math.min(window.before, total);
    if (window.limit !== undefined) start = Math.max(0, end - window.limit);
  }
  return {
    ...meta,
    ...row,
    message_count: total,
    messages: messages.slice(start, end),
    tool_calls: tool_calls ?? [],
    _messages_truncated: start > 0 || end < total,
    _messages_offset: start,
    _msg_limit_max: MSG_LIMIT_MAX,
  };
}
