import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hooks, startUi, type UiHarness } from '../helpers/browser.js';

const prompts = {
  button: '[data-role="prompts-button"]',
  row: 'hermes-saved-prompts [data-role="saved-prompt"]',
  label: 'hermes-saved-prompts [data-role="prompt-label"]',
  save: 'hermes-saved-prompts [data-role="prompt-save"]',
};

/** Saved prompts and the composer draft as a person uses them in Chromium, against the built server. */
describe('web app: saved prompts and the draft on the server', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(async () => ui?.close());

  it('saves what the composer holds as a prompt (in the incumbent’s file), and inserts it in another chat', async () => {
    const { page } = await ui.open('/');
    await page.locator(hooks.composer).fill('List the risks of this change, most severe first.');
    await page.locator(prompts.button).click();
    await page.locator(prompts.label).fill('Risks');
    await page.locator(prompts.save).click();
    await expect.poll(() => page.locator(prompts.row).count()).toBe(1);
    await ui.screenshot(page, 'saved-prompts-menu');

    const file = JSON.parse(await readFile(join(ui.home, '.hermes', 'webui', 'saved_prompts.json'), 'utf8'));
    expect(file).toMatchObject([{ label: 'Risks', text: 'List the risks of this change, most severe first.' }]);

    // Another device, a blank composer: the prompt goes in with one click.
    const other = await ui.open('/');
    await other.page.locator(prompts.button).click();
    await other.page.locator(`${prompts.row} [data-role="prompt-insert"]`).click();
    await expect.poll(() => other.page.locator(hooks.composer).inputValue()).toBe('List the risks of this change, most severe first.');
  });

  it('a draft typed in one browser is in the composer when the session opens in another', async () => {
    const created = await ui.api('/api/session/new', {});
    const sid = created.session.session_id as string;
    const { page } = await ui.open(`/session/${sid}`);
    await page.locator(hooks.composer).fill('Half a thought about the release');
    await expect.poll(async () => (await ui.api(`/api/session/draft?session_id=${sid}`)).draft.text).toBe('Half a thought about the release');

    const phone = await ui.open(`/session/${sid}`);
    await expect.poll(() => phone.page.locator(hooks.composer).inputValue()).toBe('Half a thought about the release');
  });
});
