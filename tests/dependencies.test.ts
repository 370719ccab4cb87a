import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

/**
 * Every package the tree uses is declared in package.json: an import that resolves only because
 * some other package pulled it into node_modules (a "phantom") breaks when that package changes
 * its own dependencies, and the server's code must use only what a production install
 * (`npm ci --omit=dev`) has.
 */
const root = join(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
const engines = pkg.engines?.node ?? '';
const runtime = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.optionalDependencies ?? {})]);
const declared = new Set([...runtime, ...Object.keys(pkg.devDependencies ?? {})]);

const SOURCE_DIRS = ['src', 'components', 'sw', 'tests', 'bench', 'scripts'];
const CODE = /\.(ts|mts|cts|js|mjs|cjs)$/;

interface Use {
  specifier: string;
  typeOnly: boolean;
}

/** The module specifiers a file names: static, side-effect, dynamic, require, re-export, and node_modules paths. */
function usesIn(text: string): Use[] {
  const uses: Use[] = [];
  for (const m of text.matchAll(/^\s*(import|export)(\s+type)?\b[^;'"`]*?\bfrom\s*['"]([^'"]+)['"]/gm)) uses.push({ specifier: m[3]!, typeOnly: !!m[2] });
  for (const m of text.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm)) uses.push({ specifier: m[1]!, typeOnly: false });
  for (const m of text.matchAll(/\b(?:import|require)\(\s*['"]([^'"]+)['"]\s*\)/g)) uses.push({ specifier: m[1]!, typeOnly: false });
  // Paths joined onto the root: join(root, 'node_modules', 'wrangler', …), join(root, 'node_modules/katex/dist').
  const sep = `(?:['"]\\s*,\\s*['"]|/)`;
  for (const m of text.matchAll(new RegExp(`join\\(\\s*\\w+\\s*,\\s*['"]node_modules${sep}((?:@[^'"/]+${sep})?[^'"/]+)`, 'g')))
    uses.push({ specifier: m[1]!.replace(new RegExp(sep), '/'), typeOnly: false });
  return uses;
}

/** The package a bare specifier belongs to, or null for relative paths, URLs and runtime built-ins. */
function packageOf(specifier: string): string | null {
  if (/^[./]/.test(specifier) || /^[a-z]+:/.test(specifier)) return null; // ./x, /x, node:fs, cloudflare:workers, https:
  if (builtinModules.includes(specifier) || builtinModules.includes(specifier.split('/')[0]!)) return null;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === 'node_modules' || e.name.startsWith('.')) return [];
    const p = join(dir, e.name);
    return e.isDirectory() ? files(p) : CODE.test(e.name) ? [p] : [];
  });
}

const tree = [
  ...SOURCE_DIRS.flatMap((d) => files(join(root, d))),
  ...readdirSync(root)
    .filter((n) => CODE.test(n))
    .map((n) => join(root, n)),
];

/** package → files that use it (as a value unless every use is `import type`). */
function scan(paths: string[]) {
  const found = new Map<string, { files: Set<string>; valueIn: Set<string> }>();
  for (const file of paths) {
    const rel = relative(root, file).split('\\').join('/');
    // This file's own examples are not imports.
    if (rel === 'tests/dependencies.test.ts') continue;
    for (const use of usesIn(readFileSync(file, 'utf8'))) {
      const name = packageOf(use.specifier);
      if (!name) continue;
      const entry = found.get(name) ?? { files: new Set(), valueIn: new Set() };
      entry.files.add(rel);
      if (!use.typeOnly) entry.valueIn.add(rel);
      found.set(name, entry);
    }
  }
  return found;
}

