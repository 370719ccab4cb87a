import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';
import { isTitleRequest } from '../helpers/chat.js';

const toast = '.toast[role="status"]';

/** Session operations as a person does them in Chromium: edit an earlier message, /words, /status, /personality, HTML export. */
describe('web app: session operations and slash commands', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
    // config.yaml is read afresh on each request: a personality added now is offered at once.
    await appendFile(join(ui.stateDir, '..', 'config.yaml'), 'agent:\n  personalities:\n    coach: You coach the user step by step.\n');
  });
  afterAll(async () => ui?.close());

  const turnRequests = () => ui.model.requests.filter((r) => !isTitleRequest(r)).map((r) => r.body);

  async function say(page: Page, text: string, reply: string) {
    ui.model.enqueue([{ text: reply }]);
    await page.locator(hooks.composer).fill(text);
    await page.locator(hooks.send).click();
    await expect.poll(async () => deepText(page.locator(hooks.message('assistant')).last())).toContain(reply);
    await expect.poll(() => page.locator(hooks.send).count()).toBe(1);
  }

  it('edits an earlier message after a confirmation, re-running the conversation from there', async () => {
    const { page } = await ui.open('/');
    await say(page, 'first question', 'first reply');
    await say(page, 'second question', 'second reply');
    const first = page.locator(hooks.message('user')).first();
    await first.hover();
    await first.locator('[data-role="edit-message"]').click();
    await first.locator('textarea').fill('first question, reworded');
    await first.locator('[data-role="save-edit"]').click();
    await expect.poll(() => first.locator('[data-role="edit-confirm"]').count()).toBe(1);
    // Nothing is cut before the confirmation.
    expect(await page.locator(hooks.message('user')).count()).toBe(2);
    ui.model.enqueue([{ text: 'reworded reply' }]);
    await first.locator('[data-role="confirm-edit"]').click();
    await expect.poll(async () => deepText(page.locator(hooks.message('assistant')).last())).toContain('reworded reply');
    expect(await page.locator(hooks.message('user')).count()).toBe(1);
    const sent = JSON.stringify(turnRequests().at(-1)!.messages);
    expect(sent).toContain('first question, reworded');
    expect(sent).not.toContain('second question');
    await ui.screenshot(page, 'edit-earlier-message');
  });

  it('sends an unknown /word to the agent, sets a personality, shows /status, and exports HTML', async () => {
    const { page } = await ui.open('/');
    await say(page, '/deploy the staging build', 'deploying');
    expect(turnRequests().at(-1)!.messages.at(-1).content).toBe('/deploy the staging build');

    await page.locator(hooks.composer).fill('/personality coach');
    await page.locator(hooks.send).click();
    await expect.poll(() => page.locator(toast).textContent()).toContain('Personality set to coach.');
    await say(page, 'help me plan', 'step one');
    expect(turnRequests().at(-1)!.messages[0].content).toContain('You coach the user step by step.');

    await page.locator(hooks.composer).fill('/status');
    await page.locator(hooks.send).click();
    await expect.poll(() => page.locator(toast).textContent()).toContain('4 messages');
    expect(await page.locator(toast).textContent()).toContain('personality coach');
    await ui.screenshot(page, 'status-card');

    const sid = new URL(page.url()).pathname.split('/').pop()!;
    const html = await page.evaluate(async (id) => (await fetch(`/api/session/export?session_id=${id}&format=html`)).text(), sid);
    expect(html).toContain('/deploy the staging build');
    expect(html).toContain('step one');
    expect(html).not.toMatch(/<script/i);
  });
});
