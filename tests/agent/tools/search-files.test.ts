import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeToolHost } from '../../../src/adapters/platform/node-tool-host.js';
import { globMatches, globToRegExp } from '../../../src/agent/tools/search-format.js';
import { searchFilesTool } from '../../../src/agent/tools/search-files.js';
import { machine, onPath, ripgrepHelp } from '../../../scripts/test-tools/find-browser.mjs';
import { fakeContext, parse, sandbox, type Sandbox } from './helpers.js';

let box: Sandbox;
beforeAll(() => {
  box = sandbox();
  const files: Record<string, string | Uint8Array> = {
    'src/app.ts': 'import x\nconst hello = 1;\nfunction foo() {}\nhello again\n',
    'src/util/helper.ts': 'export const hello = 2;\n',
    'docs/readme.md': 'hello docs\n',
    'node_modules/pkg/index.ts': 'hello from deps\n',
    '.hidden/secret.ts': 'hello hidden\n',
    'blob.dat': new Uint8Array([0, 1, 2, ...new TextEncoder().encode('hello binary\n')]),
  };
  for (const [rel, content] of Object.entries(files)) {
    const p = join(box.workspace, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, content);
  }
  // helper.ts is the newest file, app.ts older, readme oldest.
  utimesSync(join(box.workspace, 'docs/readme.md'), 1_000, 1_000);
  utimesSync(join(box.workspace, 'src/app.ts'), 2_000, 2_000);
  utimesSync(join(box.workspace, 'src/util/helper.ts'), 3_000, 3_000);
});
afterAll(() => box.cleanup());

// The test setup installs ripgrep (or stops the run saying how): both engines always run.
const engines = [
  { engine: 'js' as const, useRipgrep: false },
  { engine: 'rg' as const, useRipgrep: true },
];

describe.each(engines)('search_files with the $engine engine', ({ engine, useRipgrep }) => {
  beforeAll(async () => {
    if (useRipgrep && !onPath('rg', await machine())) throw new Error(ripgrepHelp());
  });
  const search = async (args: Record<string, unknown>) => {
    const { ctx } = fakeContext(box, { hostOptions: { useRipgrep } });
    return parse(await searchFilesTool.run(args, ctx));
  };

  it('uses the engine asked for', async () => {
    const host = new NodeToolHost({ useRipgrep });
    expect(await host.searchEngine()).toBe(engine);
    const r = await host.search({
      pattern: 'hello',
      path: box.workspace,
      target: 'content',
      limit: 1,
      offset: 0,
      outputMode: 'content',
      context: 0,
      signal: new AbortController().signal,
    });
    expect(r.engine).toBe(engine);
  });

  it('finds content matches as path:line:text, skipping hidden, node_modules and binary files', async () => {
    const r = await search({ pattern: 'hello' });
    expect(r.matches).toEqual([
      'docs/readme.md:1:hello docs',
      'src/app.ts:2:const hello = 1;',
      'src/app.ts:4:hello again',
      'src/util/helper.ts:1:export const hello = 2;',
    ]);
    expect(r.total).toBe(4);
    expect(r.truncated).toBe(false);
  });

  it('pages with limit and offset', async () => {
    const r = await search({ pattern: 'hello', limit: 2, offset: 1 });
    expect(r.matches).toEqual(['src/app.ts:2:const hello = 1;', 'src/app.ts:4:hello again']);
    expect(r).toMatchObject({ total: 4, truncated: true });
    expect(r.hint).toMatch(/offset=3/);
  });

  it('shows context lines around matches', async () => {
    const r = await search({ pattern: 'foo\\(\\)', context: 1 });
    expect(r.matches).toEqual(['src/app.ts-2-const hello = 1;', 'src/app.ts:3:function foo() {}', 'src/app.ts-4-hello again']);
  });

  it('lists files with matches and counts per file', async () => {
    expect((await search({ pattern: 'hello', output_mode: 'files_only' })).matches).toEqual(['docs/readme.md', 'src/app.ts', 'src/util/helper.ts']);
    expect((await search({ pattern: 'hello', output_mode: 'count' })).matches).toEqual(['docs/readme.md:1', 'src/app.ts:2', 'src/util/helper.ts:1']);
  });

  it('filters by file_glob, by name or by root-relative path', async () => {
    expect((await search({ pattern: 'hello', file_glob: '*.md' })).matches).toEqual(['docs/readme.md:1:hello docs']);
    expect((await search({ pattern: 'hello', file_glob: 'src/*.ts', output_mode: 'files_only' })).matches).toEqual(['src/app.ts']);
  });

  it('searches an invalid regex literally', async () => {
    expect((await search({ pattern: 'foo(' })).matches).toEqual(['src/app.ts:3:function foo() {}']);
  });

  it('searches under a sub-path or in a single file', async () => {
    expect((await search({ pattern: 'hello', path: 'src/util' })).matches).toEqual(['src/util/helper.ts:1:export const hello = 2;']);
    expect((await search({ pattern: 'hello', path: 'src/app.ts' })).total).toBe(2);
  });

  it('finds files by glob, newest first; a bare word matches inside names', async () => {
    expect((await search({ pattern: '*.ts', target: 'files' })).matches).toEqual(['src/util/helper.ts', 'src/app.ts']);
    expect((await search({ pattern: 'help', target: 'files' })).matches).toEqual(['src/util/helper.ts']);
    const none = await search({ pattern: '*.rs', target: 'files' });
    expect(none).toMatchObject({ matches: [], total: 0, truncated: false });
  });
});