describe('declared dependencies', () => {
  it('reads every kind of specifier, and tells packages from paths and built-ins', () => {
    const text = [
      "import { a } from 'pkg-a';",
      "import type { B } from '@scope/b/sub';",
      "export { c } from 'pkg-c/deep/path.js';",
      "import 'side-effect';",
      "const d = await import('pkg-d');",
      "const e = require('pkg-e');",
      "import { f } from './local.js';",
      "import { readFile } from 'node:fs/promises';",
      "import { join } from 'path';",
      "import { DurableObject } from 'cloudflare:workers';",
      "spawn(join(root, 'node_modules', 'pkg-f', 'bin', 'f.js'));",
      "cpSync(join(root, 'node_modules/@scope/g/dist'), out);",
      "const fixture = { 'node_modules/pkg/index.ts': 'a file in a workspace' };",
      "  const s = 'not an import from here';",
    ].join('\n');
    const uses = usesIn(text).map((u) => `${packageOf(u.specifier)}${u.typeOnly ? ' (type)' : ''}`);
    expect(uses.sort()).toEqual(
      ['pkg-a', '@scope/b (type)', 'pkg-c', 'side-effect', 'pkg-d', 'pkg-e', 'null', 'null', 'null', 'null', 'pkg-f', '@scope/g'].sort(),
    );
  });

  it('sees the packages the tree is known to use', () => {
    const found = scan(tree);
    expect(found.get('hono')?.files).toContain('src/app.ts');
    expect(found.get('lit')?.files.size).toBeGreaterThan(10);
    expect(found.get('vitest')?.files).toContain('tests/architecture.test.ts');
    expect(found.get('esbuild')?.files).toContain('scripts/build.mjs');
    expect(found.get('katex')?.files).toContain('scripts/build.mjs');
    expect(found.get('wrangler')?.files).toContain('tests/helpers/workerd.ts');
  });

  it('every package imported anywhere in the tree is in package.json (no phantom imports)', () => {
    const phantoms = [...scan(tree)].filter(([name]) => !declared.has(name)).map(([name, { files }]) => `${name} (${[...files].join(', ')})`);
    expect(phantoms).toEqual([]);
  });

  it('the server code imports only what a production install has (dependencies, optionalDependencies)', () => {
    const server = scan(files(join(root, 'src')));
    const devOnly = [...server]
      .filter(([name, use]) => use.valueIn.size > 0 && !runtime.has(name))
      .map(([name, { valueIn }]) => `${name} (${[...valueIn].join(', ')})`);
    expect(devOnly).toEqual([]);
  });
});

/** Node APIs newer than 20.0 and the release that brought each (the first line that has it). */
const NODE_APIS: Array<[RegExp, string, string]> = [
  [/\bAbortSignal\.any\(/, 'AbortSignal.any', '20.3.0'],
  [/\bimport\.meta\.(dirname|filename)\b/, 'import.meta.dirname', '20.11.0'],
  [/\bprocess\.loadEnvFile\(|\butil\.styleText\(|\bstyleText\b.*from 'node:util'/, 'process.loadEnvFile / util.styleText', '20.12.0'],
  [/\b(Object|Map)\.groupBy\(/, 'Object.groupBy', '21.0.0'],
  [/\bPromise\.withResolvers\(|\bArray\.fromAsync\(/, 'Promise.withResolvers / Array.fromAsync', '22.0.0'],
  [/\bglob(Sync)?\b[^\n]*from 'node:fs|from 'node:fs[^']*'[^\n]*\bglob\b/, 'fs.glob', '22.0.0'],
  [
    /\.(union|intersection|difference|symmetricDifference|isSubsetOf|isSupersetOf|isDisjointFrom)\(new Set|\bIterator\.from\(/,
    'Set methods / iterator helpers',
    '22.0.0',
  ],
  [/\bURL\.parse\(/, 'URL.parse', '22.1.0'],
  [/\bprocess\.getBuiltinModule\(/, 'process.getBuiltinModule', '22.3.0'],
  [/from 'node:sqlite'/, 'node:sqlite', '22.5.0'],
  [/\bPromise\.try\(|\bRegExp\.escape\(|\bError\.isError\(|\bFloat16Array\b/, 'Promise.try / RegExp.escape', '24.0.0'],
];

describe("package.json's engines", () => {
  it('admits the Node running this suite', () => {
    expect(semver.satisfies(process.version, engines), `${process.version} vs ${engines}`).toBe(true);
  });

  it('starts no lower than the newest Node API the tree uses', () => {
    const used = tree.flatMap((file) => {
      if (file.endsWith('dependencies.test.ts')) return [];
      const text = readFileSync(file, 'utf8');
      return NODE_APIS.filter(([re]) => re.test(text)).map(([, api, since]) => ({ api, since, file: relative(root, file) }));
    });
    // The tree is known to use import.meta.dirname (tests/helpers) and AbortSignal.any (src/http).
    expect(used.map((u) => u.api)).toContain('import.meta.dirname');
    expect(used.map((u) => u.api)).toContain('AbortSignal.any');
    const floor = semver.minVersion(engines)!;
    const above = used.filter((u) => semver.gt(u.since, floor)).map((u) => `${u.api} (Node ${u.since}) in ${u.file}`);
    expect(above).toEqual([]);
  });

  it('admits no Node version an installed (non-optional) package refuses', () => {
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { engines?: { node?: string }; optional?: boolean }>;
    };
    const narrower = Object.entries(lock.packages)
      .filter(([path, p]) => path && !p.optional && typeof p.engines?.node === 'string')
      .filter(([, p]) => !semver.subset(engines, p.engines!.node!))
      .map(([path, p]) => `${path.replace(/^.*node_modules\//, '')} wants ${p.engines!.node}`);
    expect(narrower).toEqual([]);
  });
});
