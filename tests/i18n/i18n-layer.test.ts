import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { areaOf, scan, scanFile } from '../../scripts/i18n/scan.mjs';
import { build } from 'esbuild';
import { bundleOf, byArea, pseudo } from '../../scripts/i18n/extract.mjs';
import { localeProblems, looseProblems, readBaseline } from '../../scripts/i18n/check.mjs';
import { TARGET_LOCALES, chooseLocale } from '../../components/i18n/locales.js';
import { compile } from '../../components/i18n/compile.js';

const root = join(import.meta.dirname, '..', '..');
const translations = join(root, 'components', 'i18n', 'translations');

describe('the i18n layer stays whole', () => {
  const { messages, loose, problems } = scan(root);
  const { areas, problems: idProblems } = byArea(messages);

  it('every msg() is a literal or str`` template, and no id means two texts', () => {
    expect([...problems, ...idProblems]).toEqual([]);
    expect(messages.length).toBeGreaterThan(0);
  });

  it('the generated English catalog and locale modules are up to date (node scripts/i18n/extract.mjs)', () => {
    const r = spawnSync(process.execPath, [join(root, 'scripts', 'i18n', 'extract.mjs'), '--check'], { cwd: root, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
  });

  it.each(TARGET_LOCALES)('%s has every message, with the same placeholders, and no stale ones', (code) => {
    const read = (area: string) => {
      const file = join(translations, code, `${area}.json`);
      return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
    };
    expect(localeProblems(areas, read)).toEqual([]);
  });

  it('no user-facing string reaches a component without msg() (beyond components/i18n/loose-baseline.json, which only shrinks)', () => {
    const { added, gone } = looseProblems(loose, readBaseline(root));
    expect(added).toEqual([]);
    expect(gone).toEqual([]);
  });

  it('a component that calls msg() re-renders on a language switch (@localized() or updateWhenLocaleChanges)', () => {
    const files = [...new Set(messages.map((m) => m.file))];
    const silent = files.filter((f) => {
      const text = readFileSync(join(root, f), 'utf8');
      return /extends LitElement/.test(text) && !/@customElement\([^)]*\)\s*@localized\(\)|updateWhenLocaleChanges\(/.test(text);
    });
    // @localized() goes under @customElement: an element already in the page is upgraded the moment it is defined, before an outer decorator runs.
    expect(silent).toEqual([]);
  });
});

describe('a language comes in bundles, each there before the screens that show its messages', () => {
  const { messages } = scan(root);
  /** The lazily loaded bundles each file's messages are in. */
  const bundlesOf = new Map<string, Set<string>>();
  for (const m of messages) {
    const bundle = bundleOf(m.area);
    if (bundle === 'core') continue;
    if (!bundlesOf.has(m.file)) bundlesOf.set(m.file, new Set());
    bundlesOf.get(m.file)?.add(bundle);
  }

  it('each message is in core or in every lazy bundle whose screens show it (a screen loads only its own)', () => {
    const keysOf = (bundle: string) => {
      const text = readFileSync(join(root, 'components', 'i18n', 'locales', 'pseudo', `${bundle}.ts`), 'utf8');
      return new Set([...text.matchAll(/^ {2}(s[0-9a-f]+):/gm)].map((m) => m[1]));
    };
    const core = keysOf('core');
    const length = [...core][0]?.length ?? 0;
    expect(length).toBeGreaterThan(6);
    const missing: string[] = [];
    for (const m of messages) {
      const bundle = bundleOf(m.area);
      const key = m.id.slice(0, length);
      if (!core.has(key) && (bundle === 'core' || !keysOf(bundle).has(key))) missing.push(`${m.file}:${m.line} ${JSON.stringify(m.text)} is not in ${bundle}`);
    }
    expect(missing).toEqual([]);
  });

  it('the shell holds no file whose messages are in a lazy bundle, and every lazy import of one loads its bundles with it (loadScreen)', async () => {
    const { metafile } = await build({
      absWorkingDir: root,
      entryPoints: ['components/main.ts', 'components/embed.ts'],
      bundle: true,
      splitting: true,
      format: 'esm',
      write: false,
      metafile: true,
      outdir: join(root, 'tmp-i18n-graph'),
      loader: { '.woff2': 'file', '.woff': 'file', '.ttf': 'file' },
      define: { __APP_VERSION__: '"test"' },
      logLevel: 'silent',
    });
    const inputs = metafile.inputs;
    const closure = (starts: string[]) => {
      const seen = new Set<string>();
      const todo = [...starts];
      while (todo.length) {
        const file = todo.pop() as string;
        if (seen.has(file)) continue;
        seen.add(file);
        for (const i of inputs[file]?.imports ?? []) if (i.kind === 'import-statement') todo.push(i.path);
      }
      return seen;
    };
    const shell = closure(['components/main.ts', 'components/embed.ts']);
    const problems = [...shell].filter((f) => bundlesOf.has(f)).map((f) => `${f} is in the shell, its messages in ${[...(bundlesOf.get(f) ?? [])]}`);
    let lazyImports = 0;
    for (const [file, input] of Object.entries(inputs)) {
      // A file outside the shell runs only once its own bundle is in.
      const granted = shell.has(file) ? new Set<string>() : new Set([bundleOf(areaOf(file))]);
      const source = file.startsWith('components/') ? readFileSync(join(root, file), 'utf8') : '';
      for (const i of input.imports) {
        if (i.kind !== 'dynamic-import' || !i.original) continue;
        const needed = new Set<string>();
        for (const f of closure([i.path])) if (!shell.has(f)) for (const b of bundlesOf.get(f) ?? []) if (!granted.has(b)) needed.add(b);
        if (!needed.size) continue;
        lazyImports++;
        const spec = i.original.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        const call = source.match(new RegExp(`loadScreen\\(\\s*('[\\w-]+'|\\[[^\\]]*\\])\\s*,\\s*\\(\\)\\s*=>\\s*import\\(\\s*'${spec}'\\s*\\)`));
        const loads = new Set((call?.[1] ?? '').match(/[\w-]+/g) ?? []);
        const missing = [...needed].filter((b) => !loads.has(b));
        if (missing.length) problems.push(`${file}: the lazy import of ${i.original} shows messages of ${missing.join(', ')}: load them with loadScreen`);
      }
    }
    expect(problems).toEqual([]);
    // The check saw the screens it is for (the panels, settings, onboarding, the workspace panel).
    expect(lazyImports).toBeGreaterThanOrEqual(10);
  });
});

describe('the checks catch what they are for', () => {
  const sample = scanFile(root, 'tests/fixtures/i18n/sample.ts');

  it('finds static text, labelling attributes, literals in bindings and UI-named properties, and leaves msg() and symbols alone', () => {
    expect(sample.loose.map((l) => [l.kind, l.text])).toEqual([
      ['attribute', 'Close the panel'],
      ['text', 'Nothing here yet'],
      ['expression', 'Stop'],
      ['property', 'Archive'],
    ]);
    expect(sample.messages.map((m) => m.text)).toEqual(['Close', 'Open ${0}', 'Send']);
  });

  it('a new loose string fails, a baseline line for a string that is gone fails', () => {
    const { added, gone } = looseProblems(sample.loose, ['tests/fixtures/i18n/sample.ts: Stop', 'tests/fixtures/i18n/sample.ts: Removed']);
    expect(added).toHaveLength(3);
    expect(gone).toEqual(['loose-baseline.json lists "tests/fixtures/i18n/sample.ts: Removed", which is gone: remove the line']);
  });

  it('a locale missing a message, with a wrong placeholder or a stale id is named', () => {
    const english = new Map([
      [
        'chat',
        new Map([
          ['s1', 'Open ${0}'],
          ['s2', 'Send'],
        ]),
      ],
    ]);
    expect(localeProblems(english, () => ({ s1: 'Öffnen', s3: 'x' }))).toEqual([
      'chat: s1 has placeholders  where the English has 0',
      'chat: s2 missing ("Send")',
      'chat: s3 is no message any more (remove it)',
    ]);
    expect(localeProblems(english, () => null)).toEqual(['chat: no translations (2 messages)']);
  });
});

describe('choosing and compiling a locale', () => {
  it('the setting wins, then the browser, by exact tag, language, and Chinese script; else English', () => {
    expect(chooseLocale('fr', ['de-DE'])).toBe('fr');
    expect(chooseLocale('auto', ['pt-BR', 'en'])).toBe('pt');
    expect(chooseLocale('', ['zh-TW'])).toBe('zh-Hant');
    expect(chooseLocale(undefined, ['zh-Hans-CN'])).toBe('zh');
    expect(chooseLocale('xx', ['nl', 'ar-EG'])).toBe('ar');
    expect(chooseLocale('auto', ['nl'])).toBe('en');
  });

  it('turns ${n} into a str template whose values may be reordered', () => {
    const t = compile({ a: 'plain', b: '${1} von ${0}' }) as Record<string, { strTag: true; strings: string[]; values: number[] } | string>;
    expect(t.a).toBe('plain');
    const b = t.b as { strTag: true; strings: string[]; values: number[] };
    expect(b.strTag).toBe(true);
    expect([...b.strings]).toEqual(['', ' von ', '']);
    expect(b.values).toEqual([1, 0]);
  });

  it('the pseudo-locale accents letters and keeps placeholders', () => {
    expect(pseudo('Open ${0} now')).toBe('⟦Öþéñ ${0} ñöŵ⟧');
  });
});
