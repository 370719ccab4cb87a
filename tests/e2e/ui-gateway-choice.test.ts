import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';
import { startHermesGateway, type FakeGateway } from '../fixtures/hermes-gateway.js';

/**
 * A person in Chromium on a fresh install (no config.yaml, HERMES_WEBUI_CHAT_BACKEND unset)
 * choosing the Hermes Agent they already run in the first-run wizard, then chatting through it;
 * then Settings → Agent shows the same choice.
 */
describe('web app: choosing your Hermes Agent in the wizard', () => {
  let ui: UiHarness;
  let gw: FakeGateway;
  beforeAll(async () => {
    gw = await startHermesGateway({ apiKey: 'gw-choice-key-42' });
    ui = await startUi({ noConfig: true });
  });
  afterAll(async () => {
    await ui?.close();
    await gw?.close();
  });

  it('wizard → Hermes Agent → Test → Done → a streamed answer from the gateway, and the badge says so', async () => {
    const { page } = await ui.open('/');
    await page.locator('[data-role="onboarding"]').waitFor();
    await page.locator('[data-role="onboarding-next"]').click();
    const option = page.locator('[data-role="provider-option"][data-provider="gateway"]');
    await option.waitFor();
    await ui.screenshot(page, 'onboarding-gateway-provider');
    await option.click();

    await page.locator('[data-role="base-url"]').fill(gw.url);
    // A wrong key first: the API server's refusal, in words.
    await page.locator('[data-role="api-key"]').fill('not-the-key');
    await page.locator('[data-role="probe"]').click();
    const refused = page.locator('[data-role="probe-error"][data-kind="http_4xx"]');
    await expect.poll(() => refused.count(), { timeout: 10_000 }).toBe(1);
    expect(await deepText(refused)).toMatch(/the API server refused the key \(API_SERVER_KEY\)/);

    await page.locator('[data-role="api-key"]').fill('gw-choice-key-42');
    await page.locator('[data-role="probe"]').click();
    await expect.poll(async () => deepText(page.locator('[data-role="probe-ok"]')), { timeout: 10_000 }).toContain('Connected — Hermes Agent · runs API');
    expect(await page.locator('[data-role="model-select"]').count(), 'no model to choose').toBe(0);
    await ui.screenshot(page, 'onboarding-gateway-connect');

    await page.locator('[data-role="onboarding-next"]').click();
    await page.locator('[data-role="workspace"]').waitFor();
    expect(await deepText(page.locator('[data-role="onboarding-summary"]'))).toContain(gw.url);
    await page.locator('[data-role="onboarding-done"]').click();

    const composer = page.locator(hooks.composer);
    await composer.waitFor();
    expect(await ui.api('/api/onboarding/status')).toMatchObject({ needed: false, onboarding_completed: true, backend: 'gateway', gateway_base_url: gw.url });
    // The key the wizard was given is kept for the server's next turns.
    expect(await readFile(join(ui.home, '.hermes', '.env'), 'utf8')).toContain('HERMES_WEBUI_GATEWAY_API_KEY=gw-choice-key-42');

    const badge = page.locator('[data-role="agent-badge"]');
    await expect.poll(async () => ((await badge.count()) ? deepText(badge) : '')).toContain('Hermes Agent · runs API');

    gw.enqueue({ steps: ['Hello ', 'from ', 'your ', 'Hermes.'].flatMap((w) => [{ delta: w }, { delayMs: 20 }]) });
    await composer.fill('Who is answering?');
    await page.locator(hooks.send).click();
    const answer = page.locator(hooks.message('assistant')).last();
    await expect.poll(async () => deepText(answer), { timeout: 10_000 }).toContain('Hello from your Hermes.');
    expect(gw.runBodies.at(-1)).toMatchObject({ input: 'Who is answering?' });
    await expect.poll(() => page.locator(hooks.send).count()).toBe(1);
    await ui.screenshot(page, 'onboarding-gateway-first-chat');

    // Settings → Agent: the same choice, testable, and switchable back.
    await page.locator('[data-role="open-settings"]').click();
    await page.locator(`${hooks.settings} input[type="search"]`).fill('agent');
    const row = page.locator('[data-setting="chat_backend"]');
    await row.waitFor();
    expect(await page.locator('hermes-gateway-settings #gateway_base_url').inputValue()).toBe(gw.url);
    await page.locator('hermes-gateway-settings [data-action="test-gateway"]').click();
    await expect.poll(async () => deepText(page.locator('[data-role="gateway-probe"]')), { timeout: 10_000 }).toContain('Connected — Hermes Agent · runs API');
    await page.locator('[data-role="gateway-limitations"] summary').click();
    await ui.screenshot(page, 'settings-agent-gateway');

    await row.locator('input[name="chat_backend"][value="builtin"]').check({ force: true });
    await expect.poll(async () => (await ui.api('/api/settings')).chat_backend).toBe('builtin');
    await expect.poll(() => page.locator('hermes-gateway-settings').count()).toBe(0);
    await ui.screenshot(page, 'settings-agent-builtin');
    await page.locator('[data-action="close"]').click();
    await expect.poll(() => badge.count(), { timeout: 5_000 }).toBe(0);
    expect(await page.evaluate(() => (window as any).__cspViolations)).toEqual([]);
  }, 60_000);
});
