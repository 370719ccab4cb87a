import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';
import { isTitleRequest } from '../helpers/chat.js';

const steerLine = '[data-role="steer"]';

/** `/steer <text>` in Chromium while a tool runs: the next model call carries it, and the transcript shows it where it entered. */
describe('web app: steer', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(async () => ui?.close());

  it('steers a running tool turn from the composer', async () => {
    const { page } = await ui.open('/');
    ui.model.enqueue(
      [{ text: 'Building first.' }, { toolCall: { id: 'build', name: 'terminal', args: { command: 'sleep 3 && echo built' } } }],
      [{ text: 'Switched to the blue theme as you asked.' }],
    );
    await page.locator(hooks.composer).fill('build the site');
    await page.locator(hooks.send).click();
    // The tool is running: its row is in the live turn's activity.
    await expect.poll(() => page.locator(hooks.activity).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(ui.model.requests.filter((r) => !isTitleRequest(r))).toHaveLength(1);

    await page.locator(hooks.composer).fill('/steer use the blue theme');
    await page.locator(hooks.composer).press('Enter');
    // The line shows live, between the prose before the tool and the answer after it.
    await expect.poll(async () => deepText(page.locator(steerLine)), { timeout: 10_000 }).toContain('use the blue theme');
    const assistant = page.locator(hooks.message('assistant')).last();
    await expect.poll(async () => deepText(assistant), { timeout: 10_000 }).toContain('Switched to the blue theme');
    const order = await deepText(assistant);
    expect(order.indexOf('Building first.')).toBeLessThan(order.indexOf('use the blue theme'));
    expect(order.indexOf('use the blue theme')).toBeLessThan(order.indexOf('Switched to the blue theme'));

    // The scripted model received it in the next call, in the tool's result.
    const turns = ui.model.requests.filter((r) => !isTitleRequest(r));
    expect(turns).toHaveLength(2);
    const tool = turns[1]!.body.messages.findLast((m: any) => m.role === 'tool');
    expect(tool.content).toMatch(/built[\s\S]*\n\nUser guidance: use the blue theme$/);
    expect(await page.locator(hooks.composer).inputValue()).toBe('');
    await ui.screenshot(page, 'steer-line');

    // Where it entered, after a reload too.
    await page.reload();
    await expect.poll(async () => deepText(page.locator(steerLine)), { timeout: 10_000 }).toContain('use the blue theme');
    const reloaded = await deepText(page.locator(hooks.message('assistant')).last());
    expect(reloaded.indexOf('Building first.')).toBeLessThan(reloaded.indexOf('use the blue theme'));
    expect(reloaded.indexOf('use the blue theme')).toBeLessThan(reloaded.indexOf('Switched to the blue theme'));
  });
});
