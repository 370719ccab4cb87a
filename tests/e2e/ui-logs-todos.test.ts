import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hooks, startUi, type UiHarness } from '../helpers/browser.js';

const line = '[data-role="log-line"]';
const item = '[data-role="todo-item"]';
const AGENT_LOG = [
  '2026-03-01 10:00:00,001 DEBUG run_agent: tokens counted',
  '2026-03-01 10:00:01,002 INFO [20260301_100001_abc] run_agent: turn started',
  '2026-03-01 10:00:02,003 WARNING tools.terminal: command took 31 s',
  '2026-03-01 10:00:03,004 ERROR run_agent: provider answered 500',
  'Traceback (most recent call last):',
  '  File "run_agent.py", line 812, in run_conversation',
  '2026-03-01 10:00:04,005 INFO run_agent: retrying',
];

/** The control center's Logs and Todos panels, opened at their routes (the rail comes from elsewhere). */
describe('web app: Logs and Todos panels', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(async () => ui?.close());

  it('Logs reads the seeded agent.log, filters by level, switches file and picks up a line appended meanwhile', async () => {
    const logs = join(ui.home, '.hermes', 'logs');
    await mkdir(logs, { recursive: true });
    await writeFile(join(logs, 'agent.log'), AGENT_LOG.map((l) => `${l}\n`).join(''));
    await writeFile(join(logs, 'errors.log'), '2026-03-01 10:00:03,004 ERROR run_agent: provider answered 500\n');
    const { page } = await ui.open('/panel/logs');
    await expect.poll(() => page.locator(line).count(), { timeout: 15_000 }).toBe(AGENT_LOG.length);
    expect(await page.locator(`${line}[data-level="error"]`).count()).toBe(3);

    await page.locator('[data-role="log-level"]').selectOption('warning');
    await expect.poll(() => page.locator(line).allTextContents()).toEqual(AGENT_LOG.slice(2, 6));
    await page.locator('[data-role="log-level"]').selectOption('debug');

    await page.locator('[data-role="log-file"]').selectOption('errors');
    await expect.poll(() => page.locator(line).allTextContents()).toEqual(['2026-03-01 10:00:03,004 ERROR run_agent: provider answered 500']);
    await page.locator('[data-role="log-file"]').selectOption('gateway');
    await expect.poll(() => page.locator('[data-role="log-hint"]').textContent()).toBe('Log file for gateway not found yet.');
    // This server's own log: JSON lines, the page's own requests among them.
    await page.locator('[data-role="log-file"]').selectOption('webui');
    await expect.poll(async () => (await page.locator(line).allTextContents()).some((l) => l.includes('"path":"/api/logs"')), { timeout: 10_000 }).toBe(true);

    await page.locator('[data-role="log-file"]').selectOption('agent');
    await expect.poll(() => page.locator(line).count()).toBe(AGENT_LOG.length);
    await page.locator('[data-role="log-auto"]').check();
    await appendFile(join(logs, 'agent.log'), '2026-03-01 10:00:05,000 INFO run_agent: appended meanwhile\n');
    // Auto-refresh asks every 3 s: the line shows without a click.
    await expect.poll(() => page.locator(line).last().textContent(), { timeout: 10_000 }).toBe('2026-03-01 10:00:05,000 INFO run_agent: appended meanwhile');
    await ui.screenshot(page, 'panel-logs');

    // The choices survive a reload.
    await page.reload();
    await expect.poll(() => page.locator(line).count(), { timeout: 15_000 }).toBe(AGENT_LOG.length + 1);
    expect(await page.locator('[data-role="log-auto"]').isChecked()).toBe(true);
  });

  it("Todos shows the list a turn's todo tool wrote, live while it runs and after a reload", async () => {
    const { page } = await ui.open('/');
    ui.model.enqueue(
      [
        {
          toolCall: {
            id: 'plan',
            name: 'todo',
            args: {
              todos: [
                { id: '1', content: 'Read the failing test', status: 'in_progress' },
                { id: '2', content: 'Fix the parser', status: 'pending' },
              ],
            },
          },
        },
      ],
      // Slow steps: the turn is still running while the panel is looked at.
      [
        { delayMs: 2500 },
        {
          toolCall: {
            id: 'step',
            name: 'todo',
            args: {
              merge: true,
              todos: [
                { id: '1', status: 'completed' },
                { id: '2', status: 'in_progress' },
              ],
            },
          },
        },
      ],
      [{ delayMs: 2500 }, { text: 'Both steps are under way.' }],
    );
    await page.locator(hooks.composer).fill('fix the parser bug');
    await page.locator(hooks.send).click();
    await expect.poll(() => page.url(), { timeout: 10_000 }).toMatch(/\/session\/\w+/);
    const sid = page.url().split('/session/')[1]!;
    // Into the panel the way the app's own navigation does it (back/forward use the same path).
    await page.evaluate(() => {
      history.pushState(null, '', '/panel/todos');
      dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect.poll(() => page.locator(item).count(), { timeout: 10_000 }).toBe(2);
    expect(await page.locator(item).evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.status))).toEqual(['in_progress', 'pending']);
    // The second todo call lands while the turn still runs: the panel updates from the stream.
    await expect
      .poll(() => page.locator(item).evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.status)), { timeout: 10_000 })
      .toEqual(['completed', 'in_progress']);
    const running = await ui.api(`/api/session?session_id=${sid}&messages=0`);
    expect(running.session.active_stream_id).toBeTruthy();
    await ui.screenshot(page, 'panel-todos');

    // The turn ends; a reload at the panel brings the same list back.
    await expect.poll(async () => (await ui.api(`/api/session?session_id=${sid}&messages=0`)).session.active_stream_id ?? null, { timeout: 15_000 }).toBeNull();
    await page.reload();
    await expect.poll(() => page.locator(item).count(), { timeout: 15_000 }).toBe(2);
    expect(await page.locator(`${item} .content`).allTextContents()).toEqual(['Read the failing test', 'Fix the parser']);
    expect(await page.locator(item).evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.status))).toEqual(['completed', 'in_progress']);
    expect(await page.locator('[data-role="todo-summary"]').textContent()).toBe('1 of 2 done');
  });
});
