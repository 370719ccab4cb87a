import type { SettingsStore } from '../ports/settings-store.js';
import { KeyedMutex } from '../shared/keyed-mutex.js';

const locks = new WeakMap<SettingsStore, KeyedMutex>();

/**
 * Merges `patch` into the stored settings, one merge at a time per store. Without the queue two
 * quick saves (two switches flipped in the dialog) each read the old object and the second write
 * drops the first change. (One process: instances sharing a database need the store's own atomic merge.)
 */
export function patchSettings(store: SettingsStore, patch: Record<string, unknown>): Promise<void> {
  let lock = locks.get(store);
  if (!lock) locks.set(store, (lock = new KeyedMutex()));
  return lock.run('settings', async () => store.write({ ...(await store.read()), ...patch }));
}
