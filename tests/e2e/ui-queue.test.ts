import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';
import { isTitleRequest } from '../helpers/chat.js';

const chip = '[data-role="queued-message"]';
const busySend = '[data-role="send-busy"]';

/** What the last user message of each turn request said, in the order the model got them. */
const askedInOrder = (ui: UiHarness) =>
  ui.model.requests
    .filter((r) => !isTitleRequest(r))
    .map((r) => r.body.messages.findLast((m: any) => m.role === 'user')?.content)
    .filter((c): c is string => typeof c === 'string');

async function pickMode(page: Page, mode: 'steer' | 'queue' | 'interrupt') {
  await page.locator('[data-role="send-mode"]').click();
  await page.locator(`[data-role="send-mode-option"][data-mode="${mode}"]`).click();
}

async function chipTexts(page: Page): Promise<string[]> {
  const out: string[] = [];
  for (const c of await page.locator(chip).all()) out.push((await c.locator('[data-role="queued-edit"]').textContent())?.trim() ?? '');
  return out;
}

/** The busy composer in Chromium, against the real server and a scripted model. */
describe('web app: messages typed while a turn runs', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(async () => ui?.close());

  it('queues two messages (send menu and /queue), keeps them over a reload, and sends each once, in order, with two tabs open', async () => {
    ui.model.enqueue([{ text: 'Working on the long job. ' }, { delayMs: 9000 }, { text: 'Long job done.' }]);
    const { context, page } = await ui.open('/');
    await page.locator(hooks.composer).fill('start the long job');
    await page.locator(hooks.send).click();
    await expect.poll(async () => (await deepText(page.locator(hooks.message('assistant')).last())).includes('Working on the long job')).toBe(true);
    // Stop and the busy Send sit side by side; the placeholder says Send steers (the default).
    expect(await page.locator(hooks.stop).count()).toBe(1);
    expect(await page.locator(busySend).count()).toBe(1);
    expect(await page.locator(hooks.composer).getAttribute('placeholder')).toContain('steers');

    await pickMode(page, 'queue');
    expect(await page.locator(hooks.composer).getAttribute('placeholder')).toContain('queues');
    await page.locator(hooks.composer).fill('queued via the menu');
    await page.locator(busySend).click();
    await page.locator(hooks.composer).fill('/queue queued via slash');
    await page.locator(hooks.composer).press('Enter');
    await expect.poll(() => chipTexts(page)).toEqual(['queued via the menu', 'queued via slash']);
    await ui.screenshot(page, 'busy-composer-queue');

    await page.reload();
    await expect.poll(() => chipTexts(page)).toEqual(['queued via the menu', 'queued via slash']);
    // A second tab on the same session (same storage): both see the turn end, one sends.
    const other = await context.newPage();
    await other.goto(page.url());
    await expect.poll(() => chipTexts(other)).toEqual(['queued via the menu', 'queued via slash']);

    ui.model.enqueue([{ text: 'Answer to the menu one.' }], [{ text: 'Answer to the slash one.' }]);
    // Whichever tab drains the queue, the model is asked for both, after the long job.
    await expect.poll(() => askedInOrder(ui).length, { timeout: 30_000 }).toBe(3);
    // The sending tab shows its turns live; the other may settle only when its turn ends: reload to read it whole.
    await expect
      .poll(() => ui.api(`/api/session/status?session_id=${new URL(page.url()).pathname.split('/').pop()}`).then((s) => s.agent_running), { timeout: 30_000 })
      .toBe(false);
    await page.reload();
    await expect.poll(async () => (await deepText(page.locator(hooks.message('assistant')).last())).includes('Answer to the slash one.')).toBe(true);
    await expect.poll(() => page.locator(hooks.send).count()).toBe(1);
    await expect.poll(() => page.locator(chip).count()).toBe(0);
    await expect.poll(() => other.locator(chip).count()).toBe(0);
    // Give a duplicate the time to show, then count what the model was asked.
    await page.waitForTimeout(1000);
    expect(askedInOrder(ui)).toEqual(['start the long job', 'queued via the menu', 'queued via slash']);
    const users: string[] = [];
    for (const m of await page.locator(hooks.message('user')).all()) users.push(await deepText(m));
    expect(users.map((u) => u.trim())).toEqual(['start the long job', 'queued via the menu', 'queued via slash']);
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('hermes-queue-')))).toEqual([]);
    await other.close();
  }, 90_000);

  it('interrupt: cancels the running turn (its partial answer stays) and sends the message', async () => {
    ui.model.clear();
    const before = askedInOrder(ui).length;
    ui.model.enqueue([{ text: 'A partial thought ' }, { delayMs: 20_000 }, { text: 'never shown' }], [{ text: 'Switched to the new request.' }]);
    const { page } = await ui.open('/');
    await page.locator(hooks.composer).fill('think for a long time');
    await page.locator(hooks.send).click();
    await expect.poll(async () => (await deepText(page.locator(hooks.message('assistant')).last())).includes('A partial thought')).toBe(true);
    await pickMode(page, 'interrupt');
    expect(await page.locator(hooks.composer).getAttribute('placeholder')).toContain('stops this turn');
    await page.locator(hooks.composer).fill('do this instead');
    await page.locator(hooks.composer).press('Enter');
    await expect
      .poll(async () => (await deepText(page.locator(hooks.message('assistant')).last())).includes('Switched to the new request.'), { timeout: 15_000 })
      .toBe(true);
    expect(askedInOrder(ui).slice(before)).toEqual(['think for a long time', 'do this instead']);
    const last = ui.model.requests.filter((r) => !isTitleRequest(r)).at(-1)!;
    expect(last.body.messages.map((m: any) => [m.role, String(m.content).trim()]).slice(1)).toEqual([
      ['user', 'think for a long time'],
      ['assistant', 'A partial thought'],
      ['user', 'do this instead'],
    ]);
    const assistants: string[] = [];
    for (const m of await page.locator(hooks.message('assistant')).all()) assistants.push(await deepText(m));
    expect(assistants[0]).toContain('A partial thought');
    expect(assistants.join(' ')).not.toContain('never shown');
  });
});
