import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';

const LONG = 'raillong0001';
const OTHER = 'railother001';
const PANELS = ['tasks', 'skills', 'memory', 'todos', 'insights', 'profiles', 'logs'] as const;
const LABELS: Record<string, string> = {
  tasks: 'Tasks',
  skills: 'Skills',
  memory: 'Memory',
  todos: 'Todos',
  insights: 'Insights',
  profiles: 'Profiles',
  logs: 'Logs',
};

/** A long session (so the transcript scrolls) and a short one, as the incumbent stores them. */
async function writeSessions(stateDir: string) {
  const dir = join(stateDir, 'sessions');
  await mkdir(dir, { recursive: true });
  const now = Date.now() / 1000;
  const session = (id: string, title: string, t: number, n: number) =>
    writeFile(
      join(dir, `${id}.json`),
      JSON.stringify({
        session_id: id,
        title,
        workspace: null,
        model: null,
        created_at: t,
        updated_at: t,
        pinned: false,
        archived: false,
        project_id: null,
        message_count: n,
        messages: Array.from({ length: n }, (_, i) =>
          i % 2 === 0
            ? { role: 'user', content: `Question ${i / 2} of ${title}?`, timestamp: t + i }
            : { role: 'assistant', content: `Answer ${i}.\n\n${'A paragraph that takes some room. '.repeat(12)}`, timestamp: t + i },
        ),
        tool_calls: [],
      }),
    );
  await session(LONG, 'The long chat', now, 40);
  await session(OTHER, 'The other chat', now - 600, 2);
}

const railItem = (name: string) => `[data-role="rail"] [data-role="rail-item"][data-panel="${name}"]`;
const panel = (name: string) => `[data-role="panel"][data-panel="${name}"]`;
const scroller = 'hermes-chat-view hermes-transcript .scroller';
const title = 'hermes-app .topbar .title';

async function openLong(ui: UiHarness, options?: Parameters<UiHarness['open']>[1]) {
  const opened = await ui.open(`/session/${LONG}`, options);
  await expect.poll(() => opened.page.locator(hooks.message('assistant')).count(), { timeout: 15_000 }).toBeGreaterThan(3);
  return opened;
}

/** Requests for one session's transcript (what re-opening the chat would send). */
function transcriptLoads(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname === '/api/session' || url.pathname === '/api/session/messages') seen.push(url.search);
  });
  return seen;
}

