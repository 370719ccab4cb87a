import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuthStore } from '../../src/ports/auth-store.js';
import type { StoreHarness } from './store-harness.js';

/** The behaviour every AuthStore must have (memory, fs, D1, Postgres). */
export function describeAuthStoreContract(name: string, make: () => Promise<StoreHarness<AuthStore>>) {
  describe(`AuthStore contract: ${name}`, () => {
    let h: StoreHarness<AuthStore>;
    let store: AuthStore;
    beforeEach(async () => {
      h = await make();
      store = h.store;
    });
    afterEach(() => h.cleanup?.());

    it('makes each key once: 32 bytes, two names two keys, the same key after a restart', async () => {
      const signing = await store.key('signing');
      const pbkdf2 = await store.key('pbkdf2');
      expect(signing).toBeInstanceOf(Uint8Array);
      expect(signing).toHaveLength(32);
      expect(pbkdf2).toHaveLength(32);
      expect(Array.from(pbkdf2)).not.toEqual(Array.from(signing));
      expect(Array.from(await store.key('signing'))).toEqual(Array.from(signing));
      expect(Array.from(await h.open().key('signing'))).toEqual(Array.from(signing));
      expect(Array.from(await h.open().key('pbkdf2'))).toEqual(Array.from(pbkdf2));
    });

    it('servers starting at once agree on each key', async () => {
      const stores = [store, h.open(), h.open(), h.open()];
      const keys = await Promise.all(stores.flatMap((s) => [s.key('signing'), s.key('pbkdf2')]));
      const hex = keys.map((k) => Buffer.from(k).toString('hex'));
      expect(new Set(hex.filter((_, i) => i % 2 === 0)).size).toBe(1);
      expect(new Set(hex.filter((_, i) => i % 2 === 1)).size).toBe(1);
      expect(Buffer.from(await h.open().key('signing')).toString('hex')).toBe(hex[0]);
    });

    it('keeps signed-in sessions with their expiry; a put replaces the expiry', async () => {
      expect(await store.sessionExpiry('nope')).toBeNull();
      await store.putSession('t1', 100);
      await store.putSession('t2', 200.5);
      await store.putSession('t1', 150);
      expect(await h.open().sessionExpiry('t1')).toBe(150);
      expect(await h.open().sessionExpiry('t2')).toBe(200.5);
      await store.deleteSession('t2');
      await store.deleteSession('never-there');
      expect(await h.open().sessionExpiry('t2')).toBeNull();
      expect(await store.sessionExpiry('t1')).toBe(150);
    });

    it('prunes the sessions `keep` refuses, showing it each token and expiry', async () => {
      await store.putSession('old', 100);
      await store.putSession('new', 300);
      await store.putSession('mine', 50);
      const seen: [string, number][] = [];
      await store.pruneSessions((token, exp) => {
        seen.push([token, exp]);
        return exp > 200 || token === 'mine';
      });
      expect(seen.sort()).toEqual([
        ['mine', 50],
        ['new', 300],
        ['old', 100],
      ]);
      const other = h.open();
      expect(await other.sessionExpiry('old')).toBeNull();
      expect(await other.sessionExpiry('new')).toBe(300);
      expect(await other.sessionExpiry('mine')).toBe(50);
      await store.pruneSessions(() => true);
      expect(await other.sessionExpiry('new')).toBe(300);
    });

    it('keeps failed sign-ins per client, oldest first; an empty list forgets the client', async () => {
      expect(await store.failures('1.2.3.4')).toEqual([]);
      await store.setFailures('1.2.3.4', [1, 2.5, 3]);
      await store.setFailures('::1', [7]);
      const read = await h.open().failures('1.2.3.4');
      expect(read).toEqual([1, 2.5, 3]);
      read.push(99);
      expect(await store.failures('1.2.3.4')).toEqual([1, 2.5, 3]);
      await store.setFailures('1.2.3.4', []);
      await store.setFailures('never-there', []);
      expect(await h.open().failures('1.2.3.4')).toEqual([]);
      expect(await h.open().failures('::1')).toEqual([7]);
    });
  });
}
