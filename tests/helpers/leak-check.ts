import { afterAll } from 'vitest';
import { describeSurvivors, reapRecorded, REGISTRY_ENV } from '../../scripts/test-tools/processes.mjs';

// Registered before the test file's own hooks, so it runs after them: whatever the file started
// and did not stop (a failed beforeAll, a timeout, a missing afterAll) is killed here and fails it.
afterAll(() => {
  const dir = process.env[REGISTRY_ENV];
  if (!dir) return;
  const survivors = reapRecorded(dir, { owner: process.pid });
  if (survivors.length) throw new Error(`this file left ${survivors.length} process(es) running (now killed):\n${describeSurvivors(survivors)}`);
});
