import { defineConfig } from 'vitest/config';

/**
 * Files that reach D1 through Miniflare's synchronous proxy. They run in a fresh worker process
 * each (isolate: true): sharing a long-lived worker with the rest of the suite, the proxy has
 * lost replies (`message?.id === id`), after which every later call reads the one before.
 */
const MINIFLARE_FILES = [
  'tests/storage/d1.test.ts',
  'tests/storage/d1-state.test.ts',
  'tests/storage/d1-session-list.test.ts',
  'tests/server/worker-backend.test.ts',
  'tests/share/share-stores.test.ts',
];

export default defineConfig({
  test: {
    // Which files each project takes is said in `projects` below. Component tests run in
    // Chromium under @web/test-runner (npm run test:components).
    globalSetup: ['tests/helpers/global-setup.ts'],
    // After each file, whatever it started and did not stop is killed and fails the file.
    setupFiles: ['tests/helpers/leak-check.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // A worker process runs file after file with its module cache kept: each file no longer
    // re-imports Hono, zod, Playwright and the app (the summed import fell from ~215 s to ~17 s
    // over the server, chat and agent files). Setup files (the leak check) still run per file;
    // tests use no module mocks and restore what they change (TZ, PATH, fetch). A file that
    // needs a fresh module graph would go in a project of its own with isolate: true.
    isolate: false,
    // Two files at a time (vitest's default is one less than the cores: one here). Most files wait
    // on servers, browsers and streams rather than the CPU.
    maxWorkers: 2,
    // Browser tests wait on streams and renders; a second is too little on a busy machine.
    expect: { poll: { timeout: 10_000, interval: 50 } },
    reporters: ['default', './tests/helpers/summary-reporter.ts'],
    projects: [
      { extends: true, test: { name: 'suite', include: ['tests/**/*.test.ts'], exclude: ['tests/components/**', 'node_modules/**', ...MINIFLARE_FILES] } },
      { extends: true, test: { name: 'miniflare', include: MINIFLARE_FILES, isolate: true } },
    ],
  },
});
