import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { COUNTS_ENV, type Counts } from '../../scripts/test-tools/counts.mjs';
import { processIdentity } from '../../scripts/test-tools/processes.mjs';

const root = join(import.meta.dirname, '..', '..');

/** A vitest of its own over one fixture, with the project's setup, leak check and summary. */
async function runFixture(file: string): Promise<{ code: unknown; out: string; counts: Counts }> {
  const work = mkdtempSync(join(tmpdir(), 'hermes-leak-check-'));
  try {
    const config = join(work, 'vitest.config.mjs');
    writeFileSync(
      config,
      `export default { test: { root: ${JSON.stringify(root)}, include: [${JSON.stringify(file)}], globalSetup: ['tests/helpers/global-setup.ts'], setupFiles: ['tests/helpers/leak-check.ts'], pool: 'forks', reporters: ['default', './tests/helpers/summary-reporter.ts'] } };\n`,
    );
    const counts = join(work, 'counts.json');
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? work,
      HERMES_TEST_NO_BUILD: '1',
      [COUNTS_ENV]: counts,
      NO_COLOR: '1',
    };
    const child = spawn(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', config], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const code = await new Promise((r) => child.on('exit', r));
    return { code, out, counts: JSON.parse(readFileSync(counts, 'utf8')) };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// The whole chain: the helper records the child, a check kills it and fails the run, naming it.
it('fails a test file that leaves a child running, names the child and kills it', async () => {
  const { code, out, counts } = await runFixture('tests/fixtures/leaks/leaky.fixture.ts');
  expect(code, out).toBe(1);
  const named =
    /this file left 1 process\(es\) running \(now killed\):\n\s+pid (\d+): a forgotten idle node, started by tests\/fixtures\/leaks\/leaky\.fixture\.ts/.exec(
      out,
    );
  expect(named, out).not.toBeNull();
  expect(processIdentity(Number(named![1]))).toBeNull();
  // The file's tests passed; the leak is the one failure.
  expect(counts).toMatchObject({ passed: 1, failed: 1, skipped: 0 });
  // ...and is named, so npm test's closing report says which file failed.
  expect(counts.failures).toEqual([expect.stringMatching(/^tests\/fixtures\/leaks\/leaky\.fixture\.ts: /)]);
});

it('catches, after the run, the child of a worker that died before its file could check', async () => {
  const { code, out } = await runFixture('tests/fixtures/leaks/crash.fixture.ts');
  expect(code, out).toBe(1);
  const named =
    /the test run left 1 process\(es\) running \(now killed\):\n\s+pid (\d+): the child of a crashed worker, started by tests\/fixtures\/leaks\/crash\.fixture\.ts/.exec(
      out,
    );
  expect(named, out).not.toBeNull();
  expect(processIdentity(Number(named![1]))).toBeNull();
});
