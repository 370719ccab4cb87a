import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LeaseStore } from '../../src/ports/lease.js';
import type { StoreHarness } from './store-harness.js';

/** The clock a lease suite moves: the harness builds its stores over `now`. */
export interface LeaseClock {
  ms: number;
}

/** The behaviour every LeaseStore must have (memory, fs, Postgres); `make` builds stores that read `clock.ms`. */
export function describeLeaseStoreContract(name: string, make: (now: () => number) => Promise<StoreHarness<LeaseStore>>) {
  describe(`LeaseStore contract: ${name}`, () => {
    const clock: LeaseClock = { ms: 0 };
    let h: StoreHarness<LeaseStore>;
    let store: LeaseStore;
    beforeEach(async () => {
      clock.ms = 1_800_000_000_000;
      h = await make(() => clock.ms);
      store = h.store;
    });
    afterEach(() => h.cleanup?.());

    it('is exclusive until it expires, then anyone may take it', async () => {
      expect(await store.holder('k')).toBeNull();
      expect(await store.acquire('k', 'a', 1000)).toBe(true);
      const other = h.open();
      expect(await other.holder('k')).toEqual({ owner: 'a', expiresAt: clock.ms + 1000 });
      expect(await other.acquire('k', 'b', 1000)).toBe(false);
      clock.ms += 999;
      expect(await other.acquire('k', 'b', 1000)).toBe(false);
      clock.ms += 1;
      expect(await other.holder('k')).toBeNull();
      expect(await other.acquire('k', 'b', 5000)).toBe(true);
      expect(await store.holder('k')).toEqual({ owner: 'b', expiresAt: clock.ms + 5000 });
    });

    it('taking a lease one holds renews it; renew works for its owner only', async () => {
      expect(await store.acquire('k', 'a', 1000)).toBe(true);
      clock.ms += 500;
      expect(await store.acquire('k', 'a', 1000)).toBe(true);
      expect(await store.holder('k')).toEqual({ owner: 'a', expiresAt: clock.ms + 1000 });
      expect(await h.open().renew('k', 'b', 1000)).toBe(false);
      clock.ms += 800;
      expect(await store.renew('k', 'a', 2000)).toBe(true);
      expect(await h.open().holder('k')).toEqual({ owner: 'a', expiresAt: clock.ms + 2000 });
      expect(await store.renew('nothing-here', 'a', 1000)).toBe(false);
    });

    it('once another server took an expired lease, the old owner can no longer renew it', async () => {
      expect(await store.acquire('k', 'a', 1000)).toBe(true);
      clock.ms += 1500;
      expect(await h.open().acquire('k', 'b', 1000)).toBe(true);
      expect(await store.renew('k', 'a', 1000)).toBe(false);
      expect(await store.holder('k')).toEqual({ owner: 'b', expiresAt: clock.ms + 1000 });
    });

    it('release frees the lease for its owner only', async () => {
      expect(await store.acquire('k', 'a', 60_000)).toBe(true);
      await h.open().release('k', 'b');
      expect(await store.acquire('k', 'b', 1000)).toBe(false);
      await store.release('k', 'a');
      await store.release('k', 'a');
      expect(await store.holder('k')).toBeNull();
      expect(await h.open().acquire('k', 'b', 1000)).toBe(true);
    });

    it('keys are independent, odd characters included', async () => {
      expect(await store.acquire('cron-default-job 1', 'a', 1000)).toBe(true);
      expect(await store.acquire('run:session/ü', 'b', 1000)).toBe(true);
      expect(await store.holder('cron-default-job 1')).toMatchObject({ owner: 'a' });
      expect(await store.holder('run:session/ü')).toMatchObject({ owner: 'b' });
    });

    it('servers taking one lease at once: exactly one wins, for a free key and for an expired one', async () => {
      const stores = [store, h.open(), h.open(), h.open()];
      for (let round = 0; round < 5; round++) {
        const key = `race-${round}`;
        if (round % 2) expect(await store.acquire(key, 'dead-server', 1000)).toBe(true);
        clock.ms += 2000;
        const won = await Promise.all(stores.map((s, i) => s.acquire(key, `server-${i}`, 10_000)));
        expect(won.filter(Boolean), key).toHaveLength(1);
        expect(await store.holder(key)).toEqual({ owner: `server-${won.indexOf(true)}`, expiresAt: clock.ms + 10_000 });
      }
    });
  });
}
