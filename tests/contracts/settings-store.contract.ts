import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SettingsStore } from '../../src/ports/settings-store.js';
import type { StoreHarness } from './store-harness.js';

/** The behaviour every SettingsStore must have (memory, fs, D1, Postgres). */
export function describeSettingsStoreContract(name: string, make: () => Promise<StoreHarness<SettingsStore>>) {
  describe(`SettingsStore contract: ${name}`, () => {
    let h: StoreHarness<SettingsStore>;
    beforeEach(async () => {
      h = await make();
    });
    afterEach(() => h.cleanup?.());

    it('reads {} before anything is written', async () => {
      expect(await h.store.read()).toEqual({});
    });

    it('keeps what it is given, keys it does not know and their order included', async () => {
      const value = { theme: 'dark', zeta: 1, alpha: 2.5, some_future_key: { nested: [1, 'ü', null, true], '': 'empty key' } };
      await h.store.write(value);
      const back = await h.open().read();
      expect(back).toEqual(value);
      expect(Object.keys(back)).toEqual(['theme', 'zeta', 'alpha', 'some_future_key']);
    });

    it('a write replaces the whole object', async () => {
      await h.store.write({ theme: 'dark', send_key: 'enter' });
      await h.store.write({ theme: 'light' });
      expect(await h.open().read()).toEqual({ theme: 'light' });
    });

    it('hands out copies: changing what was read or written changes nothing stored', async () => {
      const value: Record<string, unknown> = { list: [1] };
      await h.store.write(value);
      (value.list as number[]).push(2);
      const read = await h.store.read();
      read.theme = 'x';
      expect(await h.store.read()).toEqual({ list: [1] });
    });
  });
}
