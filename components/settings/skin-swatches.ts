import type { SkinId } from '../../src/shared/skins.js';

/** What the skin picker previews: background, panel, text and accent of each variant (skins.css; a test keeps them equal). */
export type Swatch = readonly [bg: string, panel: string, fg: string, accent: string];

export const SKIN_SWATCHES: Record<SkinId, { dark: Swatch; light: Swatch }> = {
  default: { dark: ['#0a0908', '#22333b', '#eae0d5', '#c6ac8f'], light: ['#eae0d5', '#f4eee7', '#2a2623', '#735535'] },
  'geist-contrast': { dark: ['#000000', '#111111', '#ffffff', '#fff175'], light: ['#ffffff', '#f5f5f5', '#000000', '#0037a6'] },
  paper: { dark: ['#1b1914', '#24211b', '#ece4d4', '#d9a57a'], light: ['#f6f1e7', '#fbf8f1', '#1d1a16', '#7a3e1d'] },
  mono: { dark: ['#0e0e0e', '#1c1c1c', '#e6e6e6', '#bdbdbd'], light: ['#f4f4f4', '#ffffff', '#1a1a1a', '#4a4a4a'] },
  slate: { dark: ['#0f172a', '#1e293b', '#e2e8f0', '#9fb3c8'], light: ['#f1f5f9', '#ffffff', '#0f172a', '#334155'] },
  poseidon: { dark: ['#04131f', '#0b2233', '#dcefff', '#38bdf8'], light: ['#eef7fc', '#ffffff', '#0b2233', '#0369a1'] },
  solarized: { dark: ['#002b36', '#073642', '#eee8d5', '#d4a21a'], light: ['#fdf6e3', '#fffbf0', '#073642', '#7a5a00'] },
  catppuccin: { dark: ['#1e1e2e', '#313244', '#cdd6f4', '#cba6f7'], light: ['#eff1f5', '#ffffff', '#2e3145', '#7c2fe0'] },
  'okabe-ito': { dark: ['#101418', '#1b2229', '#eef2f5', '#56b4e9'], light: ['#fafafa', '#ffffff', '#111111', '#0072b2'] },
};
