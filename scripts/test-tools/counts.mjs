// @ts-check
// One shape for every suite's result, so `npm test` can sum them into its last line.
import { writeFileSync } from 'node:fs';

/** Where a suite writes its counts (set by scripts/test.mjs; unset when a suite runs alone). */
export const COUNTS_ENV = 'HERMES_TEST_COUNTS_FILE';

/** failures: one line per failed test ("file > test: first error line"), repeated at the end of `npm test` so the cause is in the log's tail. */
/** @typedef {{ passed: number, failed: number, skipped: number, failures?: string[] }} Counts */

/** @param {Counts} c */
export function formatCounts(c) {
  return `${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped`;
}

/** @param {Counts} c */
export function writeCounts(c, file = process.env[COUNTS_ENV]) {
  if (file) writeFileSync(file, JSON.stringify(c));
}

/**
 * web-test-runner's sessions (one per test file and browser) as counts; a file that failed
 * outside any test (it did not load, the browser crashed) counts as one failure.
 * @param {ReadonlyArray<import('@web/test-runner').TestSession>} sessions
 * @returns {Counts}
 */
export function countSessions(sessions) {
  const c = { passed: 0, failed: 0, skipped: 0, failures: /** @type {string[]} */ ([]) };
  /** @param {string} file @param {import('@web/test-runner').TestSuiteResult} suite @param {string} prefix */
  const walk = (file, suite, prefix) => {
    for (const t of suite.tests) {
      if (t.skipped) c.skipped++;
      else if (t.passed) c.passed++;
      else {
        c.failed++;
        c.failures.push(`${file} > ${prefix}${t.name}: ${(t.error?.message ?? 'failed').split('\n')[0]}`);
      }
    }
    for (const s of suite.suites) walk(file, s, `${prefix}${s.name} > `);
  };
  for (const session of sessions) {
    const before = c.failed;
    if (session.testResults) walk(session.testFile, session.testResults, '');
    if ((session.errors.length > 0 || session.passed === false || !session.testResults) && c.failed === before) {
      c.failed++;
      c.failures.push(`${session.testFile}: ${(session.errors[0]?.message ?? 'failed outside its tests').split('\n')[0]}`);
    }
  }
  return c;
}

/** A web-test-runner reporter that prints the counts and writes them for `npm test`. @returns {import('@web/test-runner').Reporter} */
export function countsReporter() {
  return {
    stop({ sessions }) {
      const c = countSessions(sessions);
      writeCounts(c);
      process.stdout.write(`\nTests: ${formatCounts(c)}\n`);
    },
  };
}
