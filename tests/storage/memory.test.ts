import { MemorySessionStore } from '../../src/adapters/storage/memory/memory-session-store.js';
import { MemoryAuthStore } from '../../src/adapters/storage/memory/memory-auth-store.js';
import { MemoryEmbedTokenStore } from '../../src/adapters/storage/memory/memory-embed-tokens.js';
import { MemoryLeaseStore } from '../../src/adapters/storage/memory/memory-lease.js';
import { MemoryPushStore } from '../../src/adapters/storage/memory/memory-push-store.js';
import { MemoryProjectStore, MemorySettingsStore, MemoryWorkspaceStore } from '../../src/adapters/storage/memory/memory-stores.js';
import { describeAuthStoreContract } from '../contracts/auth-store.contract.js';
import { describeEmbedTokenStoreContract } from '../contracts/embed-token-store.contract.js';
import { describeLeaseStoreContract } from '../contracts/lease-store.contract.js';
import { describeProjectStoreContract } from '../contracts/project-store.contract.js';
import { describePushStoreContract } from '../contracts/push-store.contract.js';
import { describeSettingsStoreContract } from '../contracts/settings-store.contract.js';
import { describeWorkspaceStoreContract } from '../contracts/workspace-store.contract.js';
import { describeSessionStoreContract, testClock } from '../contracts/session-store.contract.js';

describeSessionStoreContract('memory', async () => {
  const store = new MemorySessionStore(testClock);
  await store.init();
  return { store, cleanup: () => store.dispose() };
});

describeSettingsStoreContract('memory', async () => {
  const store = new MemorySettingsStore();
  return { store, open: () => store };
});
describeProjectStoreContract('memory', async () => {
  const store = new MemoryProjectStore();
  return { store, open: () => store };
});
describeWorkspaceStoreContract(
  'memory',
  async () => {
    const store = new MemoryWorkspaceStore();
    const profile = new MemoryWorkspaceStore();
    return { store, open: () => store, profile: () => profile };
  },
  { profiles: true },
);
describeAuthStoreContract('memory', async () => {
  const store = new MemoryAuthStore();
  return { store, open: () => store };
});
describeEmbedTokenStoreContract('memory', async () => {
  const store = new MemoryEmbedTokenStore();
  return { store, open: () => store };
});
describePushStoreContract('memory', async () => {
  const store = new MemoryPushStore();
  return { store, open: () => store };
});
describeLeaseStoreContract('memory', async (now) => {
  const store = new MemoryLeaseStore(now);
  return { store, open: () => store };
});
