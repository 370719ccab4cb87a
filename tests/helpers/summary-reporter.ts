import type { Reporter, TestModule } from 'vitest/node';
import { formatCounts, writeCounts } from '../../scripts/test-tools/counts.mjs';

/**
 * Prints one plain closing line, "Tests: N passed, N failed, N skipped", after vitest's own
 * summary, and writes the counts where `npm test` sums every suite (HERMES_TEST_COUNTS_FILE).
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>) {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    for (const module of testModules) {
      const before = failed;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      // A file that failed outside its tests (it did not load, an afterAll threw: a leaked process) is one failure.
      if (module.state() === 'failed' && failed === before) failed++;
    }
    const counts = { passed, failed, skipped };
    writeCounts(counts);
    process.stdout.write(`\nTests: ${formatCounts(counts)}\n`);
  }
}
