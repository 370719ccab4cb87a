/**
 * Reads the skins as the browser would: the declarations of tokens.css and skins.css that apply
 * to `<html data-skin=… data-theme=…>`, with var() and color-mix() resolved, and the WCAG 2.x
 * contrast of the pairs the components draw text and controls with.
 */

type Block = { selector: string; media: string | null; decls: Map<string, string> };

/** The top-level and @media rule blocks of a stylesheet (no nesting beyond one @media). */
export function parseBlocks(css: string): Block[] {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const blocks: Block[] = [];
  const walk = (src: string, media: string | null) => {
    let i = 0;
    while (i < src.length) {
      const open = src.indexOf('{', i);
      if (open < 0) break;
      const head = src.slice(i, open).trim();
      let depth = 1;
      let j = open + 1;
      while (j < src.length && depth) {
        if (src[j] === '{') depth++;
        else if (src[j] === '}') depth--;
        j++;
      }
      const body = src.slice(open + 1, j - 1);
      if (head.startsWith('@media')) walk(body, head.slice(6).trim());
      else {
        const decls = new Map<string, string>();
        for (const d of body.split(';')) {
          const at = d.indexOf(':');
          if (at > 0) decls.set(d.slice(0, at).trim(), d.slice(at + 1).trim());
        }
        for (const selector of head.split(',')) blocks.push({ selector: selector.trim(), media, decls });
      }
      i = j;
    }
  };
  walk(text, null);
  return blocks;
}

/** The attributes a `:root[a='x'][b='y']` selector requires; null for a selector not on :root. */
function rootAttributes(selector: string): Map<string, string> | null {
  const m = /^:root((?:\[[^\]]+\])*)$/.exec(selector);
  if (!m) return null;
  const attrs = new Map<string, string>();
  for (const a of m[1]!.matchAll(/\[([\w-]+)=['"]?([^'"\]]+)['"]?\]/g)) attrs.set(a[1]!, a[2]!);
  return attrs;
}

/**
 * The custom properties on `<html>` for a skin and scheme, cascaded by specificity then order.
 * `system` follows the light @media blocks when `prefersLight`.
 */
export function tokensFor(blocks: Block[], skin: string, theme: 'dark' | 'light' | 'system', prefersLight = false): Map<string, string> {
  const html = new Map([
    ['data-skin', skin],
    ['data-theme', theme],
  ]);
  const applying = blocks
    .map((b, order) => ({ b, order, attrs: rootAttributes(b.selector) }))
    .filter(({ attrs }) => attrs && [...attrs].every(([k, v]) => html.get(k) === v))
    .filter(({ b }) => b.media === null || (b.media.includes('prefers-color-scheme: light') && prefersLight))
    .sort((x, y) => x.attrs!.size - y.attrs!.size || x.order - y.order);
  const out = new Map<string, string>();
  for (const { b } of applying) for (const [k, v] of b.decls) if (k.startsWith('--')) out.set(k, v);
  return out;
}

export type Rgba = { r: number; g: number; b: number; a: number };

function hex(v: string): Rgba | null {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(v.trim());
  if (!m) return null;
  const h = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join('') : m[1]!;
  return { r: Number.parseInt(h.slice(0, 2), 16), g: Number.parseInt(h.slice(2, 4), 16), b: Number.parseInt(h.slice(4, 6), 16), a: 1 };
}

/** A token's colour: a hex value, a var() of one, or color-mix(in srgb, X p%, transparent|Y). */
export function colourOf(tokens: Map<string, string>, value: string, depth = 0): Rgba {
  if (depth > 20) throw new Error(`var() loop at ${value}`);
  const v = value.trim();
  const direct = hex(v);
  if (direct) return direct;
  if (v === 'transparent') return { r: 0, g: 0, b: 0, a: 0 };
  const ref = /^var\((--[\w-]+)\)$/.exec(v);
  if (ref) {
    const next = tokens.get(ref[1]!);
    if (next === undefined) throw new Error(`${ref[1]} is not defined`);
    return colourOf(tokens, next, depth + 1);
  }
  const mix = /^color-mix\(in srgb,\s*(.+?)\s+(\d+(?:\.\d+)?)%\s*,\s*(.+)\)$/.exec(v);
  if (mix) {
    const p = Number(mix[2]) / 100;
    const a = colourOf(tokens, mix[1]!, depth + 1);
    const b = colourOf(tokens, mix[3]!, depth + 1);
    // Premultiplied interpolation, as CSS Color 5 mixes.
    const alpha = a.a * p + b.a * (1 - p);
    const ch = (k: 'r' | 'g' | 'b') => (alpha ? (a[k] * a.a * p + b[k] * b.a * (1 - p)) / alpha : 0);
    return { r: ch('r'), g: ch('g'), b: ch('b'), a: alpha };
  }
  throw new Error(`not a colour this check reads: ${v}`);
}

