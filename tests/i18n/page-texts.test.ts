import { describe, expect, it } from 'vitest';
import { LOCALES, TARGET_LOCALES, acceptedLanguages, chooseLocale } from '../../src/shared/locales.js';
import { PAGE_TEXTS, fillText, pageTexts, placeholdersOf, type PageTextKey } from '../../src/shared/page-texts.js';
import { PAGE_TRANSLATIONS } from '../../src/shared/page-translations.js';

/**
 * Where a translation may read as the English does: the word is the same in that language.
 * Each entry must still be equal to the English (a stale entry fails), so the list only shrinks.
 */
const SAME_AS_ENGLISH: ReadonlyArray<[string, PageTextKey]> = [
  ['cs', 'model'],
  ['de', 'tool'], // the web app's German says "Tool" too
  ['pl', 'model'],
  ['tr', 'model'],
  ['fr', 'message'],
  ['fr', 'messages'],
];

describe('server page texts', () => {
  it('has a table for exactly the languages of the one locale list', () => {
    expect(Object.keys(PAGE_TRANSLATIONS).sort()).toEqual([...TARGET_LOCALES].sort());
    expect(LOCALES.map((l) => l.code)).toContain('en');
  });

  it.each(TARGET_LOCALES)('%s has every text, with the same placeholders, and none left in English', (code) => {
    const table = PAGE_TRANSLATIONS[code] as Record<string, string>;
    expect(Object.keys(table).sort()).toEqual(Object.keys(PAGE_TEXTS).sort());
    for (const [key, english] of Object.entries(PAGE_TEXTS) as Array<[PageTextKey, string]>) {
      const text = table[key] ?? '';
      expect(text.trim(), `${code}.${key}`).not.toBe('');
      expect(placeholdersOf(text), `${code}.${key}`).toEqual(placeholdersOf(english));
      const allowed = SAME_AS_ENGLISH.some(([c, k]) => c === code && k === key);
      if (allowed) expect(text, `${code}.${key} is listed as equal to English`).toBe(english);
      else expect(text, `${code}.${key}`).not.toBe(english);
      // No English label hides inside a translation (whole words: "Resultado" is Spanish).
      for (const word of ['Shared', 'snapshot', 'Thinking', 'Workspace', 'Started', 'Attached', 'Result', 'not found', 'owner', 'link may']) {
        expect(text.replace(/\{\w+\}/g, ''), `${code}.${key}`).not.toMatch(new RegExp(`\\b${word}\\b`, 'i'));
      }
    }
  });

  it('fills placeholders in any order and escapes only the text around them', () => {
    expect(fillText('{b} then {a}', { a: '1', b: '2' })).toBe('2 then 1');
    expect(fillText('<{x}>', { x: '<bdi>v</bdi>' }, (s) => s.replace(/</g, '&lt;').replace(/>/g, '&gt;'))).toBe('&lt;<bdi>v</bdi>&gt;');
    expect(pageTexts('de').thinking).toBe('Denkt nach');
    expect(pageTexts('en')).toBe(PAGE_TEXTS);
  });
});

describe('Accept-Language', () => {
  it('orders tags by q-value, keeps the order of equal weights and drops q=0, * and junk', () => {
    expect(acceptedLanguages('de;q=0.5, fr-CH, fr;q=0.9, en;q=0.9, *;q=0.1, x!y, it;q=0')).toEqual(['fr-CH', 'fr', 'en', 'de']);
    expect(acceptedLanguages('')).toEqual([]);
    expect(acceptedLanguages(undefined)).toEqual([]);
    expect(acceptedLanguages(' ja ; q = 0.8 , ko')).toEqual(['ko', 'ja']);
  });

  it('chooses the exact tag, then the base language, maps Chinese regions, else English', () => {
    const pick = (header: string, setting: string | null = null) => chooseLocale(setting, acceptedLanguages(header));
    expect(pick('xx, pt-BR;q=0.8, de;q=0.9')).toBe('de');
    expect(pick('xx, pt-BR;q=0.8')).toBe('pt');
    expect(pick('zh-TW')).toBe('zh-Hant');
    expect(pick('zh-HK,zh;q=0.5')).toBe('zh-Hant');
    expect(pick('zh-Hant-TW')).toBe('zh-Hant');
    expect(pick('zh-CN')).toBe('zh');
    expect(pick('xx, yy')).toBe('en');
    expect(pick('fr;q=0, it')).toBe('it');
    expect(pick('de', 'ja')).toBe('ja');
    expect(pick('de', 'auto')).toBe('de');
  });
});
