/**
 * The browser's own bar (`<meta name="theme-color">`: the phone's status bar, an installed app's
 * title bar) in the colour of the panels of the skin and theme shown, as Calm Console's is.
 */
export function syncThemeColor(): void {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
  const colour = getComputedStyle(document.documentElement).getPropertyValue('--hermes-color-surface').trim();
  if (meta && colour) meta.content = colour;
}

// A "system" theme follows the device's dark/light switch: the bar follows too.
if (typeof matchMedia === 'function') matchMedia('(prefers-color-scheme: dark)').addEventListener('change', syncThemeColor);