/** `top` painted over an opaque `bottom`. */
export function over(top: Rgba, bottom: Rgba): Rgba {
  const k = (c: 'r' | 'g' | 'b') => top[c] * top.a + bottom[c] * (1 - top.a);
  return { r: k('r'), g: k('g'), b: k('b'), a: 1 };
}

function luminance(c: Rgba): number {
  const lin = (x: number) => {
    const s = x / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}

export function contrast(a: Rgba, b: Rgba): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/**
 * What must be legible: [foreground, background, minimum]. Text 4.5:1 (WCAG 1.4.3); the
 * focus ring and the accent that marks the chosen option 3:1 (1.4.11). --hermes-fg-faint
 * (placeholders, disabled controls) and --hermes-border-subtle (separators beside other cues)
 * are left out: WCAG exempts inactive controls and decoration.
 */
export const PAIRS: Array<[string, string, number]> = [
  ...['--hermes-bg', '--hermes-panel', '--hermes-panel-subtle'].flatMap(
    (bg): Array<[string, string, number]> => [
      ['--hermes-fg', bg, 4.5],
      ['--hermes-fg-muted', bg, 4.5],
      ['--hermes-accent', bg, 4.5],
      ['--hermes-color-success', bg, 4.5],
      ['--hermes-color-warning', bg, 4.5],
      ['--hermes-color-error', bg, 4.5],
      ['--hermes-color-info', bg, 4.5],
      ['--hermes-focus-ring', bg, 3],
    ],
  ),
  ['--hermes-on-accent', '--hermes-accent', 4.5],
  ['--hermes-user-bubble-fg', '--hermes-user-bubble-bg', 4.5],
  ['--hermes-fg', '--hermes-selected', 4.5],
  ['--hermes-fg', '--hermes-hover', 4.5],
  ['--hermes-color-error', '--hermes-error-bg', 4.5],
  ['--hermes-color-warning', '--hermes-warning-bg', 4.5],
  ['--hermes-syntax-keyword', '--hermes-code-bg', 4.5],
  ['--hermes-syntax-string', '--hermes-code-bg', 4.5],
  ['--hermes-syntax-number', '--hermes-code-bg', 4.5],
  ['--hermes-syntax-title', '--hermes-code-bg', 4.5],
];

/**
 * Every pair below its minimum, as "fg on bg: 3.1 < 4.5". Translucent backgrounds (hover,
 * selected, error-bg) are painted over the page background first, translucent text over its
 * background.
 */
export function contrastFailures(tokens: Map<string, string>): string[] {
  const page = colourOf(tokens, 'var(--hermes-bg)');
  if (page.a < 1) return ['--hermes-bg is not opaque'];
  const failures: string[] = [];
  for (const [fgName, bgName, min] of PAIRS) {
    const bg = over(colourOf(tokens, `var(${bgName})`), page);
    const fg = over(colourOf(tokens, `var(${fgName})`), bg);
    const ratio = contrast(fg, bg);
    if (ratio < min) failures.push(`${fgName} on ${bgName}: ${ratio.toFixed(2)} < ${min}`);
  }
  return failures;
}

/** A skin variant's background, panel, text and accent as `#rrggbb`, as the skin picker previews them. */
export function paletteOf(blocks: Block[], skin: string, theme: 'dark' | 'light'): [bg: string, panel: string, fg: string, accent: string] {
  const t = tokensFor(blocks, skin, theme);
  const hexOf = (name: string) => {
    const c = colourOf(t, `var(${name})`);
    return `#${[c.r, c.g, c.b].map((x) => Math.round(x).toString(16).padStart(2, '0')).join('')}`;
  };
  return [hexOf('--hermes-color-neutral'), hexOf('--hermes-color-surface'), hexOf('--hermes-color-primary'), hexOf('--hermes-color-secondary')];
}

/** The blocks of tokens.css then skins.css, read from disk as the app links them. */
export async function readSkinBlocks(root: string): Promise<Block[]> {
  const { readFile } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const read = (file: string) => readFile(join(root, 'components/styles', file), 'utf8');
  return parseBlocks(`${await read('tokens.css')}\n${await read('skins.css')}`);
}
