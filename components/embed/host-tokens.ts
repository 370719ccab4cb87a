// The design tokens and skins, re-scoped from the document (`:root`) to an element's shadow root
// (`:host`), so an embedded <hermes-chat> carries them without touching the page's styles.
// The embed build loads .css files as text.
import tokensCss from '../styles/tokens.css';
import skinsCss from '../styles/skins.css';

/**
 * `:root[data-theme='light']` → `:host([data-theme='light'])` (every attribute of a compound
 * selector goes inside), `:root` → `:host`; rules for the page itself (html, body) are dropped.
 *
 * @example
 * hostTokens(":root[data-skin='mono'][data-theme='light'] { --x: 1 }") // ":host([data-skin='mono'][data-theme='light']) { --x: 1 }"
 */
export function hostTokens(css: string): string {
  return css
    .replace(/(^|\n)\s*html\s*,\s*body\s*\{[^}]*\}/g, '$1')
    .replace(/:root((?:\[[^\]]+\])+)/g, ':host($1)')
    .replace(/:root\b/g, ':host');
}

export const embedTokensCss: string = hostTokens(`${String(tokensCss)}\n${String(skinsCss)}`);
