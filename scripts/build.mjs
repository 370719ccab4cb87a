// Bundles the Node server into dist/server.js. With --if-needed it does nothing when the
// bundle is newer than every source file, so `npm start` stays fast after the first run.
import { build } from 'esbuild';
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'server.js');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

if (process.argv.includes('--if-needed') && existsSync(out)) {
  const sources = Math.max(newestMtime(join(root, 'src')), statSync(join(root, 'package.json')).mtimeMs);
  if (statSync(out).mtimeMs >= sources) process.exit(0);
}

const started = Date.now();
await build({
  entryPoints: [join(root, 'src/entry/node.ts')],
  outfile: out,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  define: { __APP_VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'warning',
});
console.log(`built dist/server.js in ${Date.now() - started} ms`);
