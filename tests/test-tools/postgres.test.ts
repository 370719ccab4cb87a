import { describe, expect, it } from 'vitest';
import { ensurePostgres, findPostgresBin } from '../../scripts/test-tools/postgres.mjs';
import { ProvisionError, type Runner } from '../../scripts/test-tools/provision.mjs';
import { DEBIAN, fakeMachine, UBUNTU } from './machine.js';

const bin = (v: string) => [`/usr/lib/postgresql/${v}/bin/initdb`, `/usr/lib/postgresql/${v}/bin/pg_ctl`];

describe('findPostgresBin', () => {
  it("takes Debian's newest complete version, else a PATH entry with both programs", () => {
    const dirs = { '/usr/lib/postgresql': ['13', '15', 'README', '16'] };
    // 16 lacks pg_ctl: 15 is the newest whole one.
    expect(findPostgresBin(fakeMachine({ dirs, files: [...bin('13'), ...bin('15'), '/usr/lib/postgresql/16/bin/initdb'] }))).toBe('/usr/lib/postgresql/15/bin');
    expect(findPostgresBin(fakeMachine({ files: ['/usr/bin/initdb', '/usr/bin/pg_ctl'] }))).toBe('/usr/bin');
    expect(findPostgresBin(fakeMachine({ files: ['/usr/bin/initdb'] }))).toBeUndefined();
  });
});

describe('ensurePostgres', () => {
  it('installs Debian’s postgresql as root on Debian, then finds it', async () => {
    const calls: string[] = [];
    let installed = false;
    const run: Runner = async (command, args) => {
      calls.push([command, ...args].join(' '));
      if (args.includes('postgresql')) installed = true;
      return { code: 0, output: '' };
    };
    const machine = () =>
      fakeMachine({
        uid: 0,
        osRelease: DEBIAN,
        files: ['/usr/bin/apt-get', ...(installed ? bin('15') : [])],
        dirs: installed ? { '/usr/lib/postgresql': ['15'] } : {},
      });
    expect(await ensurePostgres({ machine, run })).toBe('/usr/lib/postgresql/15/bin');
    expect(calls).toEqual(['apt-get update -qq', 'apt-get install -y -qq postgresql']);
  });

  it('elsewhere, or when apt-get fails, stops with one message saying how to get it', async () => {
    const never: Runner = async () => ({ code: 0, output: '' });
    await expect(ensurePostgres({ machine: () => fakeMachine({ uid: 1000, osRelease: UBUNTU }), run: never })).rejects.toThrow(ProvisionError);
    await expect(ensurePostgres({ machine: () => fakeMachine({ uid: 1000, osRelease: UBUNTU }), run: never })).rejects.toThrow(/apt-get install postgresql/);
    const failing: Runner = async () => ({ code: 100, output: 'E: no network' });
    await expect(ensurePostgres({ machine: () => fakeMachine({ uid: 0, osRelease: DEBIAN, files: ['/usr/bin/apt-get'] }), run: failing })).rejects.toThrow(
      /apt-get update -qq exited 100/,
    );
  });
});
