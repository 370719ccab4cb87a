import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EmbedTokenRecord, EmbedTokenStore } from '../../src/ports/embed-token-store.js';
import type { StoreContractOptions, StoreHarness } from './store-harness.js';

const record = (id: string, expires_at: number, extra: Partial<EmbedTokenRecord> = {}): EmbedTokenRecord => ({
  id,
  origin: 'https://docs.example.com',
  session_id: null,
  secret_hash: 'ab'.repeat(32),
  created_at: 1,
  expires_at,
  revoked_at: null,
  ...extra,
});

/** The behaviour every EmbedTokenStore must have (memory, fs, D1, Postgres). */
export function describeEmbedTokenStoreContract(name: string, make: () => Promise<StoreHarness<EmbedTokenStore>>, options: StoreContractOptions = {}) {
  describe(`EmbedTokenStore contract: ${name}`, () => {
    let h: StoreHarness<EmbedTokenStore>;
    let store: EmbedTokenStore;
    beforeEach(async () => {
      h = await make();
      store = h.store;
    });
    afterEach(() => h.cleanup?.());

    it('lists records oldest first; a put with a known id replaces that record in its place', async () => {
      expect(await store.list()).toEqual([]);
      await store.put(record('e1', 10));
      await store.put(record('e2', 20, { session_id: 'sess', origin: 'http://127.0.0.1:5555' }));
      await store.put(record('e3', 30));
      await store.put(record('e1', 10, { revoked_at: 5 }));
      const other = h.open();
      expect((await other.list()).map((r) => [r.id, r.revoked_at])).toEqual([
        ['e1', 5],
        ['e2', null],
        ['e3', null],
      ]);
      expect(await other.get('e2')).toEqual(record('e2', 20, { session_id: 'sess', origin: 'http://127.0.0.1:5555' }));
      expect(await other.get('e9')).toBeNull();
    });

    it('prunes the records `keep` refuses', async () => {
      for (const [id, exp] of [
        ['a', 10],
        ['b', 20],
        ['c', 30],
      ] as const)
        await store.put(record(id, exp));
      await store.prune((r) => r.expires_at !== 20);
      expect((await h.open().list()).map((r) => r.id)).toEqual(['a', 'c']);
      await store.prune(() => false);
      expect(await h.open().list()).toEqual([]);
    });

    it('hands out copies', async () => {
      const r = record('e1', 10);
      await store.put(r);
      r.revoked_at = 1;
      const read = (await store.get('e1'))!;
      read.origin = 'https://evil.example';
      expect(await store.get('e1')).toEqual(record('e1', 10));
    });

    if (options.sharedWriters)
      it('tokens minted on two servers at once are all kept', async () => {
        const stores = [store, h.open()];
        await Promise.all(Array.from({ length: 10 }, (_, i) => stores[i % 2]!.put(record(`t${i}`, i))));
        expect((await store.list()).map((r) => r.id).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `t${i}`).sort());
      });
  });
}
