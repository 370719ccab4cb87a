import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { machine } from '../../scripts/test-tools/find-browser.mjs';
import { describeSurvivors, reapRecorded, REGISTRY_ENV } from '../../scripts/test-tools/processes.mjs';
import { defaultTools, ensureTools, ProvisionError, runCaptured } from '../../scripts/test-tools/provision.mjs';

const root = join(import.meta.dirname, '..', '..');

/**
 * Before the run: ripgrep (installed as root on Debian, else the run stops saying how), the
 * built server (the end-to-end tests run it as `npm start` does), and the registry of child
 * processes. After it: every child a test started must be gone.
 */
export default async function setup() {
  try {
    await ensureTools({ machine, run: runCaptured, tools: defaultTools(root), browser: false, log: (l) => console.log(l) });
  } catch (err) {
    if (err instanceof ProvisionError) throw new Error(err.message);
    throw err;
  }
  // HERMES_TEST_NO_BUILD=1 skips it when running suites that never start the server.
  if (process.env.HERMES_TEST_NO_BUILD !== '1') execFileSync(process.execPath, ['scripts/build.mjs', '--if-needed'], { stdio: 'inherit', cwd: root });

  // `npm test` makes the registry; a vitest run on its own makes its own. The workers inherit the variable.
  const own = !process.env[REGISTRY_ENV];
  if (own) process.env[REGISTRY_ENV] = mkdtempSync(join(tmpdir(), 'hermes-test-processes-'));
  const dir = process.env[REGISTRY_ENV]!;
  return () => {
    const survivors = reapRecorded(dir);
    if (own) {
      rmSync(dir, { recursive: true, force: true });
      delete process.env[REGISTRY_ENV];
    }
    if (survivors.length) {
      // vitest reports a throwing teardown but still exits 0: the exit code says it instead.
      console.error(`\nthe test run left ${survivors.length} process(es) running (now killed):\n${describeSurvivors(survivors)}`);
      process.exitCode = 1;
    }
  };
}