describe('search_files without ripgrep on PATH', () => {
  it('falls back to the JavaScript engine on its own and finds the same matches', async () => {
    const emptyBin = mkdtempSync(join(tmpdir(), 'hermes-no-rg-'));
    const path = process.env.PATH;
    let host: NodeToolHost;
    try {
      // The host looks rg up on PATH when it is made; a PATH with nothing on it has no rg.
      process.env.PATH = emptyBin;
      host = new NodeToolHost({ homeDir: box.home });
    } finally {
      process.env.PATH = path;
      rmSync(emptyBin, { recursive: true, force: true });
    }
    expect(await host.searchEngine()).toBe('js');
    const { ctx } = fakeContext(box, { host });
    const r = parse(await searchFilesTool.run({ pattern: 'hello', output_mode: 'files_only' }, ctx));
    expect(r.matches).toEqual(['docs/readme.md', 'src/app.ts', 'src/util/helper.ts']);
    // The same host made with rg on PATH uses it: the fallback came from the PATH alone.
    await expect(new NodeToolHost({ homeDir: box.home }).searchEngine()).resolves.toBe('rg');
  });
});

describe('search_files errors', () => {
  it('reports a missing path, a missing pattern and bad modes as error JSON', async () => {
    const { ctx } = fakeContext(box, { hostOptions: { useRipgrep: false } });
    expect(parse(await searchFilesTool.run({ pattern: 'x', path: 'nowhere' }, ctx)).error).toBe(`Path not found: ${join(box.workspace, 'nowhere')}`);
    expect(parse(await searchFilesTool.run({}, ctx)).error).toBe('pattern is required');
    expect(parse(await searchFilesTool.run({ pattern: 'x', output_mode: 'lines' }, ctx)).error).toMatch(/Unknown output_mode/);
    expect(parse(await searchFilesTool.run({ pattern: 'x', target: 'dirs' }, ctx)).error).toMatch(/Unknown target/);
  });

  it('reports an interrupted search', async () => {
    const ac = new AbortController();
    ac.abort();
    const { ctx } = fakeContext(box, { hostOptions: { useRipgrep: false }, signal: ac.signal });
    expect(parse(await searchFilesTool.run({ pattern: 'hello' }, ctx)).error).toMatch(/interrupted/);
  });
});

describe('globToRegExp', () => {
  const m = (glob: string, path: string) => globMatches(globToRegExp(glob), glob, path);
  it('matches names at any depth and paths from the root', () => {
    expect(m('*.ts', 'a/b/c.ts')).toBe(true);
    expect(m('*.ts', 'a/b/c.tsx')).toBe(false);
    expect(m('src/*.ts', 'src/a.ts')).toBe(true);
    expect(m('src/*.ts', 'src/x/a.ts')).toBe(false);
    expect(m('src/**/*.ts', 'src/x/y/a.ts')).toBe(true);
    expect(m('src/**/*.ts', 'src/a.ts')).toBe(true);
    expect(m('*.{js,ts}', 'a.js')).toBe(true);
    expect(m('file?.[ch]', 'file1.c')).toBe(true);
    expect(m('a.b', 'axb')).toBe(false);
  });
});
