import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';
import { isTitleRequest } from '../helpers/chat.js';

const divider = '[data-role="compression-divider"]';

/** `/compress <focus>` in Chromium: the job runs, the divider shows, and the next turn reads the summary. */
describe('web app: manual compression', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(async () => ui?.close());

  it('compresses from the composer and shows the divider before the kept exchange', async () => {
    const { page } = await ui.open('/');
    for (const n of [1, 2]) {
      ui.model.enqueue([{ text: `reply number ${n}` }]);
      await page.locator(hooks.composer).fill(`message number ${n}`);
      await page.locator(hooks.send).click();
      await expect.poll(async () => (await deepText(page.locator(hooks.message('assistant')).last()))?.includes(`reply number ${n}`)).toBe(true);
      await expect.poll(() => page.locator(hooks.send).count()).toBe(1);
    }
    expect(await page.locator(divider).count()).toBe(0);
    ui.model.enqueue([{ text: 'SUMMARY: the first message was answered.' }]);
    await page.locator(hooks.composer).fill('/compress the first message');
    await page.locator(hooks.send).click();
    await expect.poll(() => page.locator(divider).count(), { timeout: 10_000 }).toBe(1);
    // The divider sits right before the kept exchange (the second user message).
    const next = page.locator(`${divider} + [data-role="message"]`);
    expect(await next.getAttribute('data-message-role')).toBe('user');
    expect(await deepText(next)).toContain('message number 2');
    const summaryRequest = ui.model.requests.filter((r) => !isTitleRequest(r)).at(-1)!;
    expect(summaryRequest.body.messages[0].content).toContain('the first message');
    await ui.screenshot(page, 'manual-compression-divider');

    ui.model.enqueue([{ text: 'reply number 3' }]);
    await page.locator(hooks.composer).fill('message number 3');
    await page.locator(hooks.send).click();
    await expect.poll(async () => (await deepText(page.locator(hooks.message('assistant')).last()))?.includes('reply number 3')).toBe(true);
    const sent = JSON.stringify(ui.model.requests.filter((r) => !isTitleRequest(r)).at(-1)!.body.messages);
    expect(sent).toContain('SUMMARY: the first message was answered.');
    expect(sent).not.toContain('reply number 1');
    // The divider stays after the turn settles and after a reload.
    await page.reload();
    await expect.poll(() => page.locator(divider).count()).toBe(1);
  });
});
