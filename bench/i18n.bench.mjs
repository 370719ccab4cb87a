// What the i18n layer costs (issue 21's budgets):
//   the layer in the shell (@lit/localize's runtime, components/i18n, every msg() call and
//   @localized()): ≤ 3 KB brotli, measured as the shell with it minus the shell built from the
//   same sources with each call written back as its English literal (bench/i18n-stub.mjs);
//   each locale bundle ≤ 12 KB brotli, loaded only when its language is chosen (not in the shell):
//   a language's core when chosen, each other bundle with the screens that show it;
//   switching language in Settings re-renders without a reload ≤ 100 ms (Chromium, to the painted
//   frame: the app's `hermes:language <code>` User Timing entry), for a language whose bundles are
//   in; the first switch to each, which fetches them, is reported beside it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlib } from 'node:zlib';
import { chromium } from 'playwright-core';
import { fmt, percentile, root, startServer, stopServer, verdict } from './lib.mjs';
import { WITHOUT_LAYER } from './i18n-stub.mjs';

const LAYER_BUDGET_KB = 3;
const LOCALE_BUDGET_KB = 12;
const SWITCH_BUDGET_MS = 100;
const { build } = await import('esbuild');

/** How many fonts here cover Japanese (without any, the browser searches every font for each glyph). */
function cjkFonts() {
  const r = spawnSync('fc-list', [':lang=ja'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.split('\n').filter(Boolean).length : 'unknown (no fc-list)';
}

async function measure(plugins) {
  const out = mkdtempSync(join(tmpdir(), 'hermes-bench-i18n-'));
  try {
    const result = await build({
      absWorkingDir: root,
      entryPoints: { main: join(root, 'components/main.ts') },
      outdir: out,
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      target: ['chrome111', 'firefox115', 'safari16.4'],
      minify: true,
      entryNames: '[name]-[hash]',
      chunkNames: 'chunks/[name]-[hash]',
      assetNames: 'files/[name]-[hash]',
      loader: { '.woff2': 'file', '.woff': 'file', '.ttf': 'file' },
      metafile: true,
      legalComments: 'none',
      define: { __APP_VERSION__: '"bench"' },
      logLevel: 'silent',
      plugins,
    });
    const outputs = result.metafile.outputs;
    const size = (file) => brotliCompressSync(readFileSync(join(root, file)), { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }).length;
    const closure = (file, seen = new Set()) => {
      if (seen.has(file)) return seen;
      seen.add(file);
      for (const i of outputs[file]?.imports ?? []) if (i.kind === 'import-statement' && !i.external) closure(i.path, seen);
      return seen;
    };
    const entry = Object.keys(outputs).find((f) => outputs[f].entryPoint?.endsWith('components/main.ts'));
    const shell = closure(entry);
    const shellKb = [...shell].reduce((n, f) => n + size(f), 0) / 1024;
    const locales = Object.keys(outputs)
      .filter((f) => /components\/i18n\/locales\/[^/]+\/(?!index\.ts$)[^/]+\.ts$/.test(outputs[f].entryPoint ?? ''))
      .map((f) => {
        const [, code, bundle] = outputs[f].entryPoint.match(/locales\/([^/]+)\/([^/]+)\.ts$/);
        return { code, bundle, kb: [...closure(f)].filter((c) => !shell.has(c)).reduce((n, c) => n + size(c), 0) / 1024, inShell: shell.has(f) };
      });
    return { shellKb, locales };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

const withLayer = await measure([]);
const withoutLayer = await measure([WITHOUT_LAYER]);
const layer = withLayer.shellKb - withoutLayer.shellKb;
console.log(
  `shell ${fmt(withLayer.shellKb)} KB brotli with the i18n layer, ${fmt(withoutLayer.shellKb)} KB without: the layer adds ${fmt(layer)} KB (budget ≤ ${LAYER_BUDGET_KB} KB): ${verdict(layer, LAYER_BUDGET_KB)}`,
);
let over = layer > LAYER_BUDGET_KB;
const largest = withLayer.locales.reduce((a, b) => (b.kb > a.kb ? b : a), { code: '-', bundle: '-', kb: 0 });
const inShell = withLayer.locales.filter((l) => l.inShell).map((l) => `${l.code}/${l.bundle}`);
const codes = [...new Set(withLayer.locales.map((l) => l.code))];
console.log(
  `${withLayer.locales.length} locale bundles (${codes.length} languages), largest ${largest.code}/${largest.bundle} ${fmt(largest.kb)} KB brotli (budget ≤ ${LOCALE_BUDGET_KB} KB): ${verdict(largest.kb, LOCALE_BUDGET_KB)}; in the shell: ${inShell.length ? inShell.join(', ') : 'none'}`,
);
for (const bundle of [...new Set(withLayer.locales.map((l) => l.bundle))].sort()) {
  const rows = withLayer.locales.filter((l) => l.bundle === bundle);
  const big = rows.reduce((a, b) => (b.kb > a.kb ? b : a));
  console.log(
    `  ${bundle}: largest ${big.code} ${fmt(big.kb)} KB brotli${bundle === 'core' ? ' (loaded when the language is chosen)' : ' (loaded with its screens)'}`,
  );
}
const whole = codes.map((code) => ({ code, kb: withLayer.locales.filter((l) => l.code === code).reduce((n, l) => n + l.kb, 0) }));
const wholeMax = whole.reduce((a, b) => (b.kb > a.kb ? b : a));
console.log(`  every bundle of one language together: largest ${wholeMax.code} ${fmt(wholeMax.kb)} KB brotli (for reference)`);
over ||= largest.kb > LOCALE_BUDGET_KB || inShell.length > 0;

// Switching in the running app, as a person does it in Settings → Appearance → Language.
const home = mkdtempSync(join(tmpdir(), 'hermes-bench-i18n-home-'));
const server = await startServer({ HOME: home, HERMES_HOME: join(home, '.hermes'), HERMES_WEBUI_SKIP_ONBOARDING: '1' });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
try {
  const page = await browser.newPage();
  await page.goto(server.url);
  await page.locator('[data-role="open-settings"]').click();
  const select = page.locator('[data-role="language"]');
  await select.waitFor();
  const order = ['de', 'ja', 'ar', 'fr', 'zh', 'ru', 'es', 'en'];
  const first = [];
  const again = [];
  for (let round = 0; round < 4; round++) {
    for (const code of order) {
      await page.evaluate(() => performance.clearMeasures());
      await select.selectOption(code);
      const name = `hermes:language ${code}`;
      await page.waitForFunction((n) => performance.getEntriesByName(n).length > 0, name);
      (round === 0 ? first : again).push(await page.evaluate((n) => performance.getEntriesByName(n)[0].duration, name));
    }
  }
  for (const list of [first, again]) list.sort((a, b) => a - b);
  const p95 = percentile(again, 95);
  console.log(
    `switch language in Settings ×${again.length}, to languages already chosen once (their bundles in): p50 ${fmt(percentile(again, 50))} ms, p95 ${fmt(p95)} ms, max ${fmt(again.at(-1))} ms (budget ≤ ${SWITCH_BUDGET_MS} ms): ${verdict(p95, SWITCH_BUDGET_MS)}`,
  );
  // The first switch to each language also fetches its core and settings bundles and is the first
  // use of its script's fonts (CJK fonts load on first use): reported, it is network and fonts.
  console.log(
    `  the first switch to each language ×${first.length} (its bundles fetched from the server): p50 ${fmt(percentile(first, 50))} ms, max ${fmt(first.at(-1))} ms; CJK fonts on this machine: ${cjkFonts()}`,
  );
  over ||= p95 > SWITCH_BUDGET_MS;
} finally {
  await browser.close();
  await stopServer(server);
  rmSync(home, { recursive: true, force: true });
}
if (over) process.exitCode = 1;
