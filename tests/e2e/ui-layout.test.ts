import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';

const SESSIONS = 10_000;

/** Writes sessions the way the incumbent stores them, before the server starts. */
async function writeSessions(stateDir: string) {
  const dir = join(stateDir, 'sessions');
  await mkdir(dir, { recursive: true });
  const now = Date.now() / 1000;
  await Promise.all(
    Array.from({ length: SESSIONS }, (_, i) => {
      const id = `b${i.toString(16).padStart(11, '0')}`;
      const t = now - i * 600;
      return writeFile(
        join(dir, `${id}.json`),
        JSON.stringify({
          session_id: id,
          title: `Session number ${i}`,
          workspace: null,
          model: null,
          created_at: t,
          updated_at: t,
          pinned: i === 5,
          archived: false,
          project_id: null,
          message_count: 2,
          messages: [
            { role: 'user', content: `hello ${i}`, timestamp: t },
            { role: 'assistant', content: `answer ${i}`, timestamp: t },
          ],
          tool_calls: [],
        }),
      );
    }),
  );
}

describe('web app: layout, sidebar at scale, workspace, mobile', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi({ prepare: writeSessions });
  }, 120_000);
  afterAll(async () => ui?.close());

  it('a 10,000-session sidebar keeps few rows in the DOM and scrolls to the oldest', async () => {
    const { page } = await ui.open('/');
    await expect.poll(() => page.locator(hooks.sessionRow).count(), { timeout: 15_000 }).toBeGreaterThan(5);
    const inDom = await page.locator(hooks.sessionRow).count();
    expect(inDom).toBeLessThan(200);
    // Pinned first.
    expect(await page.locator(hooks.sessionRow).first().getAttribute('data-session-id')).toBe(`b${(5).toString(16).padStart(11, '0')}`);
    await page.locator(hooks.sessionRow).first().hover();
    // Rows arrive a page at a time as the end of the list comes into view: wheel until the oldest shows.
    const oldest = page.locator(`${hooks.sessionRow}[data-session-id="b${(SESSIONS - 1).toString(16).padStart(11, '0')}"]`);
    for (let i = 0; i < 400 && !(await oldest.count()); i++) {
      await page.mouse.wheel(0, 20_000);
      await page.waitForTimeout(25);
    }
    await expect.poll(() => oldest.count(), { timeout: 10_000 }).toBe(1);
    expect(await page.locator(hooks.sessionRow).count()).toBeLessThan(200);
    await ui.screenshot(page, 'sidebar-10k');
    // Its own waits (15 s for the first rows, the wheel loop, 10 s for the oldest) exceed the default 30 s on a busy machine.
  }, 60_000);

  it('opens a session from the sidebar, and back/forward move between sessions', async () => {
    const { page } = await ui.open('/');
    const rows = page.locator(hooks.sessionRow);
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBeGreaterThan(3);
    const first = await rows.nth(1).getAttribute('data-session-id');
    const second = await rows.nth(2).getAttribute('data-session-id');
    await rows.nth(1).click();
    await expect.poll(() => page.url()).toContain(`/session/${first}`);
    await expect.poll(() => page.locator(hooks.message('assistant')).count()).toBe(1);
    await rows.nth(2).click();
    await expect.poll(() => page.url()).toContain(`/session/${second}`);
    await page.goBack();
    await expect.poll(() => page.url()).toContain(`/session/${first}`);
    await page.goForward();
    await expect.poll(() => page.url()).toContain(`/session/${second}`);
  });

  it('the workspace panel is closed by default, opens on demand and shows files', async () => {
    await writeFile(join(ui.workspace, 'README.md'), '# Hello workspace\n');
    const session = (await ui.api('/api/session/new', {})).session;
    const { page } = await ui.open(`/session/${session.session_id}`);
    expect(await page.locator(hooks.workspacePanel).count()).toBe(0);
    await page.getByRole('button', { name: 'Toggle workspace panel' }).click();
    await expect.poll(() => page.locator(hooks.workspacePanel).count()).toBe(1);
    await expect.poll(async () => (await deepText(page.locator(hooks.workspacePanel)))?.includes('README.md')).toBe(true);
    await ui.screenshot(page, 'workspace-panel');
    // Reloaded, it stays open (restored before first paint).
    await page.reload();
    await expect.poll(() => page.locator(hooks.workspacePanel).count()).toBe(1);
  });

  it('settings open and change the theme', async () => {
    const { page } = await ui.open('/');
    await page.locator('[data-role="open-settings"]').click();
    await expect.poll(() => page.locator(hooks.settings).count()).toBe(1);
    await ui.screenshot(page, 'settings');
    await page.locator(hooks.settings).getByRole('radiogroup', { name: 'theme' }).getByText('Light', { exact: true }).click();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await page.keyboard.press('Escape');
    await ui.screenshot(page, 'light-theme');
    await ui.api('/api/settings', { theme: 'dark' });
  });

  it('on a phone: the sidebar slides in, targets are 44 px, the chat is full width', async () => {
    const { page } = await ui.open('/', { viewport: { width: 390, height: 844 }, isMobile: true });
    await page.waitForTimeout(300);
    await ui.screenshot(page, 'mobile-chat');
    const sidebarToggle = page.getByRole('button', { name: 'Toggle sidebar' });
    const box = await sidebarToggle.boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(44);
    await sidebarToggle.click();
    await expect.poll(() => page.locator(hooks.sessionRow).first().isVisible(), { timeout: 10_000 }).toBe(true);
    await page.waitForTimeout(400); // the slide-in transition
    await ui.screenshot(page, 'mobile-sidebar');
    const row = await page.locator(hooks.sessionRow).first().boundingBox();
    expect(row!.height).toBeGreaterThanOrEqual(44);
  });
});
