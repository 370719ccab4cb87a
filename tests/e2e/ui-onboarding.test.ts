import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';

const wizard = '[data-role="onboarding"]';

/** A tiny local HTTP server answering every request with `handler`; closed (sockets and all) after the suite. */
async function serve(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server; sockets: Set<Socket> }> {
  const server = createServer(handler);
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server, sockets };
}

/** A port nothing listens on: bound by the OS, then released. */
async function closedPort(): Promise<number> {
  const s = createTcpServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

async function toConnect(page: Page, provider: string) {
  await page.locator(wizard).waitFor();
  await page.locator('[data-role="onboarding-next"]').click();
  await page.locator(`[data-role="provider-option"][data-provider="${provider}"]`).click();
  await page.locator('[data-role="probe"]').waitFor();
}

/** A person in Chromium setting up a fresh install (no config.yaml) through the first-run wizard. */
describe('web app: first run', () => {
  let ui: UiHarness;
  const helpers: Array<{ server: Server; sockets: Set<Socket> }> = [];
  beforeAll(async () => {
    ui = await startUi({ noConfig: true });
  });
  afterAll(async () => {
    for (const h of helpers) {
      for (const s of h.sockets) s.destroy();
      await new Promise<void>((resolve) => h.server.close(() => resolve()));
    }
    await ui?.close();
  });

  it('explains each way a connection test can fail', async () => {
    const refused = `http://127.0.0.1:${await closedPort()}/v1`;
    // Accepts the connection, never answers: past the server's 5 s probe deadline.
    const slow = await serve(() => {});
    const unauthorized = await serve((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'Invalid API key', type: 'invalid_request_error' } }));
    });
    const html = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><html><body><h1>Welcome to my router</h1></body></html>');
    });
    helpers.push(slow, unauthorized, html);

    const { page } = await ui.open('/');
    await toConnect(page, 'custom');
    const cases: Array<[string, string, RegExp]> = [
      [refused, 'connect_refused', /Nothing is listening at http:\/\/127\.0\.0\.1:\d+\/v1 — is the server running\?/],
      [unauthorized.url, 'http_4xx', /the key was refused \(HTTP 401\)/],
      [html.url, 'parse', /answered, but not with a model list — is it the API root \(…\/v1\)\?/],
      [slow.url, 'timeout', /did not answer in time/],
    ];
    for (const [url, kind, message] of cases) {
      await page.locator('[data-role="base-url"]').fill(url);
      await page.locator('[data-role="probe"]').click();
      const error = page.locator(`[data-role="probe-error"][data-kind="${kind}"]`);
      await expect.poll(() => error.count(), { timeout: kind === 'timeout' ? 15_000 : 10_000 }).toBe(1);
      expect(await error.getAttribute('role')).toBe('alert');
      expect(await deepText(error)).toMatch(message);
      if (kind === 'connect_refused') await ui.screenshot(page, 'onboarding-probe-refused');
    }
    // Nothing was written by testing.
    await expect(readFile(join(ui.home, '.hermes', 'config.yaml'), 'utf8')).rejects.toThrow();
  }, 60_000);

  it('a phone-width wizard fits the screen', async () => {
    const { page } = await ui.open('/', { viewport: { width: 390, height: 844 }, isMobile: true });
    await page.locator(wizard).waitFor();
    await ui.screenshot(page, 'onboarding-phone-check');
    await page.locator('[data-role="onboarding-next"]').click();
    await page.locator('[data-role="provider-option"]').first().waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    for (const box of await page.locator('[data-role="provider-option"]').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()))) {
      expect(box.right).toBeLessThanOrEqual(390);
      expect(box.height).toBeGreaterThanOrEqual(44);
    }
    await ui.screenshot(page, 'onboarding-phone-provider');
    for (const h of await page
      .locator('[data-role="onboarding-back"], [data-role="onboarding-skip"]')
      .evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height))) {
      expect(h).toBeGreaterThanOrEqual(44);
    }
    await page.locator('[data-provider="custom"]').click();
    await page.locator('[data-role="base-url"]').fill(ui.model.url);
    await page.locator('[data-role="probe"]').click();
    await page.locator('[data-role="probe-ok"]').waitFor();
    await ui.screenshot(page, 'onboarding-phone-connect');
  });

  it('from a fresh install to a streamed answer: custom endpoint, tested, a listed model, Done', async () => {
    expect((await ui.api('/api/onboarding/status')).needed).toBe(true);
    const { page } = await ui.open('/');
    await page.locator(wizard).waitFor();
    expect(await deepText(page.locator('[data-role="onboarding-facts"]'))).toContain(join(ui.home, '.hermes', 'config.yaml'));
    expect(await page.locator(hooks.composer).count(), 'the wizard, not the chat').toBe(0);
    await ui.screenshot(page, 'onboarding-check');

    await page.locator('[data-role="onboarding-next"]').click();
    await page.locator('[data-role="provider-option"]').first().waitFor();
    await ui.screenshot(page, 'onboarding-provider');
    await page.locator('[data-role="provider-option"][data-provider="custom"]').click();
    await page.locator('[data-role="base-url"]').fill(ui.model.url);
    await page.locator('[data-role="probe"]').click();
    await expect.poll(async () => deepText(page.locator('[data-role="probe-ok"]'))).toContain('Connected — 2 models');
    const select = page.locator('[data-role="model-select"]');
    expect(await select.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual([
      'scripted-model',
      'scripted-model-large',
      '__other__',
    ]);
    await select.selectOption('scripted-model-large');
    await select.selectOption('scripted-model');
    await ui.screenshot(page, 'onboarding-connect');
    // Enter in a field submits the step.
    await page.locator('[data-role="base-url"]').press('Enter');
    const workspace = page.locator('[data-role="workspace"]');
    await workspace.waitFor();
    expect(await workspace.inputValue()).toBe(ui.workspace);
    await ui.screenshot(page, 'onboarding-finish');
    await page.locator('[data-role="onboarding-done"]').click();

    // The chat, ready to type.
    const composer = page.locator(hooks.composer);
    await composer.waitFor();
    expect(await page.locator(wizard).count()).toBe(0);
    await expect
      .poll(() => composer.evaluate((el) => el.getRootNode() instanceof ShadowRoot && (el.getRootNode() as ShadowRoot).activeElement === el))
      .toBe(true);
    const config = await readFile(join(ui.home, '.hermes', 'config.yaml'), 'utf8');
    expect(config).toMatch(/default: scripted-model\b/);
    expect(config).toMatch(/provider: custom/);
    expect(config).toContain(ui.model.url);
    const after = await ui.api('/api/onboarding/status');
    expect(after).toMatchObject({ needed: false, onboarding_completed: true });

    ui.model.enqueue(['Hello ', 'from ', 'the ', 'first ', 'run.'].flatMap((w) => [{ text: w }, { delayMs: 20 }]));
    await page.keyboard.type('Are you there?');
    await page.keyboard.press('Enter');
    const assistant = page.locator(hooks.message('assistant')).last();
    await expect.poll(async () => deepText(assistant)).toContain('Hello from the first run.');
    const turn = ui.model.requests.filter((r) => r.method === 'POST' && JSON.stringify(r.body).includes('Are you there?'));
    expect(turn.at(-1)!.body.model).toBe('scripted-model');
    await ui.screenshot(page, 'onboarding-first-chat');

    // The picker lists the endpoint's models, grouped, with the default.
    await page.locator('[data-role="model-picker"]').click();
    await page.locator('[data-role="model-search"]').waitFor();
    expect(await page.locator('[data-role="model-menu"] [role="option"]').evaluateAll((os) => os.map((o) => (o as HTMLElement).dataset.model))).toEqual([
      'scripted-model',
      'scripted-model-large',
    ]);
    await ui.screenshot(page, 'model-picker');
    await page.keyboard.press('Escape');

    // A reload goes straight to the app.
    await page.goto(ui.server.url + '/');
    await page.locator(hooks.composer).waitFor();
    expect(await page.locator(wizard).count()).toBe(0);
  });

  it('Settings → Providers shows the configured endpoint; a self-hosted endpoint can be tested and added', async () => {
    const extra = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'lab-7b', object: 'model' }] }));
    });
    helpers.push(extra);
    const { page } = await ui.open('/');
    await page.locator(hooks.composer).waitFor();
    await page.locator('[data-role="open-settings"]').click();
    await page.locator('[data-role="settings"] input[type="search"]').fill('provider');
    const rows = page.locator('[data-setting^="provider:"]');
    await expect.poll(() => rows.count()).toBeGreaterThan(0);
    await page.locator('[data-setting="add_endpoint"] [data-action="add-endpoint"]').click();
    await page.locator('[data-role="endpoint-form"] input[name="name"]').fill('lab');
    await page.locator('[data-role="endpoint-form"] input[name="base_url"]').fill(extra.url);
    await page.locator('[data-role="endpoint-form"] [data-action="test"]').click();
    await expect.poll(async () => deepText(page.locator('[data-role="endpoint-probe"]'))).toContain('Connected — 1 model: lab-7b');
    await ui.screenshot(page, 'settings-providers-add');
    await page.locator('[data-role="endpoint-form"] [data-action="submit"]').click();
    await expect.poll(() => page.locator('[data-setting="provider:custom:lab"]').count()).toBe(1);
    await ui.screenshot(page, 'settings-providers');
    // Its models reach the picker under their own group.
    await page.locator('[data-action="close"]').click();
    await page.locator('[data-role="model-picker"]').click();
    await expect.poll(() => page.locator('[data-model="custom:lab:lab-7b"]').count()).toBe(1);

    const phone = (await ui.open('/', { viewport: { width: 390, height: 844 }, isMobile: true })).page;
    await phone.locator(hooks.composer).waitFor();
    await phone.locator('[data-role="open-settings"]').click();
    await phone.locator('[data-role="settings"] input[type="search"]').fill('provider');
    await phone.locator('[data-setting="provider:custom:lab"]').waitFor();
    await ui.screenshot(phone, 'settings-providers-phone');
  });
});

