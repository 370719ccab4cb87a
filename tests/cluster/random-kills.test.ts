import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCluster, type ClusterHarness, type ClusterInstance } from '../helpers/cluster.js';
import { CLOSING_EVENTS } from '../../src/runs/events.js';

const KILLS = 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * 100 "kills" across a run of turns on three instances: an owner's lease renewals fail at a
 * random moment (its run is fenced and stopped, as a dead or cut-off owner's), another instance
 * takes the turn over and resumes it, and the owner comes back a little later. Whatever the
 * order, no user message and no event is lost, and every journal is numbered 1..n once.
 */
describe('random kills across a run of turns', () => {
  let c: ClusterHarness;
  beforeAll(async () => {
    c = await makeCluster(3, { runLease: { ttlMs: 400, renewMs: 80, takeoverMs: 80 } });
    // Every model call streams a short answer slowly, whichever instance (and attempt) asks.
    c.model.setFallback(() => [{ text: 'one ' }, { delayMs: 60 }, { text: 'two ' }, { delayMs: 60 }, { text: 'three' }]);
  });
  afterAll(async () => c.close());

  it(`${KILLS} kills lose no user message and no event`, { timeout: 90_000 }, async () => {
    const turns: Array<{ sid: string; streamId: string; message: string }> = [];
    let kills = 0;
    let n = 0;
    const pick = () => c.instances[Math.floor(Math.random() * c.instances.length)]!;
    const startTurn = async () => {
      const on = pick();
      if (on.leases.cutOff) return;
      const sid = await on.newSession();
      const message = `message ${n++}`;
      const r = await on.call('POST', '/api/chat/start', { session_id: sid, message });
      if (r.status === 200) turns.push({ sid, streamId: r.body.stream_id, message });
    };
    const killer = (async () => {
      while (kills < KILLS) {
        await sleep(40 + Math.random() * 80);
        const owners = c.instances.filter((t) => !t.leases.cutOff && t.deps.agent.registry.active.length);
        const victim = owners[Math.floor(Math.random() * owners.length)];
        if (!victim) continue;
        victim.leases.cutOff = true;
        kills++;
        // Back a little later, as a restarted instance is.
        setTimeout(() => (victim.leases.cutOff = false), 500 + Math.random() * 300).unref();
      }
    })();
    while (kills < KILLS) {
      if (turns.length - settledCount(c, turns) < 6) await startTurn();
      await sleep(30);
    }
    await killer;
    for (const t of c.instances) t.leases.cutOff = false;
    // Every turn ends (resumed to the end, or closed after its attempts).
    await until(async () => (await Promise.all(turns.map((t) => closed(c, t.streamId)))).every(Boolean), 30_000);
    for (const turn of turns) {
      const events = (await c.storage.journal.read(turn.streamId))!.events;
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
      expect(events.filter((e) => CLOSING_EVENTS.has(e.event))).toHaveLength(1);
      const session = await until(async () => {
        const s = await c.storage.sessions.get(turn.sid);
        return s && s.active_stream_id === null ? s : null;
      }, 10_000);
      expect(session.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([turn.message]);
    }
    expect(kills).toBe(KILLS);
    expect(turns.length).toBeGreaterThan(10);
  });
});

function settledCount(c: ClusterHarness, turns: Array<{ sid: string }>): number {
  return turns.filter((t) => !c.instances.some((i: ClusterInstance) => i.deps.agent.registry.activeFor(t.sid))).length;
}

async function closed(c: ClusterHarness, streamId: string): Promise<boolean> {
  const last = (await c.storage.journal.read(streamId))?.events.at(-1);
  return !!last && CLOSING_EVENTS.has(last.event);
}

async function until<T>(check: () => Promise<T>, timeoutMs: number): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(50);
  }
}
