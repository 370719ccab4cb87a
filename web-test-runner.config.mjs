// Component tests: each tests/components/**/*.test.ts runs in headless Debian Chromium
// (no browser download here), with TypeScript and Lit's decorators compiled by esbuild.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default {
  files: ['tests/components/**/*.test.ts'],
  nodeResolve: true,
  concurrency: 2,
  testsFinishTimeout: 180_000,
  plugins: [esbuildPlugin({ ts: true, tsconfig: 'components/tsconfig.json', target: 'es2022' })],
  browsers: [
    chromeLauncher({
      launchOptions: {
        executablePath,
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
      },
    }),
  ],
  testFramework: { config: { timeout: 10_000 } },
};
