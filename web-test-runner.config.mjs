// Component tests: each tests/components/**/*.test.ts runs in headless Chrome/Chromium (the one
// `npm test` found or installed, passed as CHROMIUM_PATH; run alone, the same lookup without
// installing), with TypeScript and Lit's decorators compiled by esbuild.
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { defaultReporter } from '@web/test-runner';
import { chromeLauncher } from '@web/test-runner-chrome';
import { readFileSync } from 'node:fs';
import { transform } from 'esbuild';
import { countsReporter } from './scripts/test-tools/counts.mjs';
import { machine, requireBrowser } from './scripts/test-tools/find-browser.mjs';

const executablePath = requireBrowser(await machine());

// highlight.js's ES build re-exports its CommonJS core. The app's bundler converts it; the test
// server serves modules as they are, so the core (which requires nothing) is converted here.
const highlightCore = {
  name: 'highlight-js-commonjs-core',
  async transform(context) {
    if (!context.path.endsWith('/highlight.js/lib/core.js')) return undefined;
    return { body: (await transform(context.body, { format: 'esm', loader: 'js' })).code };
  },
};

// The terminal panel imports xterm's stylesheet as text (an import attribute esbuild bundles);
// the test server hands that one module over as a string export instead.
const xtermCssText = {
  name: 'xterm-css-text',
  serve(context) {
    if (!context.path.endsWith('/components/terminal/xterm-css.ts')) return undefined;
    const css = readFileSync(new URL('./node_modules/@xterm/xterm/css/xterm.css', import.meta.url), 'utf8');
    return { body: `export default ${JSON.stringify(css)};`, type: 'js' };
  },
};

export default {
  files: ['tests/components/**/*.test.ts'],
  nodeResolve: true,
  concurrency: 2,
  testsFinishTimeout: 180_000,
  plugins: [highlightCore, xtermCssText, esbuildPlugin({ ts: true, tsconfig: 'components/tsconfig.json', target: 'es2022' })],
  browsers: [
    chromeLauncher({
      // Each test file in a window of its own: a second tab would be hidden (no animation frames, no lazy loads).
      createPage: async ({ browser }) => {
        const context = await browser.createBrowserContext();
        const page = await context.newPage();
        page.once('close', () => void context.close().catch(() => {}));
        return page;
      },
      launchOptions: {
        executablePath,
        headless: true,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--no-first-run',
          '--disable-sync',
          // Two test pages run at once: neither may be throttled as a background tab (rAF, timers, lazy loads).
          '--disable-background-timer-throttling',
          '--disable-renderer-backgrounding',
          '--disable-backgrounding-occluded-windows',
        ],
      },
    }),
  ],
  // The counts go to `npm test`'s closing line.
  reporters: [defaultReporter(), countsReporter()],
  // The first test of a file also pays for loading its module graph, which a loaded machine can stretch past 10 s.
  testFramework: { config: { timeout: 20_000 } },
};
