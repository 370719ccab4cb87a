import type { RunEvent } from '../../src/runs/events.js';
import type { TurnCheckpoint } from '../../src/runs/journal.js';
import type { Message } from '../../src/shared/session.js';
import type { TestApp } from './app.js';

/** A journal event as the run would have written it (numbered by the caller). */
export const journalEvent = (seq: number, event: string, data: Record<string, unknown>): RunEvent => ({ seq, event, data, at: seq }) as RunEvent;

/**
 * Leaves a turn as a process that died mid-turn leaves it: the session claims the stream, its
 * transcript ends with the user message (and what `stored` adds), its journal has `events` and
 * `checkpoint` and no closing event, and no run is registered for it.
 */
export async function plantInterruptedTurn(
  t: TestApp,
  o: { message?: string; stored?: Message[]; events: RunEvent[]; checkpoint?: TurnCheckpoint },
): Promise<{ sid: string; streamId: string }> {
  const sid = await t.newSession();
  const streamId = `cut${crypto.randomUUID().replace(/-/g, '').slice(0, 16)}`;
  await t.deps.sessions.appendMessages(sid, [{ role: 'user', content: o.message ?? 'carry on', timestamp: 1 }, ...(o.stored ?? [])], {
    active_stream_id: streamId,
    pending_started_at: 1,
  });
  const writer = t.deps.agent.registry.journal.open(sid, streamId);
  for (const e of o.events) writer.append(e);
  await writer.commit();
  if (o.checkpoint) await writer.checkpoint(o.checkpoint);
  await writer.close();
  return { sid, streamId };
}
