import { describe, expect, it } from 'vitest';
import { MemoryLeaseStore } from '../../src/adapters/storage/memory/memory-lease.js';
import { Conflict } from '../../src/ports/errors.js';
import { MemoryRunJournal } from '../../src/runs/journal.js';
import { LeaseLost, RunRegistry } from '../../src/runs/registry.js';
import { RunOwnership, runLeaseKey } from '../../src/runs/run-ownership.js';
import { RunTakeover } from '../../src/runs/run-takeover.js';

const now = () => Date.now() / 1000;
const logger = { info: () => {}, error: () => {} };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function instance(name: string, leases: MemoryLeaseStore, journal: MemoryRunJournal) {
  const ownership = new RunOwnership({ leases, owner: name, ttlMs: 300, renewMs: 50 });
  return { ownership, registry: new RunRegistry({ journal, now, ownership }) };
}

describe('run ownership', () => {
  it('one instance per session: the second gets Conflict with the stream id; the lease is renewed past its TTL and released at the end', async () => {
    const leases = new MemoryLeaseStore();
    const journal = new MemoryRunJournal();
    const a = instance('A', leases, journal);
    const b = instance('B', leases, journal);
    const run = await a.registry.beginOwned('s1', 'r1');
    const refused = await b.registry.beginOwned('s1', 'r2', 'webui', async () => 'r1').catch((e) => e);
    expect(refused).toBeInstanceOf(Conflict);
    expect(refused.extra).toEqual({ active_stream_id: 'r1' });
    await sleep(450);
    expect((await leases.holder(runLeaseKey('s1')))?.owner).toBe('A');
    run.emit('stream_end', { session_id: 's1' });
    await a.registry.end(run, 'completed');
    expect(await leases.holder(runLeaseKey('s1'))).toBeNull();
    const next = await b.registry.beginOwned('s1', 'r2');
    await b.registry.end(next, 'completed');
    a.ownership.stop();
    b.ownership.stop();
  });

  it('a lost lease fences the run: aborted with LeaseLost, its journal takes no more lines', async () => {
    const leases = new MemoryLeaseStore();
    const journal = new MemoryRunJournal();
    const a = instance('A', leases, journal);
    const run = await a.registry.beginOwned('s1', 'r1');
    run.emit('token', { text: 'before' });
    // Another owner overwrites it (what a takeover after an expiry does).
    await leases.release(runLeaseKey('s1'), 'A');
    await leases.acquire(runLeaseKey('s1'), 'B', 10_000);
    await sleep(120);
    expect(run.abort.signal.reason).toBeInstanceOf(LeaseLost);
    expect(a.registry.fenced(run)).toBe(true);
    expect(a.registry.activeFor('s1')).toBeUndefined();
    run.emit('token', { text: 'after' });
    await a.registry.end(run, 'errored');
    expect((await journal.read('r1'))!.events.map((e) => e.event)).toEqual(['token']);
    // The lease stays B's.
    expect((await leases.holder(runLeaseKey('s1')))?.owner).toBe('B');
    a.ownership.stop();
  });

  it('the takeover sweep leaves a held turn alone and takes one whose lease expired', async () => {
    const leases = new MemoryLeaseStore();
    const journal = new MemoryRunJournal();
    const a = instance('A', leases, journal);
    const b = instance('B', leases, journal);
    const taken: string[] = [];
    const takeover = new RunTakeover({
      registry: b.registry,
      ownership: b.ownership,
      logger,
      takeOver: async (sid) => {
        taken.push(sid);
        return 'closed';
      },
    });
    const run = await a.registry.beginOwned('s1', 'r1');
    run.emit('token', { text: 'partial' });
    expect(await takeover.sweep()).toEqual([]);
    a.ownership.stop(); // A dies: no more renewals
    await sleep(350);
    expect(await takeover.sweep()).toEqual(['s1']);
    expect(taken).toEqual(['s1']);
    // Released after a turn that was closed (not resumed here).
    expect(await leases.holder(runLeaseKey('s1'))).toBeNull();
    b.ownership.stop();
  });
});