describe('web app: the control center rail', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi({ prepare: writeSessions });
  }, 120_000);
  afterAll(async () => ui?.close());

  it('opens every panel from the rail in order, marks it current and names it in the top bar; Settings opens the dialog', async () => {
    const { page } = await openLong(ui);
    const names = await page.locator('[data-role="rail"] [data-role="rail-item"]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.panel));
    expect(names).toEqual(['chat', ...PANELS, 'settings']);
    expect(await page.locator(railItem('chat')).getAttribute('aria-current')).toBe('page');
    for (const name of PANELS) {
      await page.locator(railItem(name)).click();
      await expect.poll(() => new URL(page.url()).pathname).toBe(`/panel/${name}`);
      await page.locator(panel(name)).waitFor({ state: 'visible', timeout: 15_000 });
      expect(await page.locator(railItem(name)).getAttribute('aria-current')).toBe('page');
      expect(await page.locator('[data-role="rail-item"][aria-current="page"]').count()).toBe(1);
      await expect.poll(() => page.locator(title).textContent()).toBe(LABELS[name]);
      // The chat is still there, hidden and out of reach.
      expect(await page.locator('hermes-chat-view').isVisible()).toBe(false);
    }
    await page.locator(railItem('tasks')).click();
    await page.locator(panel('tasks')).waitFor();
    // A fresh Hermes home has no jobs: the panel says what a task is and offers to make one.
    expect(await page.locator(`${panel('tasks')} [data-role="tasks-empty"]`).textContent()).toContain('No scheduled tasks yet');
    await expect.poll(() => page.locator(`${panel('tasks')} [data-role="tasks-empty-new"]`).isVisible()).toBe(true);
    await ui.screenshot(page, 'rail-desktop');

    await page.locator(railItem('settings')).click();
    await page.locator(hooks.settings).waitFor({ state: 'visible' });
    expect(new URL(page.url()).pathname).toBe('/panel/tasks');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator(hooks.settings).count()).toBe(0);
  });

  it('Back/Forward move between panels and the chat; the chat comes back to the same session, scrolled where it was, without reloading it', async () => {
    const { page } = await openLong(ui);
    const box = page.locator(scroller);
    await box.evaluate((el) => {
      el.scrollTop = Math.floor((el.scrollHeight - el.clientHeight) / 2);
    });
    // Settled first: under load the transcript may still be rendering what scrolling brought in.
    let top = -1;
    await expect
      .poll(async () => {
        const before = top;
        await page.waitForTimeout(250);
        top = await box.evaluate((el) => el.scrollTop);
        return top === before;
      })
      .toBe(true);
    expect(top).toBeGreaterThan(100);
    const loads = transcriptLoads(page);

    await page.locator(railItem('skills')).click();
    await page.locator(panel('skills')).waitFor({ state: 'visible' });
    await page.locator(railItem('memory')).click();
    await page.locator(panel('memory')).waitFor({ state: 'visible' });
    await page.goBack();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/panel/skills');
    await page.locator(panel('skills')).waitFor({ state: 'visible' });
    await page.goBack();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/session/${LONG}`);
    await expect.poll(() => page.locator('hermes-chat-view').isVisible()).toBe(true);
    expect(await page.locator(panel('skills')).count()).toBe(0);
    expect(await box.evaluate((el) => el.scrollTop)).toBe(top);
    await page.goForward();
    await page.locator(panel('skills')).waitFor({ state: 'visible' });

    await page.locator(railItem('chat')).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/session/${LONG}`);
    await expect.poll(() => page.locator(title).textContent()).toBe('The long chat');
    expect(await box.evaluate((el) => el.scrollTop)).toBe(top);
    expect(loads).toEqual([]);
  });

  it('a reload on a panel URL keeps the panel, and Chat then returns to the session open before', async () => {
    const { page } = await ui.open(`/session/${OTHER}`);
    await expect.poll(() => page.locator(hooks.message('assistant')).count(), { timeout: 15_000 }).toBe(1);
    await page.locator(railItem('logs')).click();
    await page.locator(panel('logs')).waitFor({ state: 'visible' });
    await page.reload();
    await page.locator(panel('logs')).waitFor({ state: 'visible', timeout: 15_000 });
    expect(await page.locator(railItem('logs')).getAttribute('aria-current')).toBe('page');
    await expect.poll(() => page.locator(title).textContent()).toBe('Logs');
    await page.locator(railItem('chat')).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/session/${OTHER}`);
    await expect.poll(() => deepText(page.locator(hooks.message('user')).first())).toContain('The other chat');
  });

  it('is keyboard reachable: arrows move along the rail, Enter and Space open; `]`, `[` and `\\` move between panels', async () => {
    const { page } = await openLong(ui);
    await page.locator(railItem('chat')).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    expect(await page.locator(railItem('skills')).evaluate((el) => el.matches(':focus'))).toBe(true);
    await page.keyboard.press('Enter');
    await page.locator(panel('skills')).waitFor({ state: 'visible' });
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press(' ');
    await page.locator(panel('memory')).waitFor({ state: 'visible' });
    await page.keyboard.press(']');
    await page.locator(panel('todos')).waitFor({ state: 'visible' });
    await page.keyboard.press('[');
    await page.keyboard.press('[');
    await page.locator(panel('skills')).waitFor({ state: 'visible' });
    // `\`: back to the chat, and again to the last panel.
    await page.keyboard.press('\\');
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/session/${LONG}`);
    await page.keyboard.press('\\');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/panel/skills');
    // Typing in the composer is never a shortcut.
    await page.keyboard.press('\\');
    await page.locator(hooks.composer).click();
    await page.keyboard.type('a [b] \\c');
    expect(new URL(page.url()).pathname).toBe(`/session/${LONG}`);
  });

  it('on a phone: no rail; the Panels button opens a bottom sheet with the same entries', async () => {
    const { page } = await openLong(ui, { viewport: { width: 390, height: 844 }, isMobile: true });
    expect(await page.locator('[data-role="rail-item"]').count()).toBe(0);
    await page.locator('[data-role="open-panels"]').click();
    const items = page.locator('[data-role="rail"] [data-role="rail-item"]');
    await expect.poll(() => items.count()).toBe(9);
    expect(await items.evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.panel))).toEqual(['chat', ...PANELS, 'settings']);
    expect(await page.locator(railItem('chat')).getAttribute('aria-current')).toBe('page');
    await ui.screenshot(page, 'rail-phone');
    await page.locator(railItem('memory')).click();
    await page.locator(panel('memory')).waitFor({ state: 'visible' });
    expect(await page.locator('[data-role="rail-item"]').count()).toBe(0);
    await expect.poll(() => page.locator(title).textContent()).toBe('Memory');
    // Escape closes the sheet without choosing.
    await page.locator('[data-role="open-panels"]').click();
    await expect.poll(() => items.count()).toBe(9);
    await page.keyboard.press('Escape');
    await expect.poll(() => items.count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/panel/memory');
    await page.locator('[data-role="open-panels"]').click();
    await page.locator(railItem('chat')).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/session/${LONG}`);
  });

  it('offline, the service worker serves a panel URL from the cached shell', async () => {
    const { context, page } = await ui.open('/');
    await page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 15_000 });
    await context.setOffline(true);
    const shell = await page.goto(`${ui.server.url}/panel/memory`);
    expect(shell?.fromServiceWorker()).toBe(true);
    await page.locator(panel('memory')).waitFor({ state: 'visible', timeout: 15_000 });
    await context.setOffline(false);
  });
});
