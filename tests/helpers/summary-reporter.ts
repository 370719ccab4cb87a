import type { Reporter, TestModule, TestSuite } from 'vitest/node';
import { formatCounts, writeCounts } from '../../scripts/test-tools/counts.mjs';

function suiteFailed(suite: TestSuite | TestModule): boolean {
  if (suite.state() === 'failed') return true;
  return suite.type === 'suite' ? suiteFailed(suite.parent) : false;
}

/** An error's first line, short enough for the closing report. */
function firstLine(error: unknown): string {
  const message = error && typeof error === 'object' && 'message' in error ? String(error.message) : String(error ?? 'failed');
  return (message.split('\n')[0] ?? '').slice(0, 300);
}

/**
 * Prints one plain closing line, "Tests: N passed, N failed, N skipped", after vitest's own
 * summary, and writes the counts where `npm test` sums every suite (HERMES_TEST_COUNTS_FILE).
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>) {
    let passed = 0;
    let failed = unhandledErrors.length;
    let skipped = 0;
    const failures: string[] = unhandledErrors.map((e) => `unhandled error: ${firstLine(e)}`);
    for (const module of testModules) {
      const before = failed;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        // A test that never ran because its suite's beforeAll failed (no browser, a server that
        // would not start) did not pass: it counts as failed, not as skipped.
        else if (state === 'failed' || (test.options.mode !== 'skip' && test.options.mode !== 'todo' && suiteFailed(test.parent))) {
          failed++;
          failures.push(`${module.moduleId.replace(`${process.cwd()}/`, '')} > ${test.fullName}: ${firstLine(test.result().errors?.[0])}`);
        } else skipped++;
      }
      // A file that failed outside its tests (it did not load, an afterAll threw: a leaked process) is one failure.
      if (module.state() === 'failed' && failed === before) {
        failed++;
        failures.push(`${module.moduleId.replace(`${process.cwd()}/`, '')}: ${firstLine(module.errors()[0])}`);
      }
    }
    const counts = { passed, failed, skipped, failures };
    writeCounts(counts);
    process.stdout.write(`\nTests: ${formatCounts(counts)}\n`);
  }
}
