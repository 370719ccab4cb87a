import { MemorySessionStore } from '../../src/adapters/storage/memory/memory-session-store.js';
import { describeSessionStoreContract, testClock } from '../contracts/session-store.contract.js';

describeSessionStoreContract('memory', async () => {
  const store = new MemorySessionStore(testClock);
  await store.init();
  return { store, cleanup: () => store.dispose() };
});
