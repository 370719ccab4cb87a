import { describe, expect, it } from 'vitest';
import type { TestSession } from '@web/test-runner';
import { countSessions, formatCounts } from '../../scripts/test-tools/counts.mjs';

const t = (name: string, passed: boolean, skipped = false) => ({ name, passed, skipped });
const session = (o: Partial<TestSession>): TestSession => ({ passed: true, errors: [], ...o }) as TestSession;

describe("web-test-runner's counts", () => {
  it('counts the tests of every file, nested suites included', () => {
    const sessions = [
      session({
        testResults: {
          name: '',
          tests: [t('a', true)],
          suites: [{ name: 's', tests: [t('b', true), t('c', false)], suites: [{ name: 'deep', tests: [t('d', false, true)], suites: [] }] }],
        },
        passed: false,
        testFile: 'tests/components/x.test.ts',
      }),
      session({ testResults: { name: '', tests: [t('e', true)], suites: [] } }),
    ];
    expect(countSessions(sessions)).toEqual({ passed: 3, failed: 1, skipped: 1, failures: ['tests/components/x.test.ts > s > c: failed'] });
  });

  it('counts a file that failed outside its tests (did not load, browser crashed) as one failure', () => {
    expect(countSessions([session({ passed: false, testFile: 'a.test.ts', errors: [{ message: 'Failed to load module\nstack' }] })])).toEqual({
      passed: 0,
      failed: 1,
      skipped: 0,
      failures: ['a.test.ts: Failed to load module'],
    });
    const passedTestsButErrored = session({
      passed: false,
      errors: [{ message: 'afterAll hook failed' }],
      testResults: { name: '', tests: [t('a', true)], suites: [] },
    });
    expect(countSessions([passedTestsButErrored])).toMatchObject({ passed: 1, failed: 1, skipped: 0 });
  });

  it('prints them as the closing line does', () => {
    expect(formatCounts({ passed: 1520, failed: 0, skipped: 0 })).toBe('1520 passed, 0 failed, 0 skipped');
  });
});
