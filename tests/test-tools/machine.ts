import type { Machine } from '../../scripts/test-tools/find-browser.mjs';

/** A staged machine: `files` are the executables on it, `dirs` what listing a directory shows. */
export function fakeMachine(
  o: Partial<Omit<Machine, 'isExecutable' | 'listDir' | 'readText'>> & { files?: string[]; dirs?: Record<string, string[]>; osRelease?: string } = {},
): Machine {
  const files = new Set(o.files ?? []);
  return {
    env: o.env ?? { PATH: '/usr/local/bin:/usr/bin:/bin' },
    platform: o.platform ?? 'linux',
    arch: o.arch ?? 'x64',
    home: o.home ?? '/home/dev',
    uid: 'uid' in o ? o.uid : 1000,
    playwrightExecutable: o.playwrightExecutable,
    isExecutable: (p) => files.has(p),
    listDir: (p) => o.dirs?.[p] ?? [],
    readText: (p) => (p === '/etc/os-release' ? o.osRelease : undefined),
  };
}

export const DEBIAN = 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nNAME="Debian GNU/Linux"\nVERSION_ID="12"\nID=debian\n';
export const UBUNTU = 'NAME="Ubuntu"\nVERSION_ID="24.04"\nID=ubuntu\nID_LIKE=debian\n';
