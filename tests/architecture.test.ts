import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Imports and globals that tie code to one runtime. */
const FORBIDDEN: Array<[RegExp, string]> = [
  [/from\s+['"]node:/, 'imports node:*'],
  [/import\(\s*['"]node:/, 'imports node:*'],
  [/from\s+['"](fs|path|os|child_process|crypto|stream|url|http|https|net)(\/[^'"]*)?['"]/, 'imports a Node built-in'],
  [/from\s+['"]cloudflare:/, 'imports cloudflare:*'],
  [/from\s+['"](better-sqlite3|pg|postgres|mysql2|@electric-sql\/[^'"]+|kysely-d1|@libsql\/[^'"]+)['"]/, 'imports a database driver'],
  [/from\s+['"]@hono\/node-server/, 'imports the Node server adapter'],
  [/process\.env/, 'reads process.env'],
  [/\bBuffer\./, 'uses Node Buffer'],
];

describe('architecture: the core is runtime-free', () => {
  const core = tsFiles(join(root, 'src')).filter((f) => !/[/\\]src[/\\](entry|adapters)[/\\]/.test(f));

  it('finds the core files it checks', () => {
    const names = core.map((f) => relative(root, f));
    expect(names).toContain('src/app.ts');
    expect(names.some((n) => n.startsWith('src/routes/'))).toBe(true);
  });

  it('no file outside src/entry and src/adapters imports node:*, cloudflare:*, a driver, or reads process.env', () => {
    const offences: string[] = [];
    for (const file of core) {
      const text = readFileSync(file, 'utf8');
      for (const [pattern, what] of FORBIDDEN) {
        if (pattern.test(text)) offences.push(`${relative(root, file)} ${what}`);
      }
    }
    expect(offences).toEqual([]);
  });

  it('the check catches a forbidden import', () => {
    const sample = "import { readFile } from 'node:fs/promises';\nconst x = process.env.HOME;";
    const hits = FORBIDDEN.filter(([p]) => p.test(sample)).map(([, w]) => w);
    expect(hits).toEqual(['imports node:*', 'reads process.env']);
  });
});

describe('architecture: the web bundle takes only types from the server', () => {
  // The run-event contract's schemas (zod) must stay out of the bundle: the browser imports
  // their types, and the zod-free rules from src/shared/run-event-rules.ts.
  const VALUE_IMPORT_OF_SCHEMAS = /^import\s+(?!type\b)[^;]*from\s+['"][./]*src\/shared\/run-events\.js['"]/m;

  it('no browser file imports values from src/shared/run-events.ts', () => {
    const web = [...tsFiles(join(root, 'components')), ...tsFiles(join(root, 'sw'))];
    expect(web.length).toBeGreaterThan(20);
    const offences = web.filter((f) => VALUE_IMPORT_OF_SCHEMAS.test(readFileSync(f, 'utf8'))).map((f) => relative(root, f));
    expect(offences).toEqual([]);
  });

  it('the check tells a value import from a type import', () => {
    expect(VALUE_IMPORT_OF_SCHEMAS.test("import { parseRunEvent } from '../../src/shared/run-events.js';")).toBe(true);
    expect(VALUE_IMPORT_OF_SCHEMAS.test("import type { RunEventName } from '../../src/shared/run-events.js';")).toBe(false);
  });
});
