import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';
import { isTitleRequest } from '../helpers/chat.js';
import type { Script } from '../fixtures/scripted-openai.js';

/**
 * delegate_task in Chromium: the children appear as a live tree in the parent's Activity row,
 * one is cancelled from the tree, another is opened (its own session, streaming) and stopped
 * there, and the parent's turn goes on with their results.
 */
describe('web app: subagents', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(async () => ui?.close());

  it('shows children live in the Activity row; one cancelled from the tree, one opened and stopped in its own session', async () => {
    const scripts: Record<string, Script[]> = {
      'Quick survey': [[{ text: 'Survey done.' }]],
      'Long crawl': [[{ text: 'Crawling' }, { delayMs: 60_000 }]],
      'Deep audit': [[{ text: 'Auditing the code' }, { delayMs: 60_000 }]],
    };
    ui.model.setRouter((req) => {
      if (isTitleRequest(req)) return [{ text: 'A scripted title' }];
      const system = String(req.body?.messages?.[0]?.content ?? '');
      const goal = Object.keys(scripts).find((g) => system.startsWith('You are a subagent') && system.includes(`TASK:\n${g}`));
      return goal ? scripts[goal]!.shift() : undefined;
    });
    ui.model.enqueue(
      [{ toolCall: { id: 'd1', name: 'delegate_task', args: { tasks: [{ goal: 'Quick survey' }, { goal: 'Long crawl' }, { goal: 'Deep audit' }] } } }],
      [{ text: 'One survey finished; the other two were cancelled.' }],
    );
    const { page } = await ui.open('/');
    await page.locator(hooks.composer).fill('split the work');
    await page.locator(hooks.send).click();

    // The tree is in the parent's Activity row while the children run.
    const row = (goal: string) => page.locator(hooks.activity).locator('[data-role="subagent"]', { hasText: goal });
    await expect.poll(() => page.locator(hooks.activity).locator('[data-role="subagent"]').count()).toBe(3);
    await expect.poll(() => row('Quick survey').getAttribute('data-status')).toBe('completed');
    expect(await row('Long crawl').getAttribute('data-status')).toBe('running');
    expect(await row('Deep audit').getAttribute('data-status')).toBe('running');
    await ui.screenshot(page, 'subagent-tree');
    const parentUrl = page.url();

    // Cancelled from the tree.
    await row('Long crawl').locator('[data-role="subagent-cancel"]').click();
    await expect.poll(() => row('Long crawl').getAttribute('data-status')).toBe('interrupted');
    expect(await row('Deep audit').getAttribute('data-status')).toBe('running');

    // Opened: the child's own session, its answer streaming, stopped from there.
    const childId = await row('Deep audit').getAttribute('data-session');
    await row('Deep audit').locator('[data-role="subagent-open"]').click();
    await expect.poll(() => page.url()).toMatch(new RegExp(`/session/${childId}$`));
    // The URL changes first; the child's transcript arrives a moment later.
    await expect.poll(() => deepText(page.locator(hooks.message('user')).last())).toContain('Deep audit');
    await expect.poll(async () => (await deepText(page.locator(hooks.message('assistant')).last())).includes('Auditing the code')).toBe(true);
    await expect.poll(() => page.locator(hooks.stop).count()).toBe(1);
    await page.locator(hooks.stop).click();
    await expect.poll(() => page.locator(hooks.send).count()).toBe(1);
    // The sidebar folds the children under the parent; the open child is drawn nested.
    await expect.poll(() => page.locator(hooks.sessionRow).count()).toBe(2);
    expect(await deepText(page.locator(hooks.sessionRow).locator('[data-role="subagent-count"]'))).toContain('3');
    expect(await page.locator(`${hooks.sessionRow}[data-session-id="${childId}"]`).locator('[data-role="subagent-nested"]').count()).toBe(1);
    await ui.screenshot(page, 'subagent-child-open');
    // A child is view-only once stopped: its parent's work, not a conversation to continue.
    await expect.poll(() => page.locator(hooks.composer).isDisabled()).toBe(true);

    // Back in the parent: its turn went on with the results and the tree says how each ended.
    await page.goto(parentUrl);
    await expect.poll(() => page.locator(hooks.sessionRow).count()).toBe(1);
    await expect
      .poll(async () => (await deepText(page.locator(hooks.message('assistant')).last())).includes('the other two were cancelled'), { timeout: 15_000 })
      .toBe(true);
    expect(await row('Quick survey').getAttribute('data-status')).toBe('completed');
    expect(await row('Long crawl').getAttribute('data-status')).toBe('interrupted');
    expect(await row('Deep audit').getAttribute('data-status')).toBe('interrupted');
    const sent = ui.model.requests.map((r) => r.body).filter((b) => b.messages?.some((m: any) => m.role === 'tool' && m.tool_call_id === 'd1'));
    const results = JSON.parse(sent.at(-1).messages.find((m: any) => m.tool_call_id === 'd1').content).results;
    expect(results.map((r: any) => r.status)).toEqual(['completed', 'interrupted', 'interrupted']);
  });
});
