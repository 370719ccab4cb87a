import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Component tests run in Chromium under @web/test-runner (npm run test:components).
    exclude: ['tests/components/**', 'node_modules/**'],
    globalSetup: ['tests/helpers/global-setup.ts'],
    // After each file, whatever it started and did not stop is killed and fails the file.
    setupFiles: ['tests/helpers/leak-check.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two files at a time (vitest's default is one less than the cores: one here). Most files wait
    // on servers, browsers and streams rather than the CPU.
    maxWorkers: 2,
    // Browser tests wait on streams and renders; a second is too little on a busy machine.
    expect: { poll: { timeout: 10_000, interval: 50 } },
    reporters: ['default', './tests/helpers/summary-reporter.ts'],
  },
});
