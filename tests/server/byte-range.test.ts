import { describe, expect, it } from 'vitest';
import { parseByteRange } from '../../src/http/byte-range.js';

describe('parseByteRange', () => {
  it('reads the three forms', () => {
    expect(parseByteRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseByteRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseByteRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseByteRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
    expect(parseByteRange('bytes=50-500', 100)).toEqual({ start: 50, end: 99 });
  });

  it('unsatisfiable ranges', () => {
    expect(parseByteRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=-0', 100)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=0-0', 0)).toBe('unsatisfiable');
  });

  it('ignores what it does not serve: no header, other units, several ranges, reversed, garbage', () => {
    for (const h of [undefined, '', 'items=0-1', 'bytes=0-1,5-6', 'bytes=9-3', 'bytes=-', 'bytes=a-b']) {
      expect(parseByteRange(h, 100)).toBeNull();
    }
  });
});
