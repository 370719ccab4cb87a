/**
 * The languages the web app and the server's pages speak (one list for both; the web app reads
 * it through components/i18n/locales.ts): English (the source, in the code) and the incumbent's
 * fourteen others, plus Arabic (right to left). `name` is the language's own name, shown in the
 * picker so a person finds theirs whatever the current language is.
 */
export const LOCALES = [
  { code: 'en', name: 'English', dir: 'ltr' },
  { code: 'ar', name: 'العربية', dir: 'rtl' },
  { code: 'cs', name: 'Čeština', dir: 'ltr' },
  { code: 'de', name: 'Deutsch', dir: 'ltr' },
  { code: 'es', name: 'Español', dir: 'ltr' },
  { code: 'fr', name: 'Français', dir: 'ltr' },
  { code: 'it', name: 'Italiano', dir: 'ltr' },
  { code: 'ja', name: '日本語', dir: 'ltr' },
  { code: 'ko', name: '한국어', dir: 'ltr' },
  { code: 'pl', name: 'Polski', dir: 'ltr' },
  { code: 'pt', name: 'Português', dir: 'ltr' },
  { code: 'ru', name: 'Русский', dir: 'ltr' },
  { code: 'tr', name: 'Türkçe', dir: 'ltr' },
  { code: 'vi', name: 'Tiếng Việt', dir: 'ltr' },
  { code: 'zh', name: '简体中文', dir: 'ltr' },
  { code: 'zh-Hant', name: '繁體中文', dir: 'ltr' },
] as const;

export type LocaleCode = (typeof LOCALES)[number]['code'];
export const SOURCE_LOCALE: LocaleCode = 'en';
export const TARGET_LOCALES = LOCALES.filter((l) => l.code !== SOURCE_LOCALE).map((l) => l.code);

const CODES = new Set<string>(LOCALES.map((l) => l.code));

/**
 * The locale for a `language` setting and the browser's languages: the setting when it names one
 * we have ("auto" or empty: the browser decides), else the first browser language we have —
 * exactly, then by its language alone ("pt-BR" → pt), with Chinese scripts and regions mapped
 * (zh-TW, zh-HK, zh-Hant-* → zh-Hant) — else English.
 */
export function chooseLocale(setting: string | null | undefined, browser: readonly string[]): LocaleCode {
  const wanted = setting && setting !== 'auto' ? [setting, ...browser] : browser;
  for (const tag of wanted) {
    const found = match(tag);
    if (found) return found;
  }
  return SOURCE_LOCALE;
}

function match(tag: string): LocaleCode | null {
  const lower = tag.toLowerCase();
  if (lower.startsWith('zh')) return /^zh-(hant|tw|hk|mo)\b/.test(lower) ? 'zh-Hant' : 'zh';
  if (CODES.has(tag)) return tag as LocaleCode;
  const base = lower.split('-')[0] ?? '';
  return CODES.has(base) ? (base as LocaleCode) : null;
}

export const directionOf = (code: LocaleCode): 'ltr' | 'rtl' => LOCALES.find((l) => l.code === code)?.dir ?? 'ltr';

/**
 * The language tags of an `Accept-Language` header, most wanted first: q-values respected (a
 * tag with q=0 is refused, equal weights keep their order), `*` and malformed entries dropped.
 */
export function acceptedLanguages(header: string | null | undefined): string[] {
  if (!header) return [];
  const tags: Array<{ tag: string; q: number; at: number }> = [];
  header.split(',').forEach((part, at) => {
    const [rawTag = '', ...params] = part.trim().split(';');
    const tag = rawTag.trim();
    if (!/^[a-zA-Z]{1,8}(-[a-zA-Z0-9]{1,8})*$/.test(tag)) return;
    let q = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p);
      if (m) q = Number(m[1]);
    }
    if (Number.isFinite(q) && q > 0) tags.push({ tag, q, at });
  });
  return tags.sort((a, b) => b.q - a.q || a.at - b.at).map((t) => t.tag);
}
