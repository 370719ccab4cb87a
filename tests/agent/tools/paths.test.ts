import { describe, expect, it } from 'vitest';
import { displayPath, isInsideDir, normalizePath, resolveToolPath, sensitiveWriteReason } from '../../../src/agent/tools/paths.js';

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

  it('flags credential and privilege files only', () => {
    const reason = (p: string) => sensitiveWriteReason(p, '/home/u', '/home/u/.hermes');
    for (const p of [
      '/home/u/.ssh/id_rsa',
      '/home/u/.aws/config',
      '/home/u/.kube/config',
      '/home/u/.gnupg/x',
      '/home/u/.netrc',
      '/etc/sudoers',
      '/etc/sudoers.d/me',
      '/ws/.env',
      '/ws/.env.production',
      '/ws/.envrc',
      '/home/u/.hermes/.env',
      '/home/u/.hermes/auth.json',
      '/home/u/.hermes/profiles/work/auth.json',
    ]) {
      expect(reason(p), p).not.toBeNull();
    }
    for (const p of ['/ws/auth.json', '/ws/env.ts', '/ws/.environment', '/home/u/.sshd/x', '/home/u/.hermes/memories/MEMORY.md']) {
      expect(reason(p), p).toBeNull();
    }
  });
});
