import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';
import { sampleSessions, writeStateDb } from '../fixtures/hermes-state-db.js';

/** A person in Chromium searching the sidebar with Hermes' own sessions shown (show_cli_sessions), against the real server and a real state.db. */
describe("web app: searching Hermes' own sessions", () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi({ prepare: async (stateDir) => writeStateDb(join(stateDir, '..', 'state.db'), sampleSessions()) });
  });
  afterAll(async () => ui?.close());

  it('a word from a Telegram answer finds its conversation with the matched text; it opens read-only', async () => {
    await ui.api('/api/settings', { show_cli_sessions: true });
    const { page } = await ui.open('/');
    await expect.poll(() => page.locator(hooks.sessionRow).count()).toBeGreaterThan(0);
    await page.locator('[data-role="session-search"]').fill('15:00');
    const hit = page.locator(hooks.sessionRow).filter({ hasText: 'What is on my calendar today?' });
    await expect.poll(() => hit.count()).toBe(1);
    expect(await deepText(hit.locator('[data-role="match-preview"]'))).toContain('15:00');
    expect(await deepText(hit.locator('[data-role="source-badge"]'))).toBe('Telegram');
    await hit.locator('a').first().click();
    await expect.poll(async () => deepText(page.locator(hooks.message('assistant')).last())).toContain('Two meetings: 10:00 and 15:00.');
    expect(await page.locator(hooks.composer).isDisabled()).toBe(true);
    await ui.api('/api/settings', { show_cli_sessions: false });
  });
});
