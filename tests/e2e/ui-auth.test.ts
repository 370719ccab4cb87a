import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';

const PASSWORD = 'correct horse battery';

/** Keys in the app's offline cache (IndexedDB `hermes`/`kv`); [] when it was never created. */
function offlineKeys(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const names = (await indexedDB.databases()).map((d) => d.name);
    if (!names.includes('hermes')) return [];
    return new Promise<string[]>((resolve, reject) => {
      const open = indexedDB.open('hermes');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        if (!db.objectStoreNames.contains('kv')) return resolve([]);
        const req = db.transaction('kv', 'readonly').objectStore('kv').getAllKeys();
        req.onerror = () => reject(req.error);
        req.onsuccess = () => {
          db.close();
          resolve(req.result.map(String));
        };
      };
    });
  });
}

const status = (page: Page, path: string) => page.evaluate((p) => fetch(p).then((r) => r.status), path);
const pathAndQuery = (page: Page) => {
  const u = new URL(page.url());
  return u.pathname + u.search;
};

async function signIn(page: Page, password: string) {
  await page.locator('hermes-login input[type="password"]').fill(password);
  await page.locator('hermes-login button[type="submit"]').click();
}

async function openSecurity(page: Page) {
  await page.locator('[data-role="open-settings"]').click();
  const row = page.locator('[data-setting="password"]');
  await row.scrollIntoViewIfNeeded();
  return row;
}

/** A person in Chromium signing in to a server started with HERMES_WEBUI_PASSWORD. */
describe('web app: password sign-in', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi({ env: { HERMES_WEBUI_PASSWORD: PASSWORD } });
  });
  afterAll(async () => ui?.close());

  it('signs in back to the page asked for, chats (CSRF on every POST), and signs out wiping the offline copy', async () => {
    const { context, page } = await ui.open('/session/abc123def456?x=1');
    expect(pathAndQuery(page)).toBe(`/login?next=${encodeURIComponent('/session/abc123def456?x=1')}`);
    await ui.screenshot(page, 'login');

    await signIn(page, 'not the password');
    await expect.poll(() => deepText(page.locator('hermes-login [role="alert"]'))).toBe('Invalid password');
    expect(await page.locator('hermes-login input').getAttribute('aria-invalid')).toBe('true');

    await signIn(page, PASSWORD);
    await page.waitForURL((url) => url.pathname === '/session/abc123def456');
    expect(pathAndQuery(page)).toBe('/session/abc123def456?x=1');

    // A chat turn: creating the session and starting the turn are POSTs that need the token.
    await page.goto(ui.server.url + '/');
    ui.model.enqueue([{ text: 'Signed in ' }, { delayMs: 20 }, { text: 'and streaming.' }]);
    await page.locator(hooks.composer).fill('Hello behind a password');
    await page.locator(hooks.send).click();
    const assistant = page.locator(hooks.message('assistant')).last();
    await expect.poll(async () => deepText(assistant)).toContain('Signed in and streaming.');
    await expect.poll(() => page.locator(hooks.sessionRow).count()).toBeGreaterThan(0);
    // The offline cache holds this user's conversation now.
    await expect.poll(async () => (await offlineKeys(page)).some((k) => k.startsWith('hermes:transcript:'))).toBe(true);

    // Another tab of the same browser, to see what happens to it after signing out.
    const other = await context.newPage();
    await other.goto(ui.server.url + '/');
    await expect.poll(() => other.locator(hooks.sessionRow).count()).toBeGreaterThan(0);

    const row = await openSecurity(page);
    expect(await deepText(row)).toContain('HERMES_WEBUI_PASSWORD');
    expect(await row.locator('button, input').count(), 'a password from the environment is not editable here').toBe(0);
    await ui.screenshot(page, 'settings-security-env');

    await page.locator('[data-action="sign-out"]').click();
    await page.waitForURL((url) => url.pathname === '/login');
    await expect.poll(() => page.locator('hermes-login input').count()).toBe(1);
    expect((await offlineKeys(page)).filter((k) => k !== 'hermes:schema')).toEqual([]);
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('hermes:draft:')))).toEqual([]);
    expect(await status(page, '/api/sessions')).toBe(401);

    // The other tab finds out at its next request and is sent to sign in, to come back after.
    await other.locator(hooks.sessionRow).first().click();
    await other.waitForURL((url) => url.pathname === '/login');
    expect(new URL(other.url()).searchParams.get('next')).toMatch(/^\/session\/[0-9a-f]{12}$/);
  });
});

/** A person setting the first password from Settings → Security (this machine: loopback). */
describe('web app: setting a password', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(async () => ui?.close());

  it('sets the first password in Settings, stays signed in here, and a fresh browser must sign in', async () => {
    const { page } = await ui.open('/');
    const row = await openSecurity(page);
    expect(await deepText(row)).toContain('Not set');
    expect(await page.locator('[data-setting="sign_out"]').count()).toBe(0);

    await row.locator('[data-action="set"]').click();
    await row.locator('input[name="new"]').fill('short');
    await row.locator('input[name="confirm"]').fill('short');
    await row.locator('[data-action="submit"]').click();
    await expect.poll(() => deepText(row.locator('[role="alert"]'))).toBe('Use at least 8 characters.');
    await row.locator('input[name="new"]').fill('a fine password');
    await row.locator('input[name="confirm"]').fill('a fine password');
    await ui.screenshot(page, 'settings-security-set-form');
    await row.locator('[data-action="submit"]').click();
    await expect.poll(() => deepText(row.locator('[role="status"]'))).toContain('Password set.');
    await expect.poll(async () => deepText(row)).toContain('Required to open Hermes');
    await expect.poll(() => page.locator('[data-setting="sign_out"]').count()).toBe(1);
    await ui.screenshot(page, 'settings-security-signed-in');

    // This browser was signed in by setting the password: a POST now needs (and gets) the token.
    await page.locator('[data-setting="theme"] label', { hasText: 'Light' }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await expect.poll(() => deepText(page.locator('[data-role="settings"] .saved'))).toContain('Saved');
    expect(await page.locator('.toast[data-kind="error"]').count()).toBe(0);

    await page.reload();
    await expect.poll(() => page.locator(hooks.composer).count()).toBe(1);
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await status(page, '/api/sessions')).toBe(200);

    const fresh = await ui.open('/');
    expect(pathAndQuery(fresh.page)).toBe(`/login?next=${encodeURIComponent('/')}`);
    expect(await status(fresh.page, '/api/sessions')).toBe(401);
    await signIn(fresh.page, 'a fine password');
    await fresh.page.waitForURL((url) => url.pathname === '/');
    await expect.poll(() => fresh.page.locator(hooks.composer).count()).toBe(1);
  });
});
