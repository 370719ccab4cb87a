import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FsSessionStore } from '../../src/adapters/storage/fs/fs-session-store.js';
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
