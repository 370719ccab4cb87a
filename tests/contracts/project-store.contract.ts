import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotFound } from '../../src/ports/errors.js';
import type { Project, ProjectStore } from '../../src/ports/project-store.js';
import type { StoreContractOptions, StoreHarness } from './store-harness.js';

const project = (id: string, extra: Partial<Project> = {}): Project => ({
  project_id: id,
  name: id.toUpperCase(),
  color: null,
  profile: null,
  created_at: 1,
  ...extra,
});

/** The behaviour every ProjectStore must have (memory, fs, D1, Postgres). */
export function describeProjectStoreContract(name: string, make: () => Promise<StoreHarness<ProjectStore>>, options: StoreContractOptions = {}) {
  describe(`ProjectStore contract: ${name}`, () => {
    let h: StoreHarness<ProjectStore>;
    let store: ProjectStore;
    beforeEach(async () => {
      h = await make();
      store = h.store;
    });
    afterEach(() => h.cleanup?.());

    it('lists projects in creation order, each as stored, keys it does not know included', async () => {
      expect(await store.list()).toEqual([]);
      await store.create(project('b', { created_at: 2, extra: { kept: ['ü'] } }));
      await store.create(project('a', { color: '#f00', profile: 'work' }));
      const other = h.open();
      expect((await other.list()).map((p) => p.project_id)).toEqual(['b', 'a']);
      expect(await other.get('b')).toEqual(project('b', { created_at: 2, extra: { kept: ['ü'] } }));
      expect(await other.get('a')).toEqual(project('a', { color: '#f00', profile: 'work' }));
      expect(await other.get('zzz')).toBeNull();
    });

    it('update renames and recolours, keeping every other key; unknown ids are NotFound', async () => {
      await store.create(project('p', { color: '#0f0', model: 'm', workspaces: ['/w'] }));
      const renamed = await store.update('p', { name: 'Renamed' });
      expect(renamed).toEqual(project('p', { name: 'Renamed', color: '#0f0', model: 'm', workspaces: ['/w'] }));
      expect((await store.update('p', { color: null })).color).toBeNull();
      expect(await h.open().get('p')).toEqual(project('p', { name: 'Renamed', color: null, model: 'm', workspaces: ['/w'] }));
      await expect(store.update('zzz', { name: 'x' })).rejects.toBeInstanceOf(NotFound);
    });

    it('patchKeys sets JSON values and removes keys, keeping the rest; unknown ids are NotFound', async () => {
      await store.create(project('p', { model: 'old', extra: 'kept' }));
      const bound = await store.patchKeys('p', { workspaces: ['/w/a', '/w/b'], workspace: '/w/a', auto_assign: true, opts: { n: 1 } }, ['model']);
      const expected = { ...project('p', { extra: 'kept' }), workspaces: ['/w/a', '/w/b'], workspace: '/w/a', auto_assign: true, opts: { n: 1 } };
      expect(bound).toEqual(expected);
      expect(await h.open().get('p')).toEqual(expected);
      expect(await store.patchKeys('p', {}, ['workspaces', 'workspace', 'auto_assign', 'opts', 'never_there'])).toEqual(project('p', { extra: 'kept' }));
      await expect(store.patchKeys('zzz', { model: 'x' }, [])).rejects.toBeInstanceOf(NotFound);
    });

    it('delete says whether something was deleted, and leaves the others in order', async () => {
      for (const id of ['a', 'b', 'c']) await store.create(project(id));
      expect(await store.delete('b')).toBe(true);
      expect(await store.delete('b')).toBe(false);
      expect(await store.get('b')).toBeNull();
      expect((await h.open().list()).map((p) => p.project_id)).toEqual(['a', 'c']);
    });

    it('hands out copies: changing a returned project changes nothing stored', async () => {
      const created = await store.create(project('p', { workspaces: ['/w'] }));
      (created.workspaces as string[]).push('/x');
      const read = (await store.get('p'))!;
      read.name = 'changed';
      expect(await store.get('p')).toEqual(project('p', { workspaces: ['/w'] }));
    });

    const concurrentEdits = async (stores: ProjectStore[]) => {
      await store.create(project('p'));
      const keys = Array.from({ length: 12 }, (_, i) => `k${i}`);
      await Promise.all([
        ...keys.map((k, i) => stores[i % stores.length]!.patchKeys('p', { [k]: i }, [])),
        stores[0]!.update('p', { name: 'N' }),
        stores[stores.length - 1]!.update('p', { color: '#abc' }),
      ]);
      const got = (await h.open().get('p'))!;
      expect(got.name).toBe('N');
      expect(got.color).toBe('#abc');
      for (const [i, k] of keys.entries()) expect(got[k], k).toBe(i);
    };

    it('edits of different keys at once all land', () => concurrentEdits([store]));

    if (options.sharedWriters) it('edits of different keys from two servers at once all land', () => concurrentEdits([store, h.open()]));
  });
}
