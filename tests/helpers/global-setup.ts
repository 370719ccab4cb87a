import { execFileSync } from 'node:child_process';

/** The end-to-end tests run the built server, as `npm start` does. */
export default function setup() {
  execFileSync(process.execPath, ['scripts/build.mjs', '--if-needed'], { stdio: 'inherit' });
}
