import { currentLocale as getLocale, PSEUDO_LOCALE } from './localization.js';

/**
 * Dates, numbers and relative times in the current language, through Intl (formatters are
 * made once per locale and options).
 */
const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.RelativeTimeFormat>();

function made<T extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.RelativeTimeFormat>(kind: string, options: object, make: (locale: string) => T): T {
  const locale = getLocale() === PSEUDO_LOCALE ? 'en' : getLocale();
  const key = `${kind}|${locale}|${JSON.stringify(options)}`;
  let f = cache.get(key) as T | undefined;
  if (!f) cache.set(key, (f = make(locale)));
  return f;
}

export const formatNumber = (n: number, options: Intl.NumberFormatOptions = {}): string =>
  made('n', options, (l) => new Intl.NumberFormat(l, options)).format(n);

export const formatDate = (when: Date | number, options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' }): string =>
  made('d', options, (l) => new Intl.DateTimeFormat(l, options)).format(when);

const STEPS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.35],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

/** "3 minutes ago", "in 2 days"… for `when` against `now` (both in ms), in the current language. */
export function formatRelative(when: number, now = Date.now(), style: Intl.RelativeTimeFormatStyle = 'short'): string {
  let value = (when - now) / 1000;
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size || unit === 'year') {
      return made('r', { style }, (l) => new Intl.RelativeTimeFormat(l, { numeric: 'auto', style })).format(Math.round(value), unit);
    }
    value /= size;
  }
  return '';
}
