import { configureLocalization } from '@lit/localize';
import { chooseLocale, directionOf, SOURCE_LOCALE, TARGET_LOCALES } from './locales.js';
import { compile } from './compile.js';
import { type Bundle, ID_LENGTH, loaders } from './locales/loaders.js';

/**
 * The one i18n layer: @lit/localize in runtime mode. Components write English through `msg()`
 * (and `str` for values) and re-render on a switch (`@localized()`); each other language is a
 * chunk loaded only when chosen. The `language` setting and the browser's languages choose;
 * `<html lang dir>` follow, so the layout mirrors for right-to-left languages. A language comes in
 * bundles (components/i18n/locales/loaders.ts): its core when chosen, a lazily loaded screen's with
 * that screen.
 */

/** The pseudo-locale: every message accented and bracketed, so an untranslated string stands out (tests, translators). */
export const PSEUDO_LOCALE = 'en-XA';

type Templates = ReturnType<typeof compile>;

/**
 * Each language's messages as @lit/localize holds them: one table per language, the very object
 * it was handed, so a bundle merged in later is found by the next msg() without a reload.
 */
const tables = new Map<string, ReturnType<typeof shortKeyed>>();
/** The lazy bundles whose screens have loaded: a language chosen later loads them with its core. */
const wanted = new Set<Bundle>();
/** The language being switched to (its table must get a bundle asked for meanwhile too). */
let switchingTo: string | null = null;

async function merge(code: string, bundles: readonly Bundle[]): Promise<{ templates: Templates; added: boolean }> {
  let entry = tables.get(code);
  if (!entry) tables.set(code, (entry = shortKeyed()));
  const missing = bundles.filter((b) => !entry.merged.has(b));
  const index = missing.length ? await loaders[code]!() : null;
  const modules = await Promise.all(missing.map((b) => index!.bundles[b]()));
  missing.forEach((b, i) => {
    if (entry.merged.has(b)) return;
    entry.merged.add(b);
    Object.assign(entry.byPrefix, compile(modules[i]!.messages));
  });
  return { templates: entry.templates, added: missing.length > 0 };
}

/** A table keyed as the bundles are (each id's first ID_LENGTH characters), read by full id. */
function shortKeyed() {
  const byPrefix: Templates = {};
  const templates = new Proxy(byPrefix, {
    get: (table, id) => (typeof id === 'string' ? table[id.slice(0, ID_LENGTH)] : undefined),
  });
  return { byPrefix, templates, merged: new Set<Bundle>() };
}

const { getLocale, setLocale } = configureLocalization({
  sourceLocale: SOURCE_LOCALE,
  targetLocales: [...TARGET_LOCALES, PSEUDO_LOCALE],
  loadLocale: (code) => merge(code, ['core', ...wanted]) as never,
});

function switchTo(code: string): Promise<void> {
  switchingTo = code;
  const done = setLocale(code);
  void done.finally(() => {
    if (switchingTo === code) switchingTo = null;
  });
  return done;
}

/**
 * Loads a lazily loaded screen's messages (its bundle, in the language shown and the one being
 * switched to) before it renders: `Promise.all([import(screen), loadMessages(bundle)])`. Elements
 * already on the page re-render with them, as on a language switch.
 */
export async function loadMessages(bundle: Bundle): Promise<void> {
  wanted.add(bundle);
  const codes = [...new Set([getLocale(), switchingTo])].filter((c): c is string => !!c && c !== SOURCE_LOCALE);
  // A bundle that cannot load (offline before it was ever fetched) leaves its screen in English.
  const results = await Promise.all(codes.map((code) => merge(code, [bundle]).catch(() => ({ added: false }))));
  if (results.some((r) => r.added) && getLocale() !== SOURCE_LOCALE) {
    window.dispatchEvent(new CustomEvent('lit-localize-status', { detail: { status: 'ready', readyLocale: getLocale() } }));
  }
}

/**
 * A lazily loaded screen: its code and its messages, fetched together, so it first renders in
 * the language shown. Every lazy import of a screen whose files have messages outside `core` goes
 * through here (tests/i18n/i18n-layer.test.ts follows the imports to check it).
 */
export function loadScreen<T>(bundles: Bundle | readonly Bundle[], code: () => Promise<T>): Promise<T> {
  const names: readonly Bundle[] = typeof bundles === 'string' ? [bundles] : bundles;
  return Promise.all([code(), ...names.map(loadMessages)]).then(([module]) => module);
}

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
 * the messages and `<html lang dir>` together, once the language's bundles are in. Remembered for the
 * next first paint (components/prepaint.js sets lang and dir before anything renders).
 */
export function applyLanguage(setting: string | null | undefined): Promise<void> {
  const { code, dir } = localeFor(setting);
  const changes = code !== getLocale();
  const started = performance.now();
  const root = document.documentElement;
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ setting: setting ?? 'auto', code, dir }));
  } catch {
    /* storage unavailable: the next paint starts in English */
  }
  const done = switchTo(code);
  // The page turns (and mirrors) with the text, in one frame: not English laid out right to left first.
  void done.then(
    () => {
      if (getLocale() !== code) return;
      root.lang = code;
      root.dir = dir;
    },
    () => {},
  );
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
export const switchLocale = (code: string): Promise<void> => switchTo(code);