describe('web app: first run with a password', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi({ noConfig: true });
  });
  afterAll(async () => ui?.close());

  it('sets the password in the wizard, stays signed in (CSRF and all), and a fresh browser must sign in', async () => {
    const { page } = await ui.open('/');
    await toConnect(page, 'custom');
    await page.locator('[data-role="base-url"]').fill(ui.model.url);
    await page.locator('[data-role="onboarding-next"]').click();
    await page.locator('[data-role="password"]').fill('correct horse battery');
    await page.locator('[data-role="password-confirm"]').fill('correct horse battery');
    await page.locator('[data-role="password-confirm"]').press('Enter');
    await page.locator(hooks.composer).waitFor();
    expect((await ui.api('/api/auth/status')).auth_enabled).toBe(true);
    ui.model.enqueue([{ text: 'Signed in and answering.' }]);
    await page.locator(hooks.composer).fill('hello');
    await page.locator(hooks.send).click();
    await expect.poll(async () => deepText(page.locator(hooks.message('assistant')).last())).toContain('Signed in and answering.');
    // The wizard is done (the complete call passed the CSRF check after the new sign-in).
    expect(await page.evaluate(() => fetch('/api/onboarding/status').then((r) => r.json()))).toMatchObject({
      onboarding_completed: true,
      password_enabled: true,
    });
    await page.goto(ui.server.url + '/');
    await page.locator(hooks.composer).waitFor();
    expect(await page.locator(wizard).count()).toBe(0);
    const stranger = await ui.open('/');
    await expect.poll(() => new URL(stranger.page.url()).pathname).toBe('/login');
  });
});
