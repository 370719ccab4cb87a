import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';
import { KEY, leaked } from '../helpers/secrets.js';

const toast = '.toast[role="status"]';

/** Share links as a person makes and stops them in Chromium, and the page as a reader without JavaScript sees it. */
describe('web app: share links', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(async () => ui?.close());

  it('shares a chat from its menu, the page reads with JavaScript off, and a stopped link is gone', async () => {
    const { page } = await ui.open('/');
    ui.model.enqueue([{ text: 'The capital of France is **Paris**.' }]);
    await page.locator(hooks.composer).fill(`What is the capital of France? my key ${KEY}`);
    await page.locator(hooks.send).click();
    await expect.poll(async () => deepText(page.locator(hooks.message('assistant')).last())).toContain('Paris');
    await expect.poll(() => page.locator(hooks.send).count()).toBe(1);

    const row = page.locator(hooks.sessionRow).first();
    await row.hover();
    await row.locator('[data-role="row-menu-button"]').click();
    await page.locator('hermes-session-menu [data-action="share"]:not([disabled])').click();
    await expect.poll(() => page.locator(toast).textContent()).toContain('/share/');
    const link = /(http:\/\/\S+\/share\/[A-Za-z0-9_-]+)/.exec((await page.locator(toast).textContent()) ?? '')![1]!;
    expect(link.startsWith(ui.server.url)).toBe(true);

    // A reader with JavaScript disabled, no cookies of the app: the whole conversation is there.
    const reader = await ui.browser.newContext({ javaScriptEnabled: false });
    try {
      const shared = await reader.newPage();
      const res = await shared.goto(link);
      expect(res!.status()).toBe(200);
      expect(res!.headers()['x-robots-tag']).toBe('noindex, nofollow');
      expect(await shared.locator('meta[name="robots"]').getAttribute('content')).toBe('noindex, nofollow');
      const body = (await shared.locator('body').textContent()) ?? '';
      expect(body).toContain('What is the capital of France?');
      expect(body).toContain('Paris');
      expect(await shared.locator('strong').first().textContent()).toBe('Paris');
      expect(leaked(await shared.content())).toEqual([]);
      expect(await shared.locator('script').count()).toBe(0);
      await ui.screenshot(shared, 'share-page-no-js');

      // The user's bubble sits at the inline end: the right in English, the left in Arabic (logical CSS).
      const bubbleCentre = async () => {
        const box = (await shared.locator('.user .bubble').first().boundingBox())!;
        return box.x + box.width / 2 - shared.viewportSize()!.width / 2;
      };
      expect(await bubbleCentre()).toBeGreaterThan(0);
      const arabic = await shared.goto(`${link}?lang=ar`);
      expect(arabic!.headers()['content-language']).toBe('ar');
      expect(await shared.locator('html').getAttribute('dir')).toBe('rtl');
      expect(await bubbleCentre()).toBeLessThan(0);
      expect(await shared.locator('.meta').textContent()).toContain('بدأت في');
      await ui.screenshot(shared, 'share-page-rtl');

      // The menu now offers copy and stop; stopping kills the link.
      await row.hover();
      await row.locator('[data-role="row-menu-button"]').click();
      await page.locator('hermes-session-menu [data-action="copy-share"]').click();
      await expect.poll(() => page.locator(toast).last().textContent()).toContain(link);
      await row.hover();
      await row.locator('[data-role="row-menu-button"]').click();
      await page.locator('hermes-session-menu [data-action="unshare"]').click();
      await expect.poll(() => page.locator(toast).last().textContent()).toContain('stopped');
      const after = await shared.goto(link);
      expect(after!.status()).toBe(404);
      expect(await shared.locator('h1').textContent()).toBe('Shared conversation not found');
    } finally {
      await reader.close();
    }
  });
});
