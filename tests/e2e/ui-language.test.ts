import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUi, type UiHarness } from '../helpers/browser.js';

const title = 'hermes-app .topbar .title';
const settingsButton = '[data-role="open-settings"]';

describe('language in the browser', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi({ env: { HERMES_WEBUI_SKIP_ONBOARDING: '1' } });
  });
  afterAll(async () => {
    await ui?.close();
  });

  it('Settings → Language switches without a reload, the next visit paints in it from the first frame, Arabic mirrors the page', async () => {
    const { page } = await ui.open('/');
    await expect.poll(() => page.locator(title).textContent()).toBe('New chat');
    await page.locator(settingsButton).click();
    await page.locator('[data-role="language"]').selectOption('de');
    await expect.poll(() => page.locator(title).textContent()).toBe('Neuer Chat');
    expect(await page.locator(settingsButton).getAttribute('aria-label')).toBe('Einstellungen');
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['de', 'ltr']);
    // Stored as the incumbent's `language` setting.
    await expect.poll(async () => (await ui.api('/api/settings')).language).toBe('de');

    // Every title the top bar ever shows on the next load: none in English, not even before the settings arrive.
    await page.addInitScript(() => {
      (window as any).__titles = [];
      new MutationObserver(() => {
        const el = document.querySelector('hermes-app')?.shadowRoot?.querySelector('.topbar .title');
        const t = el?.textContent;
        if (t && (window as any).__titles.at(-1) !== t) (window as any).__titles.push(t);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    });
    await page.reload();
    await expect.poll(() => page.locator(title).textContent()).toBe('Neuer Chat');
    expect(await page.evaluate(() => (window as any).__titles)).not.toContain('New chat');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');

    await page.locator(settingsButton).click();
    await page.locator('[data-role="language"]').selectOption('ar');
    await expect.poll(() => page.locator(title).textContent()).toBe('محادثة جديدة');
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    await page.keyboard.press('Escape');
    await ui.screenshot(page, 'language-ar-rtl');

    // Automatic: the browser's language (Chromium here speaks en-US).
    await page.locator(settingsButton).click();
    await page.locator('[data-role="language"]').selectOption('auto');
    await expect.poll(() => page.locator(title).textContent()).toBe('New chat');
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['en', 'ltr']);
  });
});
