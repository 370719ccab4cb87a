/** The locale list and chooser live with the server's pages, so there is one list (src/shared/locales.ts). */
export { LOCALES, SOURCE_LOCALE, TARGET_LOCALES, acceptedLanguages, chooseLocale, directionOf, type LocaleCode } from '../../src/shared/locales.js';
