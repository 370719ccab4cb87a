// Builds what `npm start` serves: the Node server (dist/server.js) and the browser app
// (public/: index.html plus hashed, code-split assets under public/assets/). With --if-needed
// it skips a part whose output is newer than every source file it depends on; that check
// (scripts/build-state.mjs) needs no devDependency, so a production install with a fresh build
// starts without esbuild.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync, cpSync } from 'node:fs';
import { join, relative } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { missingBuilderMessage, partState, root } from './build-state.mjs';

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const ifNeeded = process.argv.includes('--if-needed');
const only = process.argv.find((a) => a === '--server' || a === '--client');

function listFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? listFiles(join(dir, e.name)) : [join(dir, e.name)]));
}

async function buildServer() {
  const started = Date.now();
  // The server and the one-shot fs → Postgres import (`npm run migrate`), from one source tree.
  await build({
    entryPoints: { server: join(root, 'src/entry/node.ts'), migrate: join(root, 'src/entry/migrate.ts') },
    outdir: join(root, 'dist'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    define: { __APP_VERSION__: JSON.stringify(pkg.version) },
    logLevel: 'warning',
  });
  console.log(`built dist/server.js and dist/migrate.js in ${Date.now() - started} ms`);
}

async function buildClient() {
  const publicDir = join(root, 'public');
  const index = join(publicDir, 'index.html');
  const started = Date.now();
  const assets = join(publicDir, 'assets');
  rmSync(assets, { recursive: true, force: true });
  mkdirSync(assets, { recursive: true });
  const result = await build({
    entryPoints: { main: join(root, 'components/main.ts') },
    outdir: assets,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome111', 'firefox115', 'safari16.4'],
    minify: true,
    sourcemap: 'linked',
    entryNames: '[name]-[hash]',
    chunkNames: 'chunks/[name]-[hash]',
    assetNames: 'files/[name]-[hash]',
    loader: { '.woff2': 'file', '.woff': 'file', '.ttf': 'file' },
    metafile: true,
    legalComments: 'none',
    define: { __APP_VERSION__: JSON.stringify(pkg.version) },
    logLevel: 'warning',
  });
  // KaTeX's stylesheet and fonts are copied as they are and loaded only when math appears.
  const katexDist = join(root, 'node_modules', 'katex', 'dist');
  cpSync(join(katexDist, 'katex.min.css'), join(assets, 'katex', 'katex.min.css'));
  cpSync(join(katexDist, 'fonts'), join(assets, 'katex', 'fonts'), { recursive: true });

  const outputs = Object.entries(result.metafile.outputs);
  const entry = outputs.find(([, o]) => o.entryPoint?.endsWith('components/main.ts') && !o.entryPoint.endsWith('.css'));
  const url = (file) => '/' + relative(publicDir, join(root, file)).split('\\').join('/');
  const js = entry && url(entry[0]);
  const css = entry?.[1].cssBundle && url(entry[1].cssBundle);
  // The entry's static imports are fetched in parallel with it instead of one after another.
  const preloads = (entry?.[1].imports ?? []).filter((i) => i.kind === 'import-statement').map((i) => `<link rel="modulepreload" href="${url(i.path)}" />`);
  // The pre-paint script is copied as it is, under a content hash (a classic blocking script).
  const prepaint = readFileSync(join(root, 'components', 'prepaint.js'));
  const prepaintName = `prepaint-${createHash('sha256').update(prepaint).digest('hex').slice(0, 8)}.js`;
  writeFileSync(join(assets, prepaintName), prepaint);
  const html = readFileSync(join(root, 'components', 'index.html'), 'utf8')
    .replace('<!--prepaint-->', `<script src="/assets/${prepaintName}"></script>`)
    .replace('<!--styles-->', css ? `<link rel="stylesheet" href="${css}" />` : '')
    .replace('<!--preloads-->', preloads.join('\n    '))
    .replace('<!--scripts-->', `<script type="module" src="${js}"></script>`);
  writeFileSync(index, html);
  // Pre-compressed copies, served when the browser accepts them: compressing at build time
  // costs nothing per request and reaches brotli's best ratio.
  for (const file of listFiles(assets)) {
    if (!/\.(js|css|svg)$/.test(file)) continue;
    const data = readFileSync(file);
    if (data.length < 1024) continue;
    writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }));
    writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
  }
  await buildServiceWorker(publicDir, assets);
  console.log(`built public/ in ${Date.now() - started} ms`);
}

/**
 * public/sw.js (not hashed: its URL must stay the same): the precache list is the shell, the
 * manifest and icons, and every file under public/assets/ except source maps, pre-compressed
 * copies and KaTeX (loaded on demand, cached when first used); the version is a hash of that
 * list, so any new build (hashed names change) yields a new worker.
 */
async function buildServiceWorker(publicDir, assets) {
  const asUrl = (file) => '/' + relative(publicDir, file).split('\\').join('/');
  const files = listFiles(assets).filter((f) => !/\.(map|br|gz)$/.test(f) && !asUrl(f).startsWith('/assets/katex/'));
  const icons = existsSync(join(publicDir, 'icons')) ? listFiles(join(publicDir, 'icons')) : [];
  const manifest = join(publicDir, 'manifest.webmanifest');
  const precache = ['/', ...(existsSync(manifest) ? [manifest] : []).map(asUrl), ...icons.map(asUrl).sort(), ...files.map(asUrl).sort()];
  const version = createHash('sha256').update(precache.join('\n')).digest('hex').slice(0, 12);
  await build({
    entryPoints: [join(root, 'sw/sw.ts')],
    outfile: join(publicDir, 'sw.js'),
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['chrome111', 'firefox115', 'safari16.4'],
    minify: true,
    define: { __PRECACHE__: JSON.stringify(precache), __SW_VERSION__: JSON.stringify(version) },
    logLevel: 'warning',
  });
}

const wanted = only === '--server' ? ['server'] : only === '--client' ? ['client', 'embed'] : ['server', 'client', 'embed'];
const states = Object.fromEntries(wanted.map((name) => [name, partState(name)]));
const unbuildable = wanted.filter((name) => states[name] === 'unbuildable');
if (unbuildable.length) {
  console.error(`Cannot build ${unbuildable.join(', ')}: neither the built files nor their sources are here.`);
  process.exit(1);
}
const todo = ifNeeded ? wanted.filter((name) => states[name] === 'stale') : wanted;

// esbuild is loaded only when something is built: a fresh production install never needs it.
let build;
if (todo.length) {
  try {
    ({ build } = await import('esbuild'));
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
    console.error(missingBuilderMessage(todo));
    process.exit(1);
  }
}

if (todo.includes('server')) await buildServer();
if (todo.includes('client')) await buildClient();
// The embeddable <hermes-chat> element (public/embed/hermes-chat.js): scripts/build-embed.mjs.
if (todo.includes('embed')) await (await import('./build-embed.mjs')).buildEmbed();
