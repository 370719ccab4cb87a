import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';
import { SKINS } from '../../src/shared/skins.js';
import { paletteOf, readSkinBlocks } from '../helpers/skin-tokens.js';

/** Each skin variant's bg, panel, fg and accent, from the stylesheets (as the picker previews them). */
const blocks = await readSkinBlocks(process.cwd());
type Palette = ReturnType<typeof paletteOf>;
const SKIN_SWATCHES = Object.fromEntries(
  SKINS.map((s) => [s.id, { dark: paletteOf(blocks, s.id, 'dark'), light: paletteOf(blocks, s.id, 'light') }]),
) as Record<(typeof SKINS)[number]['id'], { dark: Palette; light: Palette }>;

const rgb = (hex: string) => `rgb(${[1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
const pageBg = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

/** A person picks skins in Settings → Appearance, in Chromium, against the real server. */
describe('web app: skins', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(async () => ui?.close());

  it('picking a skin recolours the open page, and a reload paints it from the first frame', async () => {
    ui.model.enqueue([{ text: 'Here is some `code` and a list:\n\n- one\n- two\n\n```js\nconst answer = 42; // the answer\n```' }]);
    const { page } = await ui.open('/');
    await page.locator(hooks.composer).fill('Show me the colours');
    await page.locator(hooks.send).click();
    await expect.poll(async () => (await deepText(page.locator(hooks.message('assistant')).last())).includes('the answer')).toBe(true);
    expect(await pageBg(page)).toBe(rgb(SKIN_SWATCHES.default.dark[0]));
    await page.evaluate(() => ((window as any).__sameDocument = true));

    await page.locator('[data-role="open-settings"]').click();
    await page.locator(hooks.settings).locator('[data-skin-option="paper"]').click();
    await expect.poll(() => pageBg(page)).toBe(rgb(SKIN_SWATCHES.paper.dark[0]));
    expect(await page.evaluate(() => [document.documentElement.dataset.skin, (window as any).__sameDocument])).toEqual(['paper', true]);
    await expect.poll(async () => (await ui.api('/api/settings')).skin).toBe('paper');
    // The browser's own bar follows: the skin's panel colour.
    const themeColor = () => page.evaluate(() => document.querySelector('meta[name="theme-color"]')?.getAttribute('content'));
    await expect.poll(themeColor).toBe(SKIN_SWATCHES.paper.dark[1]);
    await ui.screenshot(page, 'skin-picker');
    await page.keyboard.press('Escape');

    // Reloaded with the app's script held back: what shows is the pre-paint script and the CSS alone.
    // (Without the service worker, which would answer the script from its cache past the hold.)
    await page.evaluate(async () => {
      for (const r of await navigator.serviceWorker.getRegistrations()) await r.unregister();
    });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const hold = async (route: Route) => {
      await held;
      await route.continue();
    };
    await page.route(/\/assets\/main-[^/]+\.js$/, hold);
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as any).__skinsSeen = seen;
      // Runs before <html> exists: watch the document for it and its data-skin changes.
      new MutationObserver((records) => {
        for (const r of records) if (r.type === 'attributes' && r.target === document.documentElement) seen.push(document.documentElement.dataset.skin ?? '');
      }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-skin'] });
      requestAnimationFrame(() => ((window as any).__firstFrameBg = getComputedStyle(document.documentElement).backgroundColor));
    });
    await page.reload({ waitUntil: 'commit' });
    await expect.poll(() => page.evaluate(() => (window as any).__firstFrameBg ?? null)).not.toBeNull();
    expect(await page.evaluate(() => (window as any).__firstFrameBg)).toBe(rgb(SKIN_SWATCHES.paper.dark[0]));
    expect(await page.evaluate(() => customElements.get('hermes-app') === undefined), 'the app has not run yet').toBe(true);
    await ui.screenshot(page, 'skin-first-paint');
    release();
    await expect.poll(() => page.locator(hooks.composer).count()).toBe(1);
    await page.unroute(/\/assets\/main-[^/]+\.js$/, hold);
    // From the pre-paint script to the app applying the settings it loaded (a second write of the
    // same value), the page never went back to the default.
    await expect.poll(() => page.evaluate(() => (window as any).__skinsSeen.length)).toBeGreaterThanOrEqual(2);
    expect(new Set(await page.evaluate(() => (window as any).__skinsSeen))).toEqual(new Set(['paper']));
    expect(await pageBg(page)).toBe(rgb(SKIN_SWATCHES.paper.dark[0]));
    expect(await page.evaluate(() => (window as any).__cspViolations)).toEqual([]);
  });

  it.each(SKINS.flatMap((s) => (['dark', 'light'] as const).map((scheme) => [s.id, scheme] as const)))(
    '%s in %s: the built stylesheet paints its tokens (screenshot kept)',
    async (skin, scheme) => {
      await ui.api('/api/settings', { skin, theme: scheme });
      const { page, context } = await ui.open('/');
      await expect.poll(() => page.evaluate(() => document.documentElement.dataset.skin)).toBe(skin);
      await expect.poll(() => pageBg(page)).toBe(rgb(SKIN_SWATCHES[skin][scheme][0]));
      expect(await page.evaluate(() => getComputedStyle(document.body).color)).toBe(rgb(SKIN_SWATCHES[skin][scheme][2]));
      const session = (await ui.api('/api/sessions')).sessions?.[0]?.session_id;
      if (session) await page.goto(`${ui.server.url}/session/${session}`);
      await expect.poll(() => page.locator(hooks.message('assistant')).count()).toBeGreaterThan(0);
      await ui.screenshot(page, `skin-${skin}-${scheme}`);
      await context.close();
    },
  );
});
