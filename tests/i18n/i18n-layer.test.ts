import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scan, scanFile } from '../../scripts/i18n/scan.mjs';
import { byArea, pseudo } from '../../scripts/i18n/extract.mjs';
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
