/**
 * The skins' names alone, in the picker's order: what the app shell needs (`/theme <skin>`)
 * without the labels and hints of skins.ts, which only the lazy settings chunk loads.
 */
export const SKIN_IDS = ['default', 'geist-contrast', 'paper', 'mono', 'slate', 'poseidon', 'solarized', 'catppuccin', 'okabe-ito'] as const;

export type SkinId = (typeof SKIN_IDS)[number];
