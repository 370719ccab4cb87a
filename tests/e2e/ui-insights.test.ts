import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startUi, type UiHarness } from '../helpers/browser.js';
import { writeStateDb } from '../fixtures/hermes-state-db.js';

const DAY = 86_400;
const NOW = Date.now() / 1000;
// WebUI sessions this many days ago (7d: 3, 30d: 4, 90d: 5, 365d: 6), one CLI session in state.db 3 days ago.
const AGES = [0.02, 2, 5, 20, 60, 200];
const MODELS = ['anthropic/claude-sonnet-4.6', 'openai/gpt-5'];
const iso = (ts: number) => new Date(ts * 1000).toISOString().slice(0, 10);

/** Sessions as the incumbent stores them (the server indexes them at start) and a Hermes state.db. */
async function prepare(stateDir: string) {
  await mkdir(join(stateDir, 'sessions'), { recursive: true });
  for (const [i, age] of AGES.entries()) {
    const at = NOW - age * DAY;
    const id = `00000000000${i}`;
    const session = {
      session_id: id,
      title: `Session ${i}`,
      workspace: null,
      model: MODELS[i % 2],
      created_at: at - 600,
      updated_at: at,
      profile: 'default',
      input_tokens: 1000 * (i + 1),
      output_tokens: 100 * (i + 1),
      estimated_cost: 0.01 * (i + 1),
      messages: [
        { role: 'user', content: 'hello', timestamp: at - 600 },
        { role: 'assistant', content: 'hi', timestamp: at },
      ],
      tool_calls: [],
    };
    await writeFile(join(stateDir, 'sessions', `${id}.json`), JSON.stringify(session, null, 2));
  }
  const db = join(dirname(stateDir), 'state.db');
  writeStateDb(db, [
    { id: 'cli-1', source: 'cli', model: 'anthropic/claude-sonnet-4.6', started_at: NOW - 3 * DAY, ended_at: NOW - 3 * DAY + 600, messages: [] },
  ]);
  const sql = new Database(db);
  sql.prepare('UPDATE sessions SET input_tokens = 5000, output_tokens = 500, estimated_cost_usd = 0.25, message_count = 6').run();
  sql.close();
}

const panel = '[data-role="panel"][data-panel="insights"]';
const total = (page: Page, name: string) => page.locator(`${panel} [data-role="insights-totals"] [data-total="${name}"]`).textContent();

/** /panel/insights with real sessions: presets change the figures, a custom range is served and survives a reload. */
describe('web app: Insights panel', () => {
  let ui: UiHarness;
  // The server's calendar is the one date strings are read in; UTC keeps the test's days exact.
  beforeAll(async () => {
    ui = await startUi({ prepare, env: { TZ: 'UTC' } });
  });
  afterAll(async () => ui?.close());

  it('shows totals, models, the daily chart and heatmaps; presets and a custom range change them; a reload keeps the range', async () => {
    const { page } = await ui.open('/panel/insights', { viewport: { width: 1280, height: 900 } });
    await expect.poll(() => total(page, 'sessions'), { timeout: 20_000 }).toBe('5');
    expect(await page.locator(`${panel} [data-role="insights-preset"][aria-pressed="true"]`).getAttribute('data-days')).toBe('30');
    expect(await page.locator(`${panel} [data-role="insights-model-row"]`).evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.model))).toEqual([
      'anthropic/claude-sonnet-4.6',
      'openai/gpt-5',
    ]);
    expect(await page.locator(`${panel} [data-role="insights-daily-chart"]`).getAttribute('data-days')).toBe('30');
    expect(await page.locator(`${panel} [data-role="insights-heatmap"]`).count()).toBe(2);

    await page.locator(`${panel} [data-role="insights-preset"][data-days="7"]`).click();
    await expect.poll(() => total(page, 'sessions')).toBe('4');
    // Sessions 0, 1, 2 (1K+2K+3K input) and the CLI session (5K).
    expect(await total(page, 'input')).toBe('11K');
    await page.locator(`${panel} [data-role="insights-preset"][data-days="365"]`).click();
    await expect.poll(() => total(page, 'sessions')).toBe('7');
    expect(await page.locator(`${panel} [data-role="insights-daily-chart"]`).getAttribute('data-days')).toBe('365');
    await page.locator(`${panel} [data-role="insights-preset"][data-days="90"]`).click();
    await expect.poll(() => total(page, 'sessions')).toBe('6');
    await ui.screenshot(page, 'panel-insights');

    // Custom: the days around the session of 60 days ago only.
    await page.locator(`${panel} [data-role="insights-preset"][data-days="custom"]`).click();
    const start = iso(NOW - 61 * DAY);
    const end = iso(NOW - 59 * DAY);
    await page.locator(`${panel} [data-role="insights-start"]`).fill(start);
    await page.locator(`${panel} [data-role="insights-end"]`).fill(end);
    await expect.poll(() => total(page, 'sessions')).toBe('1');
    const footer = page.locator(`${panel} [data-role="insights-window"]`);
    expect(await footer.getAttribute('data-mode')).toBe('custom');
    // The server's calendar days, written as English writes dates.
    const shown = (day: string) => new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' }).format(Date.parse(`${day}T00:00:00Z`));
    expect(await footer.textContent()).toContain(`${shown(start)} – ${shown(end)}`);
    expect(await page.locator(`${panel} [data-role="insights-daily-chart"]`).getAttribute('data-days')).toBe('3');

    await page.reload();
    await expect.poll(() => page.locator(`${panel} [data-role="insights-start"]`).inputValue(), { timeout: 20_000 }).toBe(start);
    expect(await page.locator(`${panel} [data-role="insights-end"]`).inputValue()).toBe(end);
    await expect.poll(() => total(page, 'sessions')).toBe('1');
    expect(await page.locator(`${panel} [data-role="insights-preset"][aria-pressed="true"]`).getAttribute('data-days')).toBe('custom');
  });
});
