import { chooseLocale, directionOf } from '../i18n/locales.js';
import { switchLocale } from '../i18n/localization.js';

/**
 * The language of `<hermes-chat>`: the host page's `lang` (on the element or its nearest
 * ancestor, up to `<html>`), else the browser's languages, else English. It follows later
 * `lang` changes and writes nothing to the page: no `<html lang>`, no storage. The element's own
 * `dir` follows the language unless the page set one on it.
 */
export function embedLanguage(host: HTMLElement): { connect(): void; disconnect(): void } {
  let observer: MutationObserver | null = null;
  let ownDir = false;
  const apply = () => {
    const code = chooseLocale(host.closest('[lang]')?.getAttribute('lang') || null, navigator.languages);
    if (ownDir || !host.hasAttribute('dir')) {
      host.dir = directionOf(code);
      ownDir = true;
    }
    void switchLocale(code);
  };
  return {
    connect() {
      apply();
      observer = new MutationObserver(apply);
      observer.observe(document.documentElement, { attributes: true, attributeFilter: ['lang'], subtree: true });
    },
    disconnect() {
      observer?.disconnect();
      observer = null;
    },
  };
}
