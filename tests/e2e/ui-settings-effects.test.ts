import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';

const FILLER = 'Line of a long answer that takes room in the transcript. '.repeat(60);
const setting = (key: string) => `${hooks.settings} [data-role="setting-${key}"]`;

async function turn(ui: UiHarness, page: Page, text: string, reply: string, slow = false) {
  ui.model.enqueue([
    ...(slow ? [{ delayMs: 400 }, { text: `${reply} ` }, { delayMs: 300 }] : []),
    { text: `${reply} ${FILLER}` },
    { usage: { inputTokens: 200, outputTokens: 120 } },
  ]);
  await page.locator(hooks.composer).fill(text);
  await page.locator(hooks.send).click();
  await expect.poll(async () => (await deepText(page.locator(hooks.message('assistant')).last()))?.includes(reply), { timeout: 15_000 }).toBe(true);
  await expect.poll(() => page.locator(hooks.send).count()).toBe(1);
}

/** How far the transcript is from its bottom, in pixels. */
const fromBottom = (page: Page) =>
  page.locator('hermes-transcript').evaluate((el) => {
    const s = el.shadowRoot!.querySelector<HTMLElement>('.scroller')!;
    return s.scrollHeight - s.scrollTop - s.clientHeight;
  });
const scrollTop = (page: Page) => page.locator('hermes-transcript').evaluate((el) => el.shadowRoot!.querySelector<HTMLElement>('.scroller')!.scrollTop);

/** Settings flipped in the dialog change the chat and the sidebar at once, and after a reload. */
describe('web app: settings that do something', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(async () => ui?.close());

  it('density, user markdown, jump buttons, tokens per second and auto-scroll follow the Settings dialog and survive a reload', async () => {
    const { page } = await ui.open('/');
    // The empty chat's starters, until hidden.
    await expect.poll(() => page.locator('[data-role="suggestion"]').count()).toBe(3);
    await ui.api('/api/settings', { hide_empty_state_suggestions: true });
    await page.reload();
    await expect.poll(() => page.locator('[data-role="empty-suggestions"]').count()).toBe(0);

    await turn(ui, page, 'First, with **bold** words', 'answer-one');
    await turn(ui, page, 'Second question', 'answer-two');
    await turn(ui, page, 'Third question', 'answer-three');
    const firstUser = page.locator(hooks.message('user')).first();
    expect(await firstUser.locator('[data-format="plain"]').count()).toBe(1);
    expect(await page.locator('[data-role="session-meta"]').count()).toBe(0);
    expect(await page.locator('[data-role="turn-usage"] [data-field="tps"]').count()).toBe(0);
    expect(await page.locator('[data-role="session-jump-buttons"]').count()).toBe(0);

    await page.locator('[data-role="open-settings"]').click();
    await expect.poll(() => page.locator(hooks.settings).count()).toBe(1);
    await page.locator(setting('sidebar_density')).selectOption('detailed');
    await page.locator(setting('render_user_markdown')).check();
    await page.locator(setting('session_jump_buttons')).check();
    await page.locator(setting('show_tps')).check();
    await page.locator(setting('auto_scroll_follow')).uncheck();
    await expect
      .poll(() => ui.api('/api/settings'))
      .toMatchObject({ sidebar_density: 'detailed', render_user_markdown: true, session_jump_buttons: true, show_tps: true, auto_scroll_follow: false });
    await ui.screenshot(page, 'settings-effects-dialog');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator(hooks.settings).count()).toBe(0);

    const check = async (answers: number) => {
      await expect.poll(() => firstUser.locator('[data-format="markdown"]').count()).toBe(1);
      await expect.poll(() => deepText(firstUser.locator('hermes-markdown'))).toContain('bold');
      expect(await firstUser.locator('hermes-markdown strong').count()).toBe(1);
      await expect.poll(() => deepText(page.locator('[data-role="session-meta"]').first())).toMatch(/^\d+ messages/);
      await expect.poll(() => page.locator('[data-role="turn-usage"] [data-field="tps"]').count()).toBe(answers);
      await expect.poll(() => page.locator('[data-role="session-jump-buttons"]').count()).toBe(1);
    };
    await check(3);
    // Detailed rows are taller than compact ones.
    expect((await page.locator(hooks.sessionRow).first().boundingBox())!.height).toBeGreaterThanOrEqual(44);

    // Jump buttons: up to the previous message of the user, down again.
    // (The tokens-per-second lines grew the answers after following was turned off: to the bottom by hand.)
    await page.locator('hermes-transcript').evaluate((el) => {
      const s = el.shadowRoot!.querySelector<HTMLElement>('.scroller')!;
      s.scrollTop = s.scrollHeight;
    });
    await expect.poll(() => fromBottom(page)).toBeLessThan(60);
    const bottom = await scrollTop(page);
    await page.locator('[data-role="jump-prev-user"]').click();
    await expect.poll(() => scrollTop(page)).toBeLessThan(bottom - 100);
    const third = await scrollTop(page);
    await page.locator('[data-role="jump-prev-user"]').click();
    await expect.poll(() => scrollTop(page)).toBeLessThan(third - 100);
    await page.locator('[data-role="jump-next-user"]').click();
    await expect.poll(async () => Math.abs((await scrollTop(page)) - third)).toBeLessThan(8);

    // Auto-scroll off: the view stays where the answer began instead of following it down.
    await turn(ui, page, 'Fourth question', 'answer-four', true);
    expect(await fromBottom(page)).toBeGreaterThan(200);
    await ui.screenshot(page, 'settings-effects');

    await page.reload();
    await expect.poll(() => page.locator(hooks.message('user')).count()).toBe(4);
    await check(4);
    expect((await ui.api('/api/settings')).auto_scroll_follow).toBe(false);

    // Right-to-left: the chat (messages and composer) turns, the sidebar does not.
    await ui.api('/api/settings', { rtl: true });
    await page.reload();
    await expect.poll(() => page.locator('hermes-chat-view').getAttribute('dir')).toBe('rtl');
    expect(await page.locator(hooks.composer).evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    expect(
      await page
        .locator(hooks.sessionRow)
        .first()
        .evaluate((el) => getComputedStyle(el).direction),
    ).toBe('ltr');
  }, 180_000);
});
