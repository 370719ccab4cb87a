// Whether each built part is up to date with its sources. Only node: imports, so `npm start`
// (prestart runs `build.mjs --if-needed`) answers without esbuild, a devDependency that a
// production install (`npm ci --omit=dev`) does not have.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Each part: the file whose mtime stands for the whole output, the files that must exist beside
 * it, the entry that must exist to build it at all, and the inputs it depends on.
 */
export const PARTS = {
  server: { output: 'dist/server.js', also: ['dist/migrate.js'], entry: 'src/entry/node.ts', inputs: ['src', 'package.json'] },
  client: { output: 'public/index.html', also: ['public/sw.js'], entry: 'components/main.ts', inputs: ['components', 'src/shared', 'sw', 'package.json'] },
  embed: {
    output: 'public/embed/hermes-chat.js',
    also: [],
    entry: 'components/embed.ts',
    inputs: ['components', 'src/shared', 'package.json', 'scripts/build-embed.mjs'],
  },
};

export function newestMtime(paths) {
  let newest = 0;
  for (const p of paths) {
    if (!existsSync(p)) continue;
    const st = statSync(p);
    if (!st.isDirectory()) {
      newest = Math.max(newest, st.mtimeMs);
      continue;
    }
    for (const entry of readdirSync(p)) newest = Math.max(newest, newestMtime([join(p, entry)]));
  }
  return newest;
}

/**
 * 'fresh' (built, and no input is newer), 'stale' (missing or older than an input: build it),
 * or 'unbuildable' (missing, and its sources are not here either: a copied production tree
 * without dist/). A built part with no sources beside it is fresh: there is nothing to rebuild from.
 */
export function partState(name, base = root) {
  const part = PARTS[name];
  const at = (p) => join(base, p);
  const built = existsSync(at(part.output)) && part.also.every((p) => existsSync(at(p)));
  const hasSources = existsSync(at(part.entry));
  if (!built) return hasSources ? 'stale' : 'unbuildable';
  if (!hasSources) return 'fresh';
  return statSync(at(part.output)).mtimeMs >= newestMtime(part.inputs.map(at)) ? 'fresh' : 'stale';
}

/** What to say when a part must be built and esbuild cannot be loaded. */
export function missingBuilderMessage(parts) {
  return [
    `The build is out of date (${parts.join(', ')}) and esbuild, a devDependency, is not installed.`,
    'Install with dev dependencies and build (`npm install && npm run build`), or ship a dist/ and public/',
    'built from these sources (a production install: `npm ci --omit=dev` next to a fresh build).',
  ].join('\n');
}
