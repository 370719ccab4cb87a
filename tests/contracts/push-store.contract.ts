import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { validVapidKeys } from '../../src/domain/push/vapid.js';
import type { PushStore, PushSubscriptionRecord } from '../../src/ports/push.js';
import type { StoreContractOptions, StoreHarness } from './store-harness.js';

const subscription = (n: number, profile = 'default', extra: Partial<PushSubscriptionRecord> = {}): PushSubscriptionRecord => ({
  endpoint: `https://push.example.com/send/${n}`,
  keys: { p256dh: `p256dh-${n}`, auth: `auth-${n}` },
  profile,
  created_at: 1_700_000_000 + n,
  expiration_time: null,
  user_agent: 'Chrome on Android',
  ...extra,
});
const endpoints = (list: PushSubscriptionRecord[]) => list.map((s) => s.endpoint);

/** The behaviour every PushStore must have (memory, fs, Postgres). */
export function describePushStoreContract(name: string, make: () => Promise<StoreHarness<PushStore>>, options: StoreContractOptions = {}) {
  describe(`PushStore contract: ${name}`, () => {
    let h: StoreHarness<PushStore>;
    let store: PushStore;
    beforeEach(async () => {
      h = await make();
      store = h.store;
    });
    afterEach(() => h.cleanup?.());

    it('makes one VAPID key pair and keeps it', async () => {
      const keys = await store.vapidKeys();
      expect(validVapidKeys(keys)).toBe(true);
      expect(await store.vapidKeys()).toEqual(keys);
      expect(await h.open().vapidKeys()).toEqual(keys);
    });

    it('servers starting together end with one key pair', async () => {
      const pairs = await Promise.all([store, h.open(), h.open(), h.open()].map((s) => s.vapidKeys()));
      expect(new Set(pairs.map((p) => p.public_key)).size).toBe(1);
      expect(new Set(pairs.map((p) => p.private_key)).size).toBe(1);
      expect(await h.open().vapidKeys()).toEqual(pairs[0]);
    });

    it('keeps subscriptions per profile, in the order they came', async () => {
      expect(await store.list()).toEqual([]);
      await store.put(subscription(1));
      await store.put(subscription(2, 'work', { expiration_time: 1_800_000_000_000 }));
      await store.put(subscription(3));
      const other = h.open();
      expect(await other.list()).toEqual([subscription(1), subscription(2, 'work', { expiration_time: 1_800_000_000_000 }), subscription(3)]);
      expect(endpoints(await other.list('default'))).toEqual(endpoints([subscription(1), subscription(3)]));
      expect(endpoints(await other.list('work'))).toEqual(endpoints([subscription(2)]));
      expect(await other.list('nobody')).toEqual([]);
    });

    it('a put with a known endpoint replaces it (a browser re-subscribing, or moving profile)', async () => {
      await store.put(subscription(1));
      await store.put(subscription(2));
      await store.put(subscription(1, 'work', { keys: { p256dh: 'new', auth: 'new' } }));
      const all = await h.open().list();
      expect(all).toHaveLength(2);
      expect(all.find((s) => s.endpoint === subscription(1).endpoint)).toEqual(subscription(1, 'work', { keys: { p256dh: 'new', auth: 'new' } }));
      expect(endpoints(await h.open().list('default'))).toEqual(endpoints([subscription(2)]));
    });

    it('remove says whether there was one', async () => {
      await store.put(subscription(1));
      await store.put(subscription(2));
      expect(await store.remove(subscription(1).endpoint)).toBe(true);
      expect(await store.remove(subscription(1).endpoint)).toBe(false);
      expect(endpoints(await h.open().list())).toEqual(endpoints([subscription(2)]));
    });

    const concurrentSubscribes = async (stores: PushStore[]) => {
      await Promise.all(Array.from({ length: 10 }, (_, i) => stores[i % stores.length]!.put(subscription(i))));
      expect(endpoints(await h.open().list()).sort()).toEqual(endpoints(Array.from({ length: 10 }, (_, i) => subscription(i))).sort());
    };

    it('subscriptions arriving at once are all kept', () => concurrentSubscribes([store]));

    if (options.sharedWriters) it('subscriptions arriving at two servers at once are all kept', () => concurrentSubscribes([store, h.open()]));
  });
}
