// The control center's weight in the browser bundle, from esbuild's metafile (the options of
// scripts/build.mjs' client build, into a temporary folder):
//   each panel's lazy chunk, with the chunks only panels reach, ≤ 15 KB brotli;
//   the shell's JS before first paint (the entry and every chunk it imports statically) grows
//   by ≤ 5 KB brotli over SHELL_BASELINE_KB, main's figure before issue 16 — built without the
//   i18n layer, whose own budget bench/i18n.bench.mjs keeps;
//   the terminal panel's chunk (xterm.js and its CSS) is outside the shell, ≤ 110 KB brotli;
//   the composer chips' menus are lazy chunks, outside the shell.
// `node bench/panel-chunks.bench.mjs [--root <checkout>]` measures another checkout (how the
// baseline was taken: commit 66b7b11, `git archive` of components/ beside this node_modules).
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants as zlib } from 'node:zlib';
import { fmt, root as repoRoot, verdict } from './lib.mjs';
import { WITHOUT_LAYER } from './i18n-stub.mjs';

/** Shell JS before first paint on main at c33daf7, the last commit before issue 16, brotli q11. */
const SHELL_BASELINE_KB = 66.9;
const PANEL_BUDGET_KB = 15;
const SHELL_GROWTH_BUDGET_KB = 5;
/** The terminal panel's chunk with xterm.js, its fit addon and stylesheet (xterm alone is most of it). */
const TERMINAL_BUDGET_KB = 110;

const at = process.argv.indexOf('--root');
const root = at > 0 ? process.argv[at + 1] : repoRoot;
const { build } = await import('esbuild');
const out = mkdtempSync(join(tmpdir(), 'hermes-bench-chunks-'));
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
    logLevel: 'warning',
    plugins: [WITHOUT_LAYER],
  });
  const outputs = result.metafile.outputs;
  const br = new Map();
  const size = (file) => {
    if (!br.has(file)) br.set(file, brotliCompressSync(readFileSync(join(root, file)), { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }).length);
    return br.get(file);
  };
  /** A file and every chunk it imports statically, transitively. */
  const closure = (file, seen = new Set()) => {
    if (seen.has(file)) return seen;
    seen.add(file);
    for (const i of outputs[file]?.imports ?? []) if (i.kind === 'import-statement' && !i.external) closure(i.path, seen);
    return seen;
  };
  const js = Object.keys(outputs).filter((f) => f.endsWith('.js'));
  const entry = js.find((f) => outputs[f].entryPoint?.endsWith('components/main.ts'));
  const shell = closure(entry);
  const shellKb = [...shell].reduce((n, f) => n + size(f), 0) / 1024;
  const growth = shellKb - SHELL_BASELINE_KB;
  console.log(
    `shell JS before first paint: ${fmt(shellKb)} KB brotli (${shell.size} files); baseline ${fmt(SHELL_BASELINE_KB)} KB, growth ${fmt(growth)} KB (budget ≤ ${SHELL_GROWTH_BUDGET_KB} KB): ${verdict(growth, SHELL_GROWTH_BUDGET_KB)}`,
  );

  const panelsDir = join(root, 'components/panels');
  const names = !existsSync(panelsDir)
    ? []
    : readdirSync(panelsDir, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name);
  let over = growth > SHELL_GROWTH_BUDGET_KB;
  // Panels that live outside components/panels but must be lazy chunks all the same.
  const extra = { git: 'components/git/hermes-git-panel.ts' };
  const sources = new Map(names.map((name) => [name, relative(root, join(panelsDir, name, `hermes-${name}-panel.ts`))]));
  for (const [name, path] of Object.entries(extra)) if (existsSync(join(root, path))) sources.set(name, path);
  for (const name of [...sources.keys()].sort()) {
    const src = sources.get(name).split('\\').join('/');
    const chunk = js.find((f) => outputs[f].entryPoint === src);
    if (!chunk) {
      console.log(`panel ${name}: no lazy chunk (is it loaded with import()?)`);
      over = true;
      continue;
    }
    // What opening the panel fetches beyond the shell.
    const own = [...closure(chunk)].filter((f) => !shell.has(f));
    const kb = own.reduce((n, f) => n + size(f), 0) / 1024;
    over ||= kb > PANEL_BUDGET_KB;
    console.log(`panel ${name}: ${fmt(kb)} KB brotli (${own.length} files) (budget ≤ ${PANEL_BUDGET_KB} KB): ${verdict(kb, PANEL_BUDGET_KB)}`);
  }
  // The terminal (issue 19): xterm.js and its stylesheet come only with the panel, never in the shell.
  const terminalSrc = 'components/terminal/hermes-terminal-panel.ts';
  const terminalChunk = js.find((f) => outputs[f].entryPoint === terminalSrc);
  const xtermInShell = [...shell].some((f) => Object.keys(outputs[f]?.inputs ?? {}).some((i) => i.includes('node_modules/@xterm/')));
  if (!terminalChunk) {
    console.log('terminal: no lazy chunk (is it loaded with import()?)');
    over = true;
  } else {
    const own = [...closure(terminalChunk)].filter((f) => !shell.has(f));
    const kb = own.reduce((n, f) => n + size(f), 0) / 1024;
    const ok = !shell.has(terminalChunk) && !xtermInShell && kb <= TERMINAL_BUDGET_KB;
    over ||= !ok;
    console.log(
      `terminal: ${fmt(kb)} KB brotli (${own.length} files, xterm and its CSS included) (budget ≤ ${TERMINAL_BUDGET_KB} KB); xterm in the shell: ${xtermInShell ? 'yes' : 'no'}: ${ok ? 'ok' : 'OVER'}`,
    );
  }
  // The composer chips paint at once; their menus come on first use (none of their code in the shell).
  for (const src of [
    'components/composer/hermes-workspace-menu.ts',
    'components/composer/hermes-model-menu.ts',
    'components/composer/hermes-saved-prompts.ts',
  ]) {
    if (!existsSync(join(root, src))) continue; // an older checkout (the baseline's)
    const chunk = js.find((f) => outputs[f].entryPoint === src);
    const inShell = [...shell].some((f) => src in (outputs[f]?.inputs ?? {}));
    const ok = !!chunk && !inShell;
    over ||= !ok;
    const kb = chunk ? [...closure(chunk)].filter((f) => !shell.has(f)).reduce((n, f) => n + size(f), 0) / 1024 : 0;
    console.log(
      `${src.split('/').pop()}: ${chunk ? `lazy chunk ${fmt(kb)} KB brotli` : 'no lazy chunk (is it loaded with import()?)'}; in the shell: ${inShell ? 'yes' : 'no'}: ${ok ? 'ok' : 'OVER'}`,
    );
  }
  process.exitCode = over ? 1 : 0;
} finally {
  rmSync(out, { recursive: true, force: true });
}
