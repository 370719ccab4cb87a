import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WorkspaceStore } from '../../src/ports/workspace-store.js';
import type { StoreHarness } from './store-harness.js';

export interface WorkspaceHarness extends StoreHarness<WorkspaceStore> {
  /** A named profile's own list beside the default one (omit where the backend has one list). */
  profile?: () => WorkspaceStore;
}

/** The behaviour every WorkspaceStore must have (memory, fs, D1, Postgres). */
export function describeWorkspaceStoreContract(name: string, make: () => Promise<WorkspaceHarness>, options: { profiles?: boolean } = {}) {
  describe(`WorkspaceStore contract: ${name}`, () => {
    let h: WorkspaceHarness;
    beforeEach(async () => {
      h = await make();
    });
    afterEach(() => h.cleanup?.());

    it('is empty, with no last workspace, before anything is saved', async () => {
      expect(await h.store.list()).toEqual([]);
      expect(await h.store.getLast()).toBeNull();
    });

    it('keeps the user’s order; a nameless entry is named by its path; a save replaces the list', async () => {
      await h.store.save([
        { path: '/w/two', name: 'Two' },
        { path: '/w/one', name: '' },
      ]);
      expect(await h.open().list()).toEqual([
        { path: '/w/two', name: 'Two' },
        { path: '/w/one', name: '/w/one' },
      ]);
      await h.store.save([{ path: '/w/three', name: 'Three' }]);
      expect(await h.open().list()).toEqual([{ path: '/w/three', name: 'Three' }]);
      await h.store.save([]);
      expect(await h.store.list()).toEqual([]);
    });

    it('remembers the last workspace used, apart from the list', async () => {
      await h.store.setLast('/w/ü space');
      expect(await h.open().getLast()).toBe('/w/ü space');
      await h.store.save([{ path: '/w/a', name: 'A' }]);
      await h.store.setLast('/w/a');
      expect(await h.open().getLast()).toBe('/w/a');
      expect(await h.open().list()).toEqual([{ path: '/w/a', name: 'A' }]);
    });

    if (options.profiles)
      it('a profile’s list and last workspace are its own', async () => {
        const other = h.profile!();
        await h.store.save([{ path: '/w/default', name: 'D' }]);
        await h.store.setLast('/w/default');
        expect(await other.list()).toEqual([]);
        expect(await other.getLast()).toBeNull();
        await other.save([{ path: '/w/profile', name: 'P' }]);
        await other.setLast('/w/profile');
        expect(await h.store.list()).toEqual([{ path: '/w/default', name: 'D' }]);
        expect(await h.store.getLast()).toBe('/w/default');
        expect(await h.profile!().list()).toEqual([{ path: '/w/profile', name: 'P' }]);
      });
  });
}
