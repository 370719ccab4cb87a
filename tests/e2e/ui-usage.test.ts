import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';

const ring = '[data-role="context-ring"]';
const usageLine = '[data-role="turn-usage"]';
const divider = '[data-role="compression-divider"]';

const FILLER = 'The quick brown fox jumps over the lazy dog. '.repeat(120);
const promptTokens = async (page: Page) => Number(await page.locator(ring).getAttribute('data-prompt-tokens'));

async function turn(ui: UiHarness, page: Page, n: number, usage: { inputTokens: number; outputTokens: number; cacheReadTokens?: number; cost?: number }) {
  // Long enough that a summary replacing it is smaller.
  ui.model.enqueue([{ text: `reply number ${n}. ${FILLER}` }, { usage }]);
  await page.locator(hooks.composer).fill(`message number ${n}`);
  await page.locator(hooks.send).click();
  await expect.poll(async () => (await deepText(page.locator(hooks.message('assistant')).last()))?.includes(`reply number ${n}`)).toBe(true);
  await expect.poll(() => page.locator(hooks.send).count()).toBe(1);
}

async function command(page: Page, text: string) {
  await page.locator(hooks.composer).fill(text);
  await page.locator(hooks.send).click();
}

/** The context ring and the usage line show what the scripted provider reported; compression shrinks the ring at once. */
describe('web app: context, usage and cost', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
    // A known window, so the ring's figures are exact (the agent reads config.yaml per turn); only
    // the first message stays verbatim, so each compression drops a long reply.
    await writeFile(
      join(ui.home, '.hermes', 'config.yaml'),
      `model:\n  default: scripted-model\n  provider: custom\n  base_url: ${ui.model.url}\n  context_length: 100000\ncompression:\n  protect_first_n: 1\n`,
    );
  });
  afterAll(async () => ui?.close());

  it('shows the reported tokens and cost after a turn, and a smaller context right after /compress and Compress', async () => {
    const { page } = await ui.open('/');
    await command(page, '/usage on');
    await expect.poll(() => ui.api('/api/settings').then((s) => s.show_token_usage)).toBe(true);

    await turn(ui, page, 1, { inputTokens: 25_000, outputTokens: 120, cacheReadTokens: 20_000, cost: 0.0042 });
    await expect.poll(() => promptTokens(page)).toBe(25_000);
    const r = page.locator(ring);
    expect(await r.getAttribute('data-context-length')).toBe('100000');
    // Hermes' trigger for a window under 512K: 75 % of it.
    expect(await r.getAttribute('data-threshold-tokens')).toBe('75000');
    expect((await r.textContent())?.trim()).toBe('25%');
    const line = page.locator(usageLine).last();
    await expect.poll(() => line.count()).toBe(1);
    const text = await line.textContent();
    for (const part of ['25K in', '120 out', '20K cached (80%)', '$0.0042', 'scripted-model']) expect(text).toContain(part);
    // The turn's cost is also the session's so far, in the ring's details.
    await r.click();
    expect(await page.locator('[data-role="context-details"] [data-field="cost"]').textContent()).toContain('$0.0042');
    await r.click();

    await turn(ui, page, 2, { inputTokens: 30_000, outputTokens: 80 });
    await expect.poll(() => promptTokens(page)).toBe(30_000);
    expect((await r.textContent())?.trim()).toBe('30%');
    await ui.screenshot(page, 'context-ring-usage');

    ui.model.enqueue([{ text: 'SUMMARY: the first message was answered.' }]);
    await command(page, '/compress');
    await expect.poll(() => page.locator(divider).count(), { timeout: 10_000 }).toBe(1);
    // Shrunk at once, before any further turn has counted it.
    await expect.poll(() => promptTokens(page)).toBeLessThan(30_000);
    expect(await promptTokens(page)).toBeGreaterThan(0);

    await turn(ui, page, 3, { inputTokens: 8_000, outputTokens: 40 });
    await expect.poll(() => promptTokens(page)).toBe(8_000);
    ui.model.enqueue([{ text: 'SUMMARY: three messages were answered.' }]);
    await r.click();
    await page.locator('[data-role="context-compress"]').click();
    await expect.poll(() => promptTokens(page), { timeout: 10_000 }).toBeLessThan(8_000);

    // Stored with the answers and the session: the same figures after a reload.
    await page.reload();
    await expect.poll(() => page.locator(usageLine).count()).toBe(3);
    expect(await page.locator(usageLine).first().textContent()).toContain('$0.0042');
    await expect.poll(() => promptTokens(page)).toBeLessThan(8_000);

    // On a phone the ring fits in the composer's bar and is a full touch target.
    const { page: phone } = await ui.open(new URL(page.url()).pathname, { viewport: { width: 390, height: 844 }, isMobile: true });
    await expect.poll(() => phone.locator(ring).count()).toBe(1);
    const box = (await phone.locator(ring).boundingBox())!;
    expect(box.height).toBeGreaterThanOrEqual(44);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await ui.screenshot(phone, 'context-ring-phone');
  });
});
