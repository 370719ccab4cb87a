import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hooks, startUi, type UiHarness } from '../helpers/browser.js';

/** Two stored sessions: a chat, and a task run (source cron) as the scheduler stores one. */
async function prepare(stateDir: string) {
  const dir = join(stateDir, 'sessions');
  await mkdir(dir, { recursive: true });
  const now = Date.now() / 1000;
  const session = (id: string, title: string, at: number, extra: Record<string, unknown> = {}) =>
    writeFile(
      join(dir, `${id}.json`),
      JSON.stringify({
        session_id: id,
        title,
        created_at: at,
        updated_at: at,
        pinned: false,
        archived: false,
        project_id: null,
        ...extra,
        messages: [{ role: 'user', content: 'x', timestamp: at }],
        tool_calls: [],
      }),
    );
  await session('c00000000001', 'A plain chat', now - 60);
  await session('t00000000001', 'Morning inbox summary', now, { session_source: 'cron' });
}

describe('the sidebar Tasks filter (Chromium, built server)', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi({ prepare });
  }, 120_000);
  afterAll(async () => ui?.close());

  it('hides task runs from the list, and the Tasks chip shows only them with a Task badge', async () => {
    const context = await ui.browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      await page.goto(ui.server.url + '/');
      const rows = page.locator(hooks.sessionRow);
      await rows.first().waitFor();
      await expect.poll(() => rows.evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.sessionId))).toEqual(['c00000000001']);
      expect(await page.locator('[data-role="task-badge"]').count()).toBe(0);

      const chip = page.locator('[data-role="sidebar-tasks-filter"]');
      await expect.poll(() => chip.getAttribute('aria-pressed')).toBe('false');
      expect(await chip.textContent()).toContain('Tasks');
      await chip.click();
      await expect.poll(() => rows.evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.sessionId))).toEqual(['t00000000001']);
      expect(await chip.getAttribute('aria-pressed')).toBe('true');
      expect(await page.locator(`${hooks.sessionRow}[data-session-id="t00000000001"] [data-role="task-badge"]`).textContent()).toBe('Task');

      await chip.click();
      await expect.poll(() => rows.evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.sessionId))).toEqual(['c00000000001']);
      expect(await chip.getAttribute('aria-pressed')).toBe('false');
    } finally {
      await context.close();
    }
  });
});
