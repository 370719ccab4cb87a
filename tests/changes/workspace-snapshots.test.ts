import { execFileSync } from 'node:child_process';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';

const text = (b: Uint8Array | null) => (b === null ? null : new TextDecoder().decode(b));
const BIG = 3 * 1024 * 1024;

for (const strategy of ['git', 'files'] as const) {
  describe(`workspace snapshots (${strategy})`, () => {
    let t: TestApp;
    beforeEach(async () => {
      t = await makeTestApp();
      await writeFile(join(t.workspace, 'keep.txt'), 'same\n');
      await writeFile(join(t.workspace, 'old.txt'), 'moving\n');
      await writeFile(join(t.workspace, 'big.dat'), Buffer.alloc(BIG, 1));
      await mkdir(join(t.workspace, 'node_modules', 'x'), { recursive: true });
      if (strategy === 'git') {
        await writeFile(join(t.workspace, '.gitignore'), 'ignored.log\n');
        execFileSync('git', ['init', '-q'], { cwd: t.workspace });
      }
    });
    afterEach(async () => t.close());

    it('finds created, modified, moved and deleted files with both sides; binary kept as bytes; big files by stat only', async () => {
      const snaps = t.deps.changes!.snapshots;
      const before = await snaps.take(t.workspace);
      expect(before.strategy).toBe(strategy);
      await writeFile(join(t.workspace, 'bin.dat'), Buffer.from([0, 1, 2, 255]));
      await writeFile(join(t.workspace, 'keep.txt'), 'changed\n');
      await rename(join(t.workspace, 'old.txt'), join(t.workspace, 'new.txt'));
      await writeFile(join(t.workspace, 'big.dat'), Buffer.alloc(BIG, 2));
      // Neither a heavy folder nor (in a repository) an ignored file is looked at.
      await writeFile(join(t.workspace, 'node_modules', 'x', 'index.js'), 'x');
      if (strategy === 'git') await writeFile(join(t.workspace, 'ignored.log'), 'noise');
      const after = await snaps.take(t.workspace);
      const changes = await snaps.changes(before, after);
      const byPath = Object.fromEntries(changes.map((c) => [c.path, c]));
      expect(Object.keys(byPath).sort()).toEqual(['big.dat', 'bin.dat', 'keep.txt', 'new.txt']);
      expect(byPath['keep.txt']).toMatchObject({ action: 'modified' });
      expect(text(byPath['keep.txt']!.before)).toBe('same\n');
      expect(text(byPath['keep.txt']!.after)).toBe('changed\n');
      expect(byPath['new.txt']).toMatchObject({ action: 'moved', from: 'old.txt' });
      expect([...byPath['bin.dat']!.after!]).toEqual([0, 1, 2, 255]);
      expect(byPath['bin.dat']!.before).toBeNull();
      expect(byPath['big.dat']).toMatchObject({ action: 'modified', omitted: true, before: null, after: null });

      await rm(join(t.workspace, 'new.txt'));
      const third = await snaps.take(t.workspace);
      expect(await snaps.changes(after, third)).toEqual([{ path: 'new.txt', action: 'deleted', before: new TextEncoder().encode('moving\n'), after: null }]);
      // Nothing changed: nothing found.
      expect(await snaps.changes(third, await snaps.take(t.workspace))).toEqual([]);
    });
  });
}
