import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';

const row = (sid: string) => `${hooks.sessionRow}[data-session-id="${sid}"]`;
const sessionIdOf = (page: Page) => new URL(page.url()).pathname.split('/').pop()!;

/**
 * Two tabs of one browser: what happens in one shows in the other without a reload — the
 * sidebar (rename, a new session) over /api/sessions/events, a turn over /api/session/stream.
 * Timeouts are generous: the one-second budget is measured in bench/live-sync.bench.mjs.
 */
describe('web app: live sync between tabs', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(async () => ui?.close());

  async function say(page: Page, text: string, reply: string) {
    ui.model.enqueue([{ text: reply }]);
    await page.locator(hooks.composer).fill(text);
    await page.locator(hooks.send).click();
    await expect.poll(async () => deepText(page.locator(hooks.message('assistant')).last()), { timeout: 20_000 }).toContain(reply);
    await expect.poll(() => page.locator(hooks.send).count(), { timeout: 20_000 }).toBe(1);
  }

  it('a rename and a new session in tab A show in tab B’s sidebar; a turn started in A streams in B', async () => {
    const { context, page: a } = await ui.open('/');
    await say(a, 'first question', 'first reply');
    const sid = sessionIdOf(a);

    const b = await context.newPage();
    await b.goto(a.url());
    await expect.poll(async () => deepText(b.locator(hooks.message('assistant')).last()), { timeout: 20_000 }).toContain('first reply');
    await expect.poll(() => b.locator(row(sid)).count(), { timeout: 20_000 }).toBe(1);

    // A rename made in tab A (its own request) reaches tab B's sidebar.
    const renamed = await a.evaluate(
      async (id) =>
        (
          await fetch('/api/session/rename', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ session_id: id, title: 'Renamed in tab A' }),
          })
        ).status,
      sid,
    );
    expect(renamed).toBe(200);
    await expect.poll(async () => deepText(b.locator(row(sid))), { timeout: 15_000 }).toContain('Renamed in tab A');

    // A turn started in tab A streams in tab B, which only has the session open.
    ui.model.enqueue([{ text: 'streamed live ' }, { delayMs: 4000 }, { text: 'and finished' }]);
    await a.locator(hooks.composer).fill('second question');
    await a.locator(hooks.send).click();
    await expect.poll(async () => deepText(b.locator(hooks.message('assistant')).last()), { timeout: 15_000 }).toContain('streamed live');
    // Seen while the model was still holding back the rest: B follows the stream, not the stored answer.
    expect(await deepText(b.locator(hooks.message('assistant')).last())).not.toContain('and finished');
    await expect.poll(async () => deepText(b.locator(hooks.message('assistant')).last()), { timeout: 20_000 }).toContain('and finished');
    await expect.poll(async () => deepText(b.locator(hooks.message('user')).last()), { timeout: 10_000 }).toContain('second question');
    await expect.poll(() => a.locator(hooks.send).count(), { timeout: 20_000 }).toBe(1);
    await ui.screenshot(b, 'live-sync-tab-b');

    // A new conversation started in tab A appears in tab B's sidebar.
    await a.locator(hooks.newChat).click();
    await say(a, 'another conversation', 'another reply');
    const second = sessionIdOf(a);
    expect(second).not.toBe(sid);
    await expect.poll(() => b.locator(row(second)).count(), { timeout: 15_000 }).toBe(1);
  });
});
