/**
 * The skins: token sets over the `--hermes-*` palette (components/styles/skins.css), each with a
 * dark and a light variant, chosen by the `skin` setting (the incumbent's key). Names the
 * incumbent also has keep its spelling, so one settings.json serves both. The ids, in this
 * order, are skin-ids.ts (a test keeps them equal).
 */
import { SKIN_IDS, type SkinId } from './skin-ids.js';

export { SKIN_IDS, type SkinId };

export const SKINS: ReadonlyArray<{ id: SkinId; label: string; hint: string }> = [
  { id: 'default', label: 'Calm Console', hint: 'Warm ink and parchment' },
  { id: 'geist-contrast', label: 'High contrast', hint: 'Black, white and one bright accent' },
  { id: 'paper', label: 'Paper', hint: 'Ink on warm paper' },
  { id: 'mono', label: 'Mono', hint: 'Greys only' },
  { id: 'slate', label: 'Slate', hint: 'Cool blue-grey' },
  { id: 'poseidon', label: 'Poseidon', hint: 'Deep sea blue' },
  { id: 'solarized', label: 'Solarized', hint: 'Schoonover’s base tones, tuned for contrast' },
  { id: 'catppuccin', label: 'Catppuccin', hint: 'Mocha at night, Latte by day' },
  { id: 'okabe-ito', label: 'Colour-blind safe', hint: 'Okabe–Ito hues: status stays distinct without red/green' },
];

/**
 * The incumbent's skin names this project has no token set for: accepted and kept as they are
 * (the incumbent shows them again), drawn here with the default tokens.
 */
export const INCUMBENT_ONLY_SKINS = [
  'ares',
  'graphite',
  'github',
  'codex',
  'terracotta',
  'sisyphus',
  'charizard',
  'sienna',
  'hepburn',
  'nous',
  'neon',
  'neon-soft',
  'neon-paint',
  'zeus',
  'verdigris',
] as const;

/** Every name the `skin` setting stores. */
export const KNOWN_SKINS: readonly string[] = [...SKINS.map((s) => s.id), ...INCUMBENT_ONLY_SKINS];

/** The skin drawn for a stored name: ours, or the default for one only the incumbent draws. */
export function drawnSkin(name: unknown): SkinId {
  return SKINS.find((s) => s.id === name)?.id ?? 'default';
}
