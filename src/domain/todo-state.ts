import type { Message } from '../shared/session.js';

/** The todo list as the incumbent sends it with a session (`todo_state`, version 1). */
export interface TodoSnapshot {
  todos: unknown[];
  summary: Record<string, unknown>;
  version: 1;
  /** When it was written (the tool message's timestamp, else the latest one before it). */
  ts?: number;
}

const positive = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);

/**
 * The session's todo list as the agent would rebuild it: the last `tool` message whose content
 * is JSON with a `todos` list (Hermes hydrates its TodoStore the same way, so both agree — an
 * empty list written last means the list was cleared). Null when the todo tool never answered.
 */
export function deriveTodoState(messages: readonly Message[]): TodoSnapshot | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    // Cheap test first: most tool results are not todo writes.
    if (m.role !== 'tool' || typeof m.content !== 'string' || !m.content.includes('"todos"')) continue;
    let data: unknown;
    try {
      data = JSON.parse(m.content);
    } catch {
      continue;
    }
    if (!data || typeof data !== 'object' || !Array.isArray((data as { todos?: unknown }).todos)) continue;
    const { todos, summary } = data as { todos: unknown[]; summary?: unknown };
    const snapshot: TodoSnapshot = {
      todos,
      summary: summary && typeof summary === 'object' && !Array.isArray(summary) ? (summary as Record<string, unknown>) : {},
      version: 1,
    };
    // A message that lost its timestamp (compression) still must not look older than earlier writes.
    let ts = positive(m.timestamp);
    if (!ts) for (let j = i - 1; j >= 0; j--) ts = Math.max(ts, positive(messages[j]!.timestamp));
    if (ts) snapshot.ts = ts;
    return snapshot;
  }
  return null;
}
