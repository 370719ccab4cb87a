// Builds the embeddable <hermes-chat> element: public/embed/hermes-chat.js (stable URL, so
// pages can link it) plus hashed code-split chunks under public/embed/chunks/, with .br/.gz
// copies. Run by scripts/build.mjs; also runnable alone (`node scripts/build-embed.mjs`).
// Prints the brotli size of the core: the entry plus the chunks it imports statically.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { partState, root } from './build-state.mjs';

const brotli = (data) => brotliCompressSync(data, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } });

/** @returns {Promise<{ coreBrotliBytes: number } | null>} null when skipped as fresh. */
export async function buildEmbed({ ifNeeded = false } = {}) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const outDir = join(root, 'public', 'embed');
  if (ifNeeded && partState('embed') === 'fresh') return null;
  const started = Date.now();
  mkdirSync(outDir, { recursive: true });
  rmSync(join(outDir, 'chunks'), { recursive: true, force: true });
  for (const f of readdirSync(outDir)) if (f.startsWith('hermes-chat.js')) rmSync(join(outDir, f));
  const result = await build({
    entryPoints: { 'hermes-chat': join(root, 'components/embed.ts') },
    outdir: outDir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome111', 'firefox115', 'safari16.4'],
    minify: true,
    sourcemap: 'linked',
    entryNames: '[name]',
    chunkNames: 'chunks/[name]-[hash]',
    // The design tokens are inlined as text and re-scoped to the element's shadow root.
    loader: { '.css': 'text' },
    metafile: true,
    legalComments: 'none',
    define: { __APP_VERSION__: JSON.stringify(pkg.version) },
    logLevel: 'warning',
  });
  const outputs = result.metafile.outputs;
  const rel = (p) => relative(root, join(root, p)).split('\\').join('/');
  // The core: the entry and, transitively, every chunk it imports statically.
  const core = new Set();
  const visit = (p) => {
    if (core.has(p)) return;
    core.add(p);
    for (const i of outputs[p]?.imports ?? []) if (i.kind === 'import-statement' && !i.external) visit(i.path);
  };
  visit(Object.keys(outputs).find((p) => rel(p) === 'public/embed/hermes-chat.js'));
  let coreBrotliBytes = 0;
  for (const p of Object.keys(outputs)) {
    if (!p.endsWith('.js')) continue;
    const file = join(root, p);
    const data = readFileSync(file);
    const br = brotli(data);
    if (core.has(p)) coreBrotliBytes += br.length;
    if (data.length < 1024) continue;
    writeFileSync(`${file}.br`, br);
    writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
  }
  console.log(`built public/embed/hermes-chat.js in ${Date.now() - started} ms (core ${core.size} file(s), ${(coreBrotliBytes / 1024).toFixed(1)} KB brotli)`);
  return { coreBrotliBytes };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await buildEmbed({ ifNeeded: process.argv.includes('--if-needed') });
