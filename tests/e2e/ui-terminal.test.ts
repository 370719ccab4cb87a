import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';

const panel = '[data-role="terminal-panel"]';

/** The workspace terminal in Chromium against the real server and a real PTY. */
describe('web app: the terminal panel', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(async () => ui?.close());

  it('opens with /terminal above the composer, runs a command, and closes the shell', async () => {
    ui.model.enqueue([{ text: 'Hello.' }]);
    const { page } = await ui.open('/');
    // xterm is not part of the page until a terminal opens.
    const before = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
    expect(before.some((n) => /hermes-terminal-panel/.test(n))).toBe(false);
    await page.locator(hooks.composer).fill('hi');
    await page.locator(hooks.send).click();
    await expect.poll(async () => (await deepText(page.locator(hooks.message('assistant')).last()))?.includes('Hello.')).toBe(true);

    await page.locator(hooks.composer).fill('/terminal');
    await page.locator(hooks.composer).press('Enter');
    const term = page.locator(panel);
    await expect.poll(() => term.getAttribute('data-status')).toBe('running');
    // Docked above the composer.
    const [p, c] = await Promise.all([term.boundingBox(), page.locator(hooks.composer).boundingBox()]);
    expect(p!.y + p!.height).toBeLessThanOrEqual(c!.y);

    await term.locator('.xterm').click();
    await page.keyboard.type('echo hi-$((40+2))');
    await page.keyboard.press('Enter');
    const text = () => page.locator('hermes-terminal-panel').evaluate((el) => (el as unknown as { visibleText(): string }).visibleText());
    await expect.poll(text).toMatch(/^hi-42$/m);
    await ui.screenshot(page, 'terminal-panel');
    // The light theme: the screen and the text follow the tokens.
    await page.evaluate(() => (document.documentElement.dataset.theme = 'light'));
    const viewport = term.locator('.xterm-viewport');
    await expect.poll(() => viewport.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe('rgb(0, 0, 0)');
    await ui.screenshot(page, 'terminal-panel-light');
    await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));

    const pid = await shellPid(page, text);
    expect(alive(pid)).toBe(true);
    await term.locator('[data-action="close"]').click();
    await expect.poll(() => page.locator(panel).count()).toBe(0);
    await expect.poll(() => alive(pid)).toBe(false);
  });

  it('hangs up every shell when the server stops', async () => {
    ui.model.enqueue([{ text: 'Again.' }]);
    const { page } = await ui.open('/');
    await page.locator(hooks.composer).fill('hello again');
    await page.locator(hooks.send).click();
    await expect.poll(async () => (await deepText(page.locator(hooks.message('assistant')).last()))?.includes('Again.')).toBe(true);
    await page.locator(hooks.composer).fill('/terminal');
    await page.locator(hooks.composer).press('Enter');
    await expect.poll(() => page.locator(panel).getAttribute('data-status')).toBe('running');
    await page.locator(panel).locator('.xterm').click();
    const text = () => page.locator('hermes-terminal-panel').evaluate((el) => (el as unknown as { visibleText(): string }).visibleText());
    const pid = await shellPid(page, text);
    // SIGTERM straight to the server (the harness's stop would also sweep its children).
    ui.server.child.kill('SIGTERM');
    expect(await ui.server.exited).toBe(0);
    expect(alive(pid)).toBe(false);
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The shell's own pid, asked of the shell. */
async function shellPid(page: import('playwright-core').Page, text: () => Promise<string>): Promise<number> {
  await page.keyboard.type('echo pid-$$-end');
  await page.keyboard.press('Enter');
  await expect.poll(text).toMatch(/^pid-\d+-end$/m);
  return Number(/^pid-(\d+)-end$/m.exec(await text())![1]);
}
