import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';
import { isTitleRequest } from '../helpers/chat.js';

/** A person picks a reasoning effort from the composer's chip; the next model request carries it. */
describe('web app: reasoning effort', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
    // A model that takes reasoning levels (the scripted server answers any id); a comment the CLI's user wrote.
    await writeFile(join(ui.home, '.hermes', 'config.yaml'), `# mine\nmodel:\n  default: openai/gpt-5\n  provider: custom\n  base_url: ${ui.model.url}\n`);
  });
  afterAll(async () => ui?.close());

  it('picks High from the chip, and the next turn asks the model with reasoning_effort high', async () => {
    ui.model.enqueue([{ text: 'thought hard' }]);
    const { page } = await ui.open('/');
    const chip = page.locator('[data-role="reasoning-chip"]');
    await expect.poll(() => chip.count()).toBe(1);
    expect(await chip.getAttribute('data-effort')).toBe('default');
    await chip.click();
    await page.locator('[data-role="reasoning-menu"] [data-effort="high"]').click();
    await expect.poll(() => chip.getAttribute('data-effort')).toBe('high');
    expect(await readFile(join(ui.home, '.hermes', 'config.yaml'), 'utf8')).toMatch(/^# mine\n[\s\S]*agent:\n {2}reasoning_effort: high\n$/);
    await page.locator(hooks.composer).fill('Think about it');
    await page.locator(hooks.send).click();
    await expect.poll(async () => (await deepText(page.locator(hooks.message('assistant')).last()))?.includes('thought hard')).toBe(true);
    const turn = ui.model.requests.filter((r) => !isTitleRequest(r)).at(-1)!;
    expect(turn.body.reasoning_effort).toBe('high');
    await ui.screenshot(page, 'reasoning-chip');
  });
});
