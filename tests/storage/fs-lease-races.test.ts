import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FsLeaseStore } from '../../src/adapters/storage/fs/fs-lease.js';

/** A gate the test opens: servers reach it after reading a lease and wait there before writing. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  let reached = 0;
  const waiters: Array<() => void> = [];
  return {
    open,
    /** Resolves once `n` servers wait at the gate. */
    reached: (n: number) =>
      new Promise<void>((resolve) => {
        const check = () => (reached >= n ? resolve() : waiters.push(check));
        check();
      }),
    hook: async () => {
      reached++;
      for (const w of waiters.splice(0)) w();
      await opened;
    },
  };
}

describe('FsLeaseStore under servers racing on one state dir', () => {
  const clock = { ms: 1_800_000_000_000 };
  let dir: string;
  beforeEach(async () => {
    clock.ms = 1_800_000_000_000;
    dir = await mkdtemp(join(tmpdir(), 'hermes-lease-race-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const store = (hooks = {}) => new FsLeaseStore(dir, () => clock.ms, hooks);

  it('two takers that both read the expired lease: exactly one gets it, whichever writes first', async () => {
    for (const first of [0, 1]) {
      const key = `k${first}`;
      await store().acquire(key, 'dead', 1000);
      clock.ms += 5000;
      const gates = [gate(), gate()];
      const takers = gates.map((g, i) => store({ beforeWrite: g.hook }).acquire(key, `taker-${i}`, 10_000));
      await Promise.all(gates.map((g) => g.reached(1)));
      // Both have read the expired lease; one writes and finishes, then the other writes.
      const second = 1 - first;
      gates[first]!.open();
      expect(await takers[first]).toBe(true);
      gates[second]!.open();
      expect(await takers[second]).toBe(false);
      expect(await store().holder(key)).toEqual({ owner: `taker-${first}`, expiresAt: clock.ms + 10_000 });
    }
  });

  it('a taker that read long ago loses even when the generation it writes was cleaned away meanwhile', async () => {
    await store().acquire('k', 'dead', 1000);
    clock.ms += 5000;
    const g = gate();
    const late = store({ beforeWrite: g.hook }).acquire('k', 'late', 10_000);
    await g.reached(1);
    // Others move the lease on by several generations (the one `late` will write is removed).
    expect(await store().acquire('k', 'b', 1000)).toBe(true);
    expect(await store().renew('k', 'b', 1000)).toBe(true);
    expect(await store().renew('k', 'b', 10_000)).toBe(true);
    g.open();
    expect(await late).toBe(false);
    expect(await store().holder('k')).toEqual({ owner: 'b', expiresAt: clock.ms + 10_000 });
    // Only the lease's own generation is left behind.
    expect(await readdir(join(dir, 'leases', 'k.lease.d'))).toHaveLength(1);
  });

  it('the old owner renewing after another took its expired lease over: the renewal fails, the new owner keeps it', async () => {
    await store().acquire('k', 'old', 1000);
    clock.ms += 5000;
    const renewGate = gate();
    const takeGate = gate();
    const renewing = store({ beforeWrite: renewGate.hook }).renew('k', 'old', 10_000);
    const taking = store({ beforeWrite: takeGate.hook }).acquire('k', 'new', 10_000);
    await Promise.all([renewGate.reached(1), takeGate.reached(1)]);
    takeGate.open();
    expect(await taking).toBe(true);
    renewGate.open();
    expect(await renewing).toBe(false);
    expect((await store().holder('k'))?.owner).toBe('new');
  });

  it('many servers acquiring at once, round after round: exactly one winner each time, free, expired or released', async () => {
    const servers = Array.from({ length: 8 }, () => store());
    for (let round = 0; round < 30; round++) {
      const key = `job-${round % 3}`;
      clock.ms += 20_000;
      if (round % 3 === 1) expect(await servers[0]!.acquire(key, 'dead', 1000)).toBe(true);
      if (round % 3 === 2) {
        expect(await servers[0]!.acquire(key, 'leaving', 60_000)).toBe(true);
        await servers[0]!.release(key, 'leaving');
      }
      if (round % 3 === 1) clock.ms += 2000;
      const won = await Promise.all(servers.map((s, i) => s.acquire(key, `server-${i}`, 10_000)));
      expect(won.filter(Boolean), `round ${round}`).toHaveLength(1);
      const winner = `server-${won.indexOf(true)}`;
      expect(await store().holder(key)).toEqual({ owner: winner, expiresAt: clock.ms + 10_000 });
      // The losers still cannot renew it, the winner can.
      const renewed = await Promise.all(servers.map((s, i) => s.renew(key, `server-${i}`, 10_000)));
      expect(renewed).toEqual(won);
    }
  });

  it('a released lease is free again and leaves one small file, not one per change', async () => {
    const s = store();
    for (let i = 0; i < 10; i++) {
      expect(await s.acquire('k', `o${i}`, 1000)).toBe(true);
      expect(await s.renew('k', `o${i}`, 1000)).toBe(true);
      await s.release('k', `o${i}`);
      expect(await s.holder('k')).toBeNull();
    }
    expect(await readdir(join(dir, 'leases', 'k.lease.d'))).toHaveLength(1);
    // No temp file is left beside the keys either.
    expect(await readdir(join(dir, 'leases'))).toEqual(['k.lease.d']);
  });
});
