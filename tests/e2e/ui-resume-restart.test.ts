import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';
import { startServer, type RunningServer } from '../helpers/server.js';

/** How often `needle` occurs in `text`. */
const count = (text: string, needle: string) => text.split(needle).length - 1;

/**
 * A person in Chromium while the server is killed mid-answer (kill -9) and started again on the
 * same state dir: the turn carries on, and a reload mid-stream shows the text from before once,
 * the quiet "Resumed after a restart" line, then the rest.
 */
describe('web app: a reply carries on across a restart', () => {
  let ui: UiHarness;
  let restarted: RunningServer | undefined;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(async () => {
    await restarted?.stop('SIGKILL');
    await ui?.close();
  });

  it('kill -9 mid-stream, restart, reload mid-stream: no text twice, the line between', async () => {
    const before = Array.from({ length: 80 }, (_, i) => `alpha${i}`);
    const after = Array.from({ length: 16 }, (_, i) => `omega${i}`);
    // The first call streams slowly and is cut by the kill; the resumed turn's call answers the rest.
    ui.model.enqueue(
      before.flatMap((w) => [{ text: `${w} ` }, { delayMs: 40 }]),
      after.flatMap((w) => [{ text: `${w} ` }, { delayMs: 150 }]),
    );
    const { page } = await ui.open('/');
    await page.locator(hooks.composer).fill('Count for me');
    await page.locator(hooks.send).click();
    const assistant = page.locator(hooks.message('assistant')).last();
    await expect.poll(async () => (await deepText(assistant)).includes('alpha12'), { timeout: 15_000 }).toBe(true);

    const port = new URL(ui.server.url).port;
    await ui.server.stop('SIGKILL');
    restarted = await startServer({ HOME: ui.home, HERMES_HOME: join(ui.home, '.hermes'), HERMES_WEBUI_PORT: port });
    expect(restarted.url).toBe(ui.server.url);

    // Mid-stream of the resumed answer: the page is loaded again and replays the running turn.
    await expect.poll(() => ui.model.requests.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
    await page.reload();
    const line = assistant.locator('[data-role="resumed"]');
    await expect.poll(() => line.count(), { timeout: 15_000 }).toBe(1);
    expect(await page.locator(hooks.stop).count()).toBe(1);
    await expect.poll(async () => (await deepText(assistant)).includes('omega15'), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => page.locator(hooks.send).count()).toBe(1);

    const check = async () => {
      const text = await deepText(assistant);
      for (const w of ['alpha0 ', 'alpha12 ', 'omega0 ', 'omega15']) expect(count(text, w)).toBe(1);
      expect(count(text, 'Resumed after a restart')).toBe(1);
      expect(text.indexOf('alpha12 ')).toBeLessThan(text.indexOf('Resumed after a restart'));
      expect(text.indexOf('Resumed after a restart')).toBeLessThan(text.indexOf('omega0 '));
      expect(await page.locator(hooks.message('assistant')).count()).toBe(1);
      expect(await deepText(page.locator(hooks.message('user')).last())).toContain('Count for me');
    };
    await check();
    await ui.screenshot(page, 'resumed-after-restart');
    // Settled, from the stored transcript: the same.
    await page.reload();
    await expect.poll(() => line.count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(async () => (await deepText(assistant)).includes('omega15')).toBe(true);
    await check();
    expect(await assistant.locator('[data-role="partial"]').count()).toBe(0);
  });
});
