import type { SkinId } from '../../src/shared/skins.js';

/** What the skin picker previews: background, panel, text and accent of a skin's variant. */
export type Swatch = readonly [bg: string, panel: string, fg: string, accent: string];

const TOKENS = ['--hermes-color-neutral', '--hermes-color-surface', '--hermes-color-primary', '--hermes-color-secondary'] as const;

/** The declarations of each top-level `:root…` rule of the page's own sheets (tokens.css, skins.css), by selector. */
function rootRules(): Map<string, CSSStyleDeclaration[]> {
  const rules = new Map<string, CSSStyleDeclaration[]>();
  for (const sheet of Array.from(document.styleSheets)) {
    let list: CSSRuleList;
    try {
      list = sheet.cssRules;
    } catch {
      continue; // another origin's sheet: not ours
    }
    for (const rule of Array.from(list)) {
      if (!(rule instanceof CSSStyleRule)) continue;
      for (const selector of rule.selectorText.split(',')) {
        const key = selector.trim().replace(/'/g, '"');
        rules.set(key, [...(rules.get(key) ?? []), rule.style]);
      }
    }
  }
  return rules;
}

/**
 * Each skin's swatch for a variant, read from the stylesheets the page has (so a skin's colours
 * are written once, in skins.css). A token the variant's rule leaves out comes from where the
 * cascade would take it: the skin's dark rule, then Calm Console's rule for the variant, then its
 * dark one (skins.css follows tokens.css, so a skin's rule wins at equal specificity).
 */
export function skinSwatches(skins: readonly SkinId[], variant: 'dark' | 'light'): Map<SkinId, Swatch> {
  const rules = rootRules();
  const light = '[data-theme="light"]';
  const out = new Map<SkinId, Swatch>();
  for (const skin of skins) {
    const own = skin === 'default' ? [] : [`:root[data-skin="${skin}"]`];
    const chain = variant === 'light' ? [...own.map((s) => `${s}${light}`), ...own, `:root${light}`, ':root'] : [...own, ':root'];
    const value = (token: string) => {
      for (const selector of chain) {
        for (const style of [...(rules.get(selector) ?? [])].reverse()) {
          const v = style.getPropertyValue(token).trim();
          if (v) return v;
        }
      }
      return '';
    };
    out.set(skin, TOKENS.map(value) as unknown as Swatch);
  }
  return out;
}
