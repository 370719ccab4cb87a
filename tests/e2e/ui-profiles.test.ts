import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepText, startUi, type UiHarness } from '../helpers/browser.js';

const titles = (page: Page) => page.locator('[data-role="session-row"] .title').allTextContents();

/**
 * A person makes a second Hermes profile from the Profiles panel, works in it (the chip and the
 * sidebar follow), looks at every profile's chats, is told why the active one cannot be
 * deleted, goes back to default and deletes it.
 */
describe('web app: profiles', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(async () => ui?.close());

  it('creates, switches (kept over a reload), lists all profiles, refuses then deletes a profile', async () => {
    const { page } = await ui.open('/panel/profiles');
    const rows = page.locator('[data-role="profile-row"]');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-profile')).toBe('default');
    const importChat = (title: string) =>
      page.request.post(`${ui.server.url}/api/session/import`, { data: { title, messages: [{ role: 'user', content: `hello from ${title}` }] } });
    await importChat('Default chat');

    await page.locator('[data-role="profile-name"]').fill('work');
    await page.locator('[data-role="profile-create-submit"]').click();
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(1).getAttribute('data-profile')).toBe('work');
    expect((await stat(join(ui.home, '.hermes', 'profiles', 'work', 'memories'))).isDirectory()).toBe(true);

    await page.locator('[data-role="profile-row"][data-profile="work"] [data-role="profile-switch"]').click();
    await expect.poll(() => page.locator('[data-role="profile-row"][data-active]').getAttribute('data-profile')).toBe('work');
    await importChat('Work chat');

    // The choice is the browser's cookie: a reload opens the chat in the same profile.
    await page.goto(`${ui.server.url}/`);
    const chip = page.locator('[data-role="profile-chip"]');
    await expect.poll(() => chip.getAttribute('data-profile')).toBe('work');
    await expect.poll(() => titles(page)).toEqual(['Work chat']);

    const all = page.locator('[data-role="all-profiles"]');
    await all.click();
    await expect.poll(() => titles(page)).toEqual(['Work chat', 'Default chat']);
    expect(await deepText(page.locator('[data-role="row-profile"]'))).toBe('default');
    await all.click();
    await expect.poll(() => titles(page)).toEqual(['Work chat']);

    await page.goto(`${ui.server.url}/panel/profiles`);
    const work = page.locator('[data-role="profile-row"][data-profile="work"]');
    await work.locator('[data-role="profile-delete"]').click();
    await work.locator('[data-role="profile-delete-confirm"]').click();
    await expect.poll(() => deepText(page.locator('[data-role="profile-error"]'))).toContain('switch to default first');
    expect(await rows.count()).toBe(2);
    await ui.screenshot(page, 'panel-profiles');

    await page.locator('[data-role="profile-row"][data-profile="default"] [data-role="profile-switch"]').click();
    await expect.poll(() => page.locator('[data-role="profile-row"][data-active]').getAttribute('data-profile')).toBe('default');
    await work.locator('[data-role="profile-delete"]').click();
    await work.locator('[data-role="profile-delete-confirm"]').click();
    await expect.poll(() => rows.count()).toBe(1);
    await expect(stat(join(ui.home, '.hermes', 'profiles', 'work'))).rejects.toThrow();

    // Only default left: no chip, no toggle; default's chats.
    await page.goto(`${ui.server.url}/`);
    await expect.poll(() => titles(page)).toEqual(['Default chat']);
    expect(await chip.count()).toBe(0);
    expect(await all.count()).toBe(0);
  });
});
