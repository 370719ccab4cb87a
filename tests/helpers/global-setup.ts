import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { machine } from '../../scripts/test-tools/find-browser.mjs';
import { describeSurvivors, reapRecorded, REGISTRY_ENV } from '../../scripts/test-tools/processes.mjs';
import { defaultTools, ensureTools, ProvisionError, runCaptured } from '../../scripts/test-tools/provision.mjs';
import { ensurePostgres, startPostgres } from '../../scripts/test-tools/postgres.mjs';
import { PG_URL_ENV } from './postgres-env.js';

const root = join(import.meta.dirname, '..', '..');

/**
 * Before the run: ripgrep (installed as root on Debian, else the run stops saying how), the
 * built server (the end-to-end tests run it as `npm start` does), a PostgreSQL server for the
 * postgres storage's tests (HERMES_TEST_PG_URL: its admin URL; each file makes its own database),
 * and the registry of child processes. After it: every child a test started must be gone.
 */
export default async function setup() {
  let pgBin: string | undefined;
  try {
    await ensureTools({ machine, run: runCaptured, tools: defaultTools(root), browser: false, log: (l) => console.log(l) });
    if (!process.env[PG_URL_ENV]) pgBin = await ensurePostgres({ machine, run: runCaptured, log: (l) => console.log(l) });
  } catch (err) {
    if (err instanceof ProvisionError) throw new Error(err.message);
    throw err;
  }
  // A server given from outside (HERMES_TEST_PG_URL) is used as it is; else one for this run.
  const pg = pgBin ? await startPostgres(pgBin) : null;
  if (pg) process.env[PG_URL_ENV] = pg.url;
  // HERMES_TEST_NO_BUILD=1 skips it when running suites that never start the server.
  if (process.env.HERMES_TEST_NO_BUILD !== '1') execFileSync(process.execPath, ['scripts/build.mjs', '--if-needed'], { stdio: 'inherit', cwd: root });

  // `npm test` makes the registry; a vitest run on its own makes its own. The workers inherit the variable.
  const own = !process.env[REGISTRY_ENV];
  if (own) process.env[REGISTRY_ENV] = mkdtempSync(join(tmpdir(), 'hermes-test-processes-'));
  const dir = process.env[REGISTRY_ENV]!;
  return async () => {
    if (pg) {
      await pg.stop();
      delete process.env[PG_URL_ENV];
    }
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
