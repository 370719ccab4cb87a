import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SKIN_IDS, SKINS } from '../../src/shared/skins.js';
import { contrastFailures, parseBlocks, tokensFor } from '../helpers/skin-tokens.js';

const read = (file: string) => readFile(join(process.cwd(), 'components/styles', file), 'utf8');
const stylesheet = async () => `${await read('tokens.css')}\n${await read('skins.css')}`;
const VARIANTS = SKINS.flatMap((s) => (['dark', 'light'] as const).map((scheme) => [s.id, scheme] as const));

describe('every skin passes WCAG AA over its tokens', () => {
  it.each(VARIANTS)('%s (%s): text 4.5:1, focus ring and accent 3:1', async (skin, scheme) => {
    const blocks = parseBlocks(await stylesheet());
    expect(contrastFailures(tokensFor(blocks, skin, scheme))).toEqual([]);
  });

  it.each(SKINS.map((s) => s.id))('%s: "system" under a light preference is its light variant, and dark otherwise', async (skin) => {
    const blocks = parseBlocks(await stylesheet());
    expect(tokensFor(blocks, skin, 'system', true)).toEqual(tokensFor(blocks, skin, 'light'));
    expect(tokensFor(blocks, skin, 'system', false)).toEqual(tokensFor(blocks, skin, 'dark'));
  });

  it('each skin other than the default sets its own palette in both variants', async () => {
    const blocks = parseBlocks(await stylesheet());
    const base = { dark: tokensFor(blocks, 'none', 'dark'), light: tokensFor(blocks, 'none', 'light') };
    for (const [skin, scheme] of VARIANTS) {
      if (skin === 'default') continue;
      const t = tokensFor(blocks, skin, scheme);
      expect(t.get('--hermes-color-neutral'), `${skin} ${scheme}`).not.toBe(base[scheme].get('--hermes-color-neutral'));
      expect(t.get('--hermes-on-accent'), `${skin} ${scheme}`).toMatch(/^#/);
    }
  });

  it('fails a skin whose token is too faint, naming the pair', async () => {
    // Paper's light accent as a pale tan: links and accent text on paper drop under 4.5:1.
    const css = (await stylesheet()).replace(/(:root\[data-skin='paper'\]\[data-theme='light'\] \{[^}]*--hermes-color-secondary: )#[0-9a-f]+/, '$1#c8a27a');
    const failures = contrastFailures(tokensFor(parseBlocks(css), 'paper', 'light'));
    expect(failures.some((f) => /^--hermes-accent on --hermes-bg: [0-3]\.\d\d < 4\.5$/.test(f))).toBe(true);
    expect(failures.some((f) => f.startsWith('--hermes-focus-ring on --hermes-bg'))).toBe(true);
    // The same sheet's dark variant is untouched and still passes.
    expect(contrastFailures(tokensFor(parseBlocks(css), 'paper', 'dark'))).toEqual([]);
  });

  it('names each skin once, in the order the shell’s list (skin-ids.ts) has them', () => {
    expect(SKINS.map((s) => s.id)).toEqual([...SKIN_IDS]);
  });
});
