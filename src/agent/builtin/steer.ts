import type { Message } from '../../shared/session.js';

/**
 * Hermes' steer (`/steer`, `agent.steer()`): text typed while a turn runs waits here until the
 * loop reaches a tool-result boundary, then is appended to the batch's last tool result behind
 * Hermes' marker, so the next model call sees it as the user's word inside the tool output and
 * role alternation is untouched. Text that never met a boundary is handed back at the turn's end.
 */

/** What Hermes puts between a tool's output and the steer text ("\n\nUser guidance: <text>"). */
export const STEER_MARKER = '\n\nUser guidance: ';

/** The stored tool message's own record of the steer (the transcript draws it there after a reload). */
export const STEER_FIELD = '_steer';

/** The steers waiting for each running turn of one runtime, by stream id. */
export class PendingSteers {
  readonly #turns = new Map<string, string[]>();

  /** A turn starts taking steers. */
  open(streamId: string): void {
    this.#turns.set(streamId, []);
  }

  /** Queues text for a running turn; false when no turn runs as `streamId`. */
  push(streamId: string, text: string): boolean {
    const queue = this.#turns.get(streamId);
    if (!queue) return false;
    queue.push(text);
    return true;
  }

  /** Everything queued for the turn, joined as Hermes joins several steers (one per line), or null. */
  drain(streamId: string): string | null {
    const queue = this.#turns.get(streamId);
    if (!queue?.length) return null;
    return queue.splice(0).join('\n');
  }

  /** The turn stops taking steers; returns what it never took. */
  close(streamId: string): string | null {
    const left = this.drain(streamId);
    this.#turns.delete(streamId);
    return left;
  }
}

/**
 * Appends `text` to the last tool result of a finished batch (in place). Returns the call it
 * joined, or null when the batch has no tool result (the caller keeps the text for later).
 */
export function applySteer(results: Message[], text: string): { toolCallId: string } | null {
  const target = results.findLast((m) => m.role === 'tool');
  if (!target) return null;
  const content = target.content;
  target.content = Array.isArray(content)
    ? [...content, { type: 'text', text: STEER_MARKER.trimStart() + text }]
    : `${typeof content === 'string' ? content : ''}${STEER_MARKER}${text}`;
  target[STEER_FIELD] = text;
  return { toolCallId: String(target.tool_call_id ?? '') };
}

/** Where a turn's loop takes its steers from (the runtime's PendingSteers, bound to the turn's stream). */
export interface SteerSource {
  take(): string | null;
  /** Puts text back (a batch without a tool result): it waits for the next boundary or the turn's end. */
  giveBack(text: string): void;
}

export function steerSource(steers: PendingSteers, streamId: string): SteerSource {
  return { take: () => steers.drain(streamId), giveBack: (text) => void steers.push(streamId, text) };
}

/** The tool-result boundary: whatever was steered meanwhile joins the batch's last result. */
export function steerAtBoundary(source: SteerSource | undefined, results: Message[]): { text: string; toolCallId: string } | null {
  const text = source?.take() ?? null;
  if (text === null) return null;
  const joined = applySteer(results, text);
  if (!joined) {
    source!.giveBack(text);
    return null;
  }
  return { text, toolCallId: joined.toolCallId };
}
