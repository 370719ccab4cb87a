import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeCluster, type ClusterHarness, type ClusterInstance } from '../helpers/cluster.js';
import { readStream, seqs, type Frame } from '../helpers/sse.js';
import { runLeaseKey } from '../../src/runs/run-ownership.js';

const MANUAL = 'approvals:\n  mode: manual\n';

/** Waits until `check` answers something truthy (polling; ownership moves on timers). */
async function until<T>(check: () => Promise<T> | T, timeoutMs = 5_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function stream(t: ClusterInstance, streamId: string, onFrame?: (f: Frame) => void | Promise<void>, lastEventId?: string) {
  const res = await t.app.request(`/api/chat/stream?stream_id=${streamId}`, { headers: lastEventId ? { 'Last-Event-ID': lastEventId } : {} });
  expect(res.status).toBe(200);
  return readStream(res, { ...(onFrame ? { onFrame } : {}) });
}

describe('run ownership across three instances on one database', () => {
  let c: ClusterHarness;
  let a: ClusterInstance;
  let b: ClusterInstance;
  let cc: ClusterInstance;
  beforeEach(async () => {
    c = await makeCluster(3, { extraYaml: MANUAL });
    [a, b, cc] = c.instances as [ClusterInstance, ClusterInstance, ClusterInstance];
  });
  afterEach(async () => c.close());

  /** A turn on `on` that waits for approval of a dangerous command, then answers "finished". */
  async function waitingTurn(on: ClusterInstance) {
    const sid = await on.newSession();
    c.model.enqueue([{ toolCall: { id: 'run1', name: 'terminal', args: { command: 'rm -rf build' } } }], [{ text: 'finished' }]);
    const started = await on.call('POST', '/api/chat/start', { session_id: sid, message: 'please clean up' });
    expect(started.status).toBe(200);
    const streamId = started.body.stream_id as string;
    await until(async () => (await on.call('GET', `/api/approval/pending?session_id=${sid}`)).body.pending_count === 1);
    return { sid, streamId };
  }

  it('a turn started on A is the only one: B and C get 409 with its stream id, and the lease names A', async () => {
    const { sid, streamId } = await waitingTurn(a);
    for (const other of [b, cc]) {
      const r = await other.call('POST', '/api/chat/start', { session_id: sid, message: 'me too' });
      expect(r.status).toBe(409);
      expect(r.body.active_stream_id).toBe(streamId);
    }
    expect((await c.storage.leases.holder(runLeaseKey(sid)))?.owner).toBe(a.id);
    await a.call('POST', '/api/chat/cancel', { stream_id: streamId });
  });

  it('pending lists on B, approval on C reach A; the turn finishes there and B replays identical frames', async () => {
    const { sid, streamId } = await waitingTurn(a);
    const pending = await b.call('GET', `/api/approval/pending?session_id=${sid}`);
    expect(pending.status).toBe(200);
    expect(pending.body).toMatchObject({ pending_count: 1, pending: { command: 'rm -rf build' } });
    const approved = await cc.call('POST', '/api/approval/respond', { session_id: sid, choice: 'once', approval_id: pending.body.pending.approval_id });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ ok: true, choice: 'once', pending_count: 0 });
    const onA = await stream(a, streamId);
    expect(onA.at(-1)!.event).toBe('stream_end');
    expect(onA.some((f) => f.event === 'token' && f.data.text.includes('finished'))).toBe(true);
    // The journal is shared: B replays exactly what A sent.
    const onB = await stream(b, streamId);
    expect(onB).toEqual(onA);
    // The lease is given up at the end (just after stream_end, once the journal is closed): a new turn may start anywhere.
    await until(async () => (await c.storage.leases.holder(runLeaseKey(sid))) === null);
  });

  it('cancel sent to B stops the turn on A', async () => {
    const { sid, streamId } = await waitingTurn(a);
    const r = await b.call('POST', '/api/chat/cancel', { stream_id: streamId });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: true, cancelled: true, stream_id: streamId });
    const frames = await stream(a, streamId);
    expect(frames.at(-1)!.event).toBe('cancel');
    expect((await c.storage.sessions.get(sid))!.active_stream_id).toBeNull();
  });

  it('a request to a session nobody runs is answered where it arrives; a malformed one is a 400 there', async () => {
    const sid = await b.newSession();
    expect((await cc.call('GET', `/api/approval/pending?session_id=${sid}`)).body.pending_count).toBe(0);
    const bad = await cc.call('POST', '/api/approval/respond', { choice: 'once' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBeTruthy();
  });

  /** The instance holding the session's lease once it is not `not` (a takeover), and that instance. */
  async function newOwner(sid: string, not: ClusterInstance) {
    const id = await until(async () => {
      const owner = (await c.storage.leases.holder(runLeaseKey(sid)))?.owner;
      return owner && owner !== not.id ? owner : null;
    });
    return c.instances.find((t) => t.id === id)!;
  }

  it('A dies mid-turn: B or C takes it over within the TTL and resumes it to the end; nothing is lost', async () => {
    const { sid, streamId } = await waitingTurn(a);
    const before = (await c.storage.journal.read(streamId))!.events;
    const killedAt = Date.now();
    await c.kill(a);
    const owner = await newOwner(sid, a);
    expect(Date.now() - killedAt).toBeLessThan(5_000);
    // The lease is taken just before the run is registered there again.
    await until(() => owner.deps.agent.registry.get(streamId));
    // A browser that held the last id before the death resumes on the new owner with just the rest.
    // The approval A was waiting for is asked again by the new owner (nothing ran unconfirmed); C answers it.
    let resumed = false;
    const rest = await stream(
      owner,
      streamId,
      async (f) => {
        if (f.event === 'resumed') resumed = true;
        if (f.event === 'approval' && resumed) {
          const r = await cc.call('POST', '/api/approval/respond', { session_id: sid, choice: 'once', approval_id: f.data.approval_id });
          expect(r.body).toMatchObject({ ok: true, pending_count: 0 });
        }
      },
      `${streamId}:${before.at(-1)!.seq}`,
    );
    const at = rest.findIndex((f) => f.event === 'resumed');
    // Before the resumed line only what A had written and not yet committed when the reader looked.
    expect(rest.slice(0, at).map((f) => f.event)).toEqual(['metering', 'tool', 'approval'].slice(3 - at));
    expect(rest.slice(at + 1).filter((f) => f.event === 'approval')).toHaveLength(1);
    expect(rest.slice(at + 1).some((f) => f.event === 'tool_complete' && f.data.tool_call_id === 'run1' && !f.data.is_error)).toBe(true);
    expect(rest.at(-1)!.event).toBe('stream_end');
    const events = (await c.storage.journal.read(streamId))!.events;
    // Every event A wrote is still there, then the new owner's: numbered on, no gap, no duplicate.
    expect(events.slice(0, before.length)).toEqual(before);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(seqs(rest)).toEqual(events.slice(before.length).map((e) => e.seq));
    const session = (await c.storage.sessions.get(sid))!;
    expect(session.active_stream_id).toBeNull();
    expect(session.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['please clean up']);
    expect(session.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'finished' });
    expect(events.find((e) => e.event === 'resumed')!.data).toMatchObject({ session_id: sid, attempt: 1 });
    await until(async () => (await c.storage.leases.holder(runLeaseKey(sid))) === null);
  });

  it("watchers on B and C that followed the turn while A owned it follow it through the takeover at once, the new owner's included", async () => {
    const { sid, streamId } = await waitingTurn(a);
    const resumedAt: Record<string, number> = {};
    const attached: Record<string, () => void> = {};
    const ready = [b, cc].map((t) => new Promise<void>((resolve) => (attached[t.id] = resolve)));
    const follow = (t: ClusterInstance) =>
      stream(t, streamId, async (f) => {
        if (f.event === 'approval' && !resumedAt[t.id]) attached[t.id]!();
        if (f.event === 'resumed') resumedAt[t.id] = Date.now();
        // The approval asked again is answered once, on B.
        if (f.event === 'approval' && resumedAt[t.id] && t === b)
          await b.call('POST', '/api/approval/respond', { session_id: sid, choice: 'once', approval_id: f.data.approval_id });
      });
    const watching = Promise.all([follow(b), follow(cc)]);
    await Promise.all(ready);
    await c.kill(a);
    const owner = await newOwner(sid, a);
    const [onB, onC] = await watching;
    expect(onB).toEqual(onC);
    expect(onB.at(-1)!.event).toBe('stream_end');
    expect(seqs(onB)).toEqual(onB.map((_, i) => i + 1));
    // The new owner's own watcher was a follower of A's run: it hears its own appends, not a heartbeat 15 s later.
    expect(Math.abs(resumedAt[b.id]! - resumedAt[cc.id]!)).toBeLessThan(1_000);
    expect([b.id, cc.id]).toContain(owner.id);
  });

  it('an owner whose lease was lost stops: it writes no event after another instance took the turn', async () => {
    const { sid, streamId } = await waitingTurn(a);
    const first = (await a.call('GET', `/api/approval/pending?session_id=${sid}`)).body.pending.approval_id;
    // A's renewals fail (a partition from the database), but A itself is still running.
    a.leases.cutOff = true;
    const owner = await newOwner(sid, a);
    await until(async () => (await c.storage.journal.read(streamId))!.events.some((e) => e.event === 'resumed'));
    expect(a.deps.agent.registry.activeFor(sid)).toBeUndefined();
    // A's own approval went with its run: asked on A, the pending one is the new owner's, asked again.
    const pending = await until(async () => {
      const p = (await a.call('GET', `/api/approval/pending?session_id=${sid}`)).body;
      return p.pending_count === 1 && p.pending.approval_id !== first ? p.pending : null;
    });
    expect(pending.command).toBe('rm -rf build');
    // The fenced owner stored nothing of its cut-short step: the approval is asked again (answered on B) and runs.
    let resumed = false;
    const frames = await stream(owner, streamId, async (f) => {
      if (f.event === 'resumed') resumed = true;
      if (f.event === 'approval' && resumed)
        await b.call('POST', '/api/approval/respond', { session_id: sid, choice: 'once', approval_id: f.data.approval_id });
    });
    const messages = (await c.storage.sessions.get(sid))!.messages;
    expect(messages.some((m) => m._partial)).toBe(false);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(frames.at(-1)!.event).toBe('stream_end');
    // One writer at a time: exactly one resumed line, and every seq once.
    const events = (await c.storage.journal.read(streamId))!.events;
    expect(events.filter((e) => e.event === 'resumed')).toHaveLength(1);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.filter((e) => e.event === 'stream_end')).toHaveLength(1);
  });
});
