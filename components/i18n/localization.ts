import { configureLocalization } from '@lit/localize';
import { chooseLocale, directionOf, SOURCE_LOCALE, TARGET_LOCALES } from './locales.js';

/**
 * The one i18n layer: @lit/localize in runtime mode. Components write English through `msg()`
 * (and `str` for values) and re-render on a switch (`@localized()`); each other language is a
 * chunk loaded only when chosen. The `language` setting and the browser's languages choose;
 * `<html lang dir>` follow, so the layout mirrors for right-to-left languages.
 */

/** The pseudo-locale: every message accented and bracketed, so an untranslated string stands out (tests, translators). */
export const PSEUDO_LOCALE = 'en-XA';

type LocaleModule = { templates: Record<string, unknown> };
const loaders: Record<string, () => Promise<LocaleModule>> = {
  ar: () => import('./locales/ar.js'),
  cs: () => import('./locales/cs.js'),
  de: () => import('./locales/de.js'),
  es: () => import('./locales/es.js'),
  fr: () => import('./locales/fr.js'),
  it: () => import('./locales/it.js'),
  ja: () => import('./locales/ja.js'),
  ko: () => import('./locales/ko.js'),
  pl: () => import('./locales/pl.js'),
  pt: () => import('./locales/pt.js'),
  ru: () => import('./locales/ru.js'),
  tr: () => import('./locales/tr.js'),
  vi: () => import('./locales/vi.js'),
  zh: () => import('./locales/zh.js'),
  'zh-Hant': () => import('./locales/zh-Hant.js'),
  [PSEUDO_LOCALE]: () => import('./locales/pseudo.js'),
};

const { getLocale, setLocale } = configureLocalization({
  sourceLocale: SOURCE_LOCALE,
  targetLocales: [...TARGET_LOCALES, PSEUDO_LOCALE],
  loadLocale: (code) => loaders[code]!() as never,
});

const STORAGE_KEY = 'hermes:language';

/** The locale a `language` setting asks for here (the pseudo-locale only when named). */
export function localeFor(setting: string | null | undefined): { code: string; dir: 'ltr' | 'rtl' } {
  if (setting === PSEUDO_LOCALE) return { code: PSEUDO_LOCALE, dir: 'ltr' };
  const code = chooseLocale(setting, typeof navigator === 'undefined' ? [] : navigator.languages);
  return { code, dir: directionOf(code) };
}

let first: Promise<void> | null = null;

/**
 * Switches the app to the language a `language` setting asks for:
 * `<html lang dir>` at once, the messages when the locale's chunk is in. Remembered for the
 * next first paint (components/prepaint.js sets lang and dir before anything renders).
 */
export function applyLanguage(setting: string | null | undefined): Promise<void> {
  const { code, dir } = localeFor(setting);
  const changes = code !== getLocale();
  const started = performance.now();
  const root = document.documentElement;
  root.lang = code;
  root.dir = dir;
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ setting: setting ?? 'auto', code, dir }));
  } catch {
    /* storage unavailable: the next paint starts in English */
  }
  const done = setLocale(code);
  first ??= done;
  // A User Timing entry per switch, to the frame the re-rendered text is painted in (bench/i18n.bench.mjs reads it).
  if (changes) void done.then(() => requestAnimationFrame(() => performance.measure(`hermes:language ${code}`, { start: started })));
  return done;
}

/** The locale remembered from the last visit, applied before the settings arrive (so the first render is already translated). */
export function applyRememberedLanguage(): Promise<void> {
  let saved: { setting?: string } | null = null;
  try {
    saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null');
  } catch {
    saved = null;
  }
  return applyLanguage(saved?.setting ?? 'auto');
}

/** Resolves when the first chosen locale's messages are in (the app's first render waits for it). */
export const languageReady = (): Promise<void> => first ?? applyRememberedLanguage();

export const currentLocale = (): string => getLocale();

/** Loads a locale's messages without touching the page (`<html lang dir>`, storage): for `<hermes-chat>` on someone else's page. */
export const switchLocale = (code: string): Promise<void> => setLocale(code);
