import { execFileSync } from 'node:child_process';

/** The end-to-end tests run the built server, as `npm start` does. */
export default function setup() {
  // HERMES_TEST_NO_BUILD=1 skips it when running suites that never start the server.
  if (process.env.HERMES_TEST_NO_BUILD === '1') return;
  execFileSync(process.execPath, ['scripts/build.mjs', '--if-needed'], { stdio: 'inherit' });
}
