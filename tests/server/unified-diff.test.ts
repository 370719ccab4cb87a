import { describe, expect, it } from 'vitest';
import { countLines, unifiedDiff } from '../../src/domain/unified-diff.js';

describe('unifiedDiff', () => {
  it('an edit: git-style headers, one hunk, its line counts', () => {
    const d = unifiedDiff('a.txt', 'a.txt', 'one\ntwo\nthree\n', 'one\n2\nthree\nfour\n');
    expect(d.diff.startsWith('--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,4 @@')).toBe(true);
    expect(d).toMatchObject({ additions: 2, deletions: 1, truncated: false });
  });

  it('a created file is against /dev/null, a deleted one to it', () => {
    expect(unifiedDiff('n.txt', 'n.txt', null, 'x\ny\n')).toMatchObject({ additions: 2, deletions: 0 });
    expect(unifiedDiff('n.txt', 'n.txt', null, 'x\n').diff).toContain('--- /dev/null\n+++ b/n.txt');
    const gone = unifiedDiff('n.txt', 'n.txt', 'x\n', null);
    expect(gone.diff).toContain('--- a/n.txt\n+++ /dev/null');
    expect(gone).toMatchObject({ additions: 0, deletions: 1 });
  });

  it('equal sides: no diff', () => {
    expect(unifiedDiff('a', 'a', 'same', 'same')).toEqual({ diff: '', additions: 0, deletions: 0, truncated: false });
  });

  it('a long diff is cut, its counts are the whole one', () => {
    const after = Array.from({ length: 5000 }, (_, i) => `line ${i}`).join('\n');
    const d = unifiedDiff('big', 'big', '', after, { maxChars: 1000 });
    expect(d.truncated).toBe(true);
    expect(d.diff.length).toBeLessThan(1100);
    expect(d.additions).toBe(5000);
  });

  it('counts git output of several files without taking headers for lines', () => {
    const text = [
      'diff --git a/x b/x',
      '--- a/x',
      '+++ b/x',
      '@@ -1 +1 @@',
      '-a',
      '+b',
      'diff --git a/y b/y',
      '--- /dev/null',
      '+++ b/y',
      '@@ -0,0 +1,2 @@',
      '+c',
      '+d',
    ].join('\n');
    expect(countLines(text)).toEqual({ additions: 3, deletions: 1 });
  });
});
