import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FsSessionStore } from '../../src/adapters/storage/fs/fs-session-store.js';
import { FsAuthStore } from '../../src/adapters/storage/fs/fs-auth-store.js';
import { FsEmbedTokenStore } from '../../src/adapters/storage/fs/fs-embed-tokens.js';
import { FsLeaseStore } from '../../src/adapters/storage/fs/fs-lease.js';
import { FsPushStore } from '../../src/adapters/storage/fs/fs-push-store.js';
import { FsProjectStore, FsSettingsStore, FsWorkspaceStore } from '../../src/adapters/storage/fs/fs-stores.js';
import { describeAuthStoreContract } from '../contracts/auth-store.contract.js';
import { describeEmbedTokenStoreContract } from '../contracts/embed-token-store.contract.js';
import { describeLeaseStoreContract } from '../contracts/lease-store.contract.js';
import { describeProjectStoreContract } from '../contracts/project-store.contract.js';
import { describePushStoreContract } from '../contracts/push-store.contract.js';
import { describeSettingsStoreContract } from '../contracts/settings-store.contract.js';
import { describeWorkspaceStoreContract } from '../contracts/workspace-store.contract.js';
import { describeSessionStoreContract, testClock } from '../contracts/session-store.contract.js';

describeSessionStoreContract(
  'fs',
  async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'hermes-fs-contract-'));
    const open = async () => {
      const s = new FsSessionStore({ stateDir, clock: testClock });
      await s.init();
      return s;
    };
    const store = await open();
    let latest = store;
    return {
      store,
      reopen: async () => (latest = await open()),
      corrupt: (id, text) => writeFile(join(stateDir, 'sessions', `${id}.json`), text),
      cleanup: async () => {
        await store.dispose();
        await latest.dispose();
        await rm(stateDir, { recursive: true, force: true });
      },
    };
  },
  { persistent: true },
);

/** A fresh state dir per test; `open()` is another server (or a restart) on it. */
function stateDirHarness<S>(make: (dir: string) => S) {
  return async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hermes-fs-state-'));
    return { store: make(dir), open: () => make(dir), dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
  };
}

describeSettingsStoreContract(
  'fs',
  stateDirHarness((dir) => new FsSettingsStore(dir)),
);
describeProjectStoreContract(
  'fs',
  stateDirHarness((dir) => new FsProjectStore(dir)),
);
describeWorkspaceStoreContract(
  'fs',
  async () => {
    const h = await stateDirHarness((dir) => new FsWorkspaceStore(dir))();
    // A named profile's list lives in its home's webui_state/, as node-storage.ts wires it.
    return { ...h, profile: () => new FsWorkspaceStore(join(h.dir, 'profiles', 'work', 'webui_state')) };
  },
  { profiles: true },
);
describeAuthStoreContract(
  'fs',
  stateDirHarness((dir) => new FsAuthStore(dir)),
);
describeEmbedTokenStoreContract(
  'fs',
  stateDirHarness((dir) => new FsEmbedTokenStore(dir)),
);
describePushStoreContract(
  'fs',
  stateDirHarness((dir) => new FsPushStore(dir)),
);
describeLeaseStoreContract('fs', (now) => stateDirHarness((dir) => new FsLeaseStore(dir, now))());

describe('FsAuthStore key files', () => {
  it('a short key file (cut off mid-write by an older version) is replaced by one whole key that every opener then reads', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hermes-fs-state-'));
    try {
      await writeFile(join(dir, '.signing_key'), Buffer.alloc(5));
      const keys = await Promise.all([0, 1, 2].map(() => new FsAuthStore(dir).key('signing')));
      const onDisk = await readFile(join(dir, '.signing_key'));
      expect(onDisk).toHaveLength(32);
      const after = Buffer.from(await new FsAuthStore(dir).key('signing')).toString('hex');
      expect(after).toBe(onDisk.toString('hex'));
      expect(keys.some((k) => Buffer.from(k).toString('hex') === after)).toBe(true);
      expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
