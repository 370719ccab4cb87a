import type { LocaleCode } from './locales.js';
import { PAGE_TRANSLATIONS } from './page-translations.js';

/**
 * The texts of the pages the server writes itself (a share link's page, its not-found page and
 * the HTML export, src/domain/session-html.ts), in English. `{name}` marks where a value goes;
 * a translation (page-translations.ts) keeps the same placeholders and may move them. Runtime
 * free (Node and Workers alike); the language is chosen with src/shared/locales.ts.
 */
export const PAGE_TEXTS = {
  sharedNote: 'Shared read-only snapshot · {date}',
  notFoundTitle: 'Not found',
  notFoundHeading: 'Shared conversation not found',
  notFoundBody: 'The link may have been stopped by its owner.',
  untitled: 'Untitled',
  compressed: 'Earlier messages compressed into a summary',
  attached: 'Attached: {names}',
  thinking: 'Thinking',
  tool: 'Tool · {name}',
  result: 'Result · {name}',
  model: 'Model {model}',
  workspace: 'Workspace {workspace}',
  started: 'Started {time} UTC',
  // A count picks one of two texts by number, as the web app does (languages that decline by
  // number put the count after a label instead).
  message: '{count} message',
  messages: '{count} messages',
} as const;

export type PageTextKey = keyof typeof PAGE_TEXTS;
export type PageTexts = Readonly<Record<PageTextKey, string>>;

const PLACEHOLDER = /\{(\w+)\}/g;

/** The placeholders a text names, sorted (a translation must name the same ones). */
export const placeholdersOf = (text: string): string[] => [...text.matchAll(PLACEHOLDER)].map((m) => m[1] ?? '').sort();

/** The table for a language; English where a language lacks one (the test forbids that). */
export const pageTexts = (locale: LocaleCode): PageTexts => (locale === 'en' ? PAGE_TEXTS : { ...PAGE_TEXTS, ...PAGE_TRANSLATIONS[locale] });

/**
 * A text with its values in place. `around` is applied to the text around the values only, so a
 * caller writing HTML passes values it has already escaped (or marked up).
 */
export function fillText(text: string, values: Readonly<Record<string, string>> = {}, around: (s: string) => string = (s) => s): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    out += around(text.slice(last, m.index));
    out += values[m[1] ?? ''] ?? '';
    last = (m.index ?? 0) + m[0].length;
  }
  return out + around(text.slice(last));
}
