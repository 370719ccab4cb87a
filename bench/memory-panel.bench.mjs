// The Memory panel's lazy chunk ≤ 15 KB brotli: the panel's own chunk plus every chunk it
// imports that the shell does not already load (measured on the built public/assets).
// Run `node scripts/build.mjs` first.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { fmt, root, verdict } from './lib.mjs';

const assets = join(root, 'public', 'assets');
const chunks = join(assets, 'chunks');
if (!existsSync(chunks)) {
  console.log('no build in public/assets: run node scripts/build.mjs first');
  process.exit(1);
}

/** Static imports of a built module, as paths relative to the chunks folder. */
const importsOf = (file) => [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*"\.\/(?:chunks\/)?([^"]+\.js)"/g)].map((m) => m[1]);

/** Every chunk `start` pulls in statically, itself included. */
function closure(start, dir) {
  const seen = new Set();
  const walk = (name, at) => {
    const file = join(at, name);
    if (seen.has(file) || !existsSync(file)) return;
    seen.add(file);
    for (const dep of importsOf(file)) walk(dep, chunks);
  };
  walk(start, dir);
  return seen;
}

// Compressed here: the build leaves small files without a .br copy.
const brotli = (file) => brotliCompressSync(readFileSync(file), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const main = readdirSync(assets).find((f) => /^main-.*\.js$/.test(f));
const shell = closure(main, assets);
const panel = readdirSync(chunks).find((f) => /^hermes-memory-panel-.*\.js$/.test(f));
if (!panel) {
  console.log('no memory panel chunk in the build');
  process.exit(1);
}
const own = [...closure(panel, chunks)].filter((f) => !shell.has(f));
const kb = own.reduce((n, f) => n + brotli(f), 0) / 1024;
console.log(`memory panel: ${own.length} chunk(s) beyond the shell`);
console.log(`budget memory panel chunk ≤ 15 KB brotli: ${fmt(kb)} KB — ${verdict(kb, 15)}`);
