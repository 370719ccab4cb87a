import { describe, expect, it } from 'vitest';
import { displayPath, isInsideDir, normalizePath, resolveToolPath } from '../../../src/agent/tools/paths.js';

describe('tool paths', () => {
  it('resolves relative, ~ and absolute paths lexically', () => {
    expect(resolveToolPath('src/../a.txt', '/ws', '/home/u')).toBe('/ws/a.txt');
    expect(resolveToolPath('~/x/./y', '/ws', '/home/u')).toBe('/home/u/x/y');
    expect(resolveToolPath('~', '/ws', '/home/u')).toBe('/home/u');
    expect(resolveToolPath('/etc//hosts', '/ws', '/home/u')).toBe('/etc/hosts');
    expect(resolveToolPath('', '/ws', '/home/u')).toBe('/ws');
    expect(normalizePath('/a/../../b')).toBe('/b');
  });

  it('shows workspace paths relative and others absolute', () => {
    expect(displayPath('/ws/src/a.ts', '/ws')).toBe('src/a.ts');
    expect(displayPath('/ws', '/ws')).toBe('.');
    expect(displayPath('/wsx/a', '/ws')).toBe('/wsx/a');
    expect(isInsideDir('/ws', '/ws-other')).toBe(false);
  });
});
