import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const row = '[data-role="process-row"]';

/** Background commands in Chromium: listed under the turn's Activity, live, after a reload, and stopped with the server. */
describe('web app: background processes', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(async () => ui?.close());

  it('shows a background process under its turn, keeps it across a reload, and follows it to its end', async () => {
    ui.model.enqueue(
      [{ toolCall: { id: 'bg1', name: 'terminal', args: { command: 'echo $$ > loop.pid; while true; do echo beat; sleep 0.3; done', background: true } } }],
      [{ text: 'The loop is running.' }],
    );
    const { page } = await ui.open('/');
    await page.locator(hooks.composer).fill('start a loop in the background');
    await page.locator(hooks.send).click();
    await expect.poll(async () => (await deepText(page.locator(hooks.message('assistant')).last()))?.includes('The loop is running.')).toBe(true);

    const activity = page.locator(hooks.activity).last();
    // In sight without opening the Activity row.
    expect(await activity.getAttribute('data-open')).toBe('false');
    const proc = activity.locator(row);
    await expect.poll(() => proc.getAttribute('data-status')).toBe('running');
    const pid = Number(await readFile(join(ui.workspace, 'loop.pid'), 'utf8'));
    expect(alive(pid)).toBe(true);
    await expect.poll(async () => (await deepText(proc)) ?? '').toMatch(/while true.*running · pid \d+.*beat/s);
    await ui.screenshot(page, 'background-process-running');

    await page.reload();
    await expect.poll(() => page.locator(hooks.activity).last().locator(row).getAttribute('data-status')).toBe('running');

    // The next turn kills it; the first turn's row follows (it keeps asking while running).
    const id = (await page.locator(row).first().getAttribute('data-process')) as string;
    ui.model.enqueue([{ toolCall: { id: 'k1', name: 'process', args: { action: 'kill', session_id: id } } }], [{ text: 'Stopped it.' }]);
    await page.locator(hooks.composer).fill('stop it');
    await page.locator(hooks.send).click();
    await expect.poll(async () => (await deepText(page.locator(hooks.message('assistant')).last()))?.includes('Stopped it.')).toBe(true);
    const first = page.locator(hooks.activity).first().locator(row);
    await expect.poll(() => first.getAttribute('data-status'), { timeout: 10_000 }).toBe('exited');
    expect(await deepText(first)).toContain('(killed)');
    expect(alive(pid)).toBe(false);
  });

  it('stops every background process when the server stops', async () => {
    ui.model.enqueue(
      [{ toolCall: { id: 'bg2', name: 'terminal', args: { command: 'echo $$ > server.pid; exec sleep 300', background: true } } }],
      [{ text: 'Sleeping.' }],
    );
    const { page } = await ui.open('/');
    await page.locator(hooks.composer).fill('sleep in the background');
    await page.locator(hooks.send).click();
    await expect.poll(() => page.locator(row).getAttribute('data-status')).toBe('running');
    const pid = Number(await readFile(join(ui.workspace, 'server.pid'), 'utf8'));
    expect(alive(pid)).toBe(true);
    // SIGTERM straight to the server (the harness's stop would also sweep its children).
    ui.server.child.kill('SIGTERM');
    expect(await ui.server.exited).toBe(0);
    expect(alive(pid)).toBe(false);
  });
});
