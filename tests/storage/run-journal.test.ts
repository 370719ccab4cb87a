import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryRunJournal } from '../../src/runs/journal.js';
import { FsRunJournal } from '../../src/adapters/storage/fs/fs-run-journal.js';
import { describeRunJournalContract } from '../contracts/run-journal.contract.js';

describeRunJournalContract('memory', async () => {
  // One process's memory: a "restart" sees the same map (what memory mode promises, no more).
  const journal = new MemoryRunJournal();
  return { journal, reopen: async () => journal, crash: async () => journal, cleanup: async () => {} };
});

describeRunJournalContract('fs', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'hermes-journal-contract-'));
  return {
    journal: new FsRunJournal(dir),
    reopen: async () => new FsRunJournal(dir),
    // A kill -9 leaves the files as the kernel has them: a fresh journal reads them.
    crash: async () => new FsRunJournal(dir),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});
