import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';

const OUTPUT_FILE = /^\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2}\.md$/;

/**
 * Task runs end to end, the built server running them with the scripted model: a job made in
 * the Tasks panel and run now, then a one-shot that falls due by itself. Two tabs of one
 * browser: A has the panel, B the chat; B's sidebar gains the Tasks filter and each task's
 * session without a reload (live sync), A's open job gains the run in its history, and the
 * rail badge counts a completion nobody looked at until A opens that job's history.
 */
describe('web app: task runs reach every tab', () => {
  let ui: UiHarness;
  let context: BrowserContext;
  let a: Page;
  let b: Page;
  const hermes = () => join(ui.home, '.hermes');
  const taskRows = () => b.locator(`${hooks.sessionRow}[data-session-id^="cron_"]`);
  const badge = (page: Page) => page.locator('[data-role="rail-item"][data-panel="tasks"] [data-role="rail-badge"]');

  beforeAll(async () => {
    ui = await startUi();
    ({ context, page: a } = await ui.open('/panel/tasks'));
    b = await context.newPage();
    await b.goto(`${ui.server.url}/`);
  }, 60_000);
  afterAll(async () => ui?.close());

  it('a job made in the panel and run now: its session appears live in the other tab, and the run in the job’s history', async () => {
    const panel = a.locator('[data-role="panel"][data-panel="tasks"]');
    await panel.locator('[data-role="tasks-empty"]').waitFor({ timeout: 15_000 });
    await b.locator(hooks.composer).waitFor({ timeout: 15_000 });
    // No task session yet: B's sidebar has no Tasks filter.
    expect(await b.locator('[data-role="sidebar-tasks-filter"]').count()).toBe(0);

    await panel.locator('[data-role="task-new"]').click();
    const form = a.locator('[data-role="task-form"]');
    await form.locator('[data-role="task-form-prompt"]').fill('Summarise the inbox folder');
    await form.locator('[data-role="task-form-schedule"]').fill('every 2h');
    await expect.poll(() => form.locator('[data-role="task-next-run"]').count(), { timeout: 10_000 }).toBe(3);
    await form.locator('[data-role="task-form-name"]').fill('Inbox digest');
    await form.locator('[data-role="task-form-save"]').click();
    const row = panel.locator('[data-role="task-row"]');
    await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
    const jobId = (await row.getAttribute('data-job-id'))!;

    // The answer is held back a moment, so B sees the session while it runs.
    ui.model.enqueue([{ text: 'Three new messages, ' }, { delayMs: 1500 }, { text: '**none** urgent.' }]);
    await panel.locator('[data-role="task-run-now"]').click();

    const chip = b.locator('[data-role="sidebar-tasks-filter"]');
    await chip.waitFor({ timeout: 10_000 });
    await chip.click();
    await expect.poll(() => taskRows().count(), { timeout: 10_000 }).toBe(1);
    const sid = (await taskRows().first().getAttribute('data-session-id'))!;
    expect(sid.startsWith(`cron_${jobId}_`)).toBe(true);
    expect(await deepText(taskRows().first())).toContain('Inbox digest');
    await taskRows().first().click();
    await expect.poll(async () => deepText(b.locator(hooks.message('user')).first()), { timeout: 10_000 }).toContain('Summarise the inbox folder');
    await expect.poll(async () => deepText(b.locator(hooks.message('assistant')).last()), { timeout: 15_000 }).toContain('Three new messages, none urgent.');
    await ui.screenshot(b, 'sidebar-tasks-live');

    // A still shows the job: its history gains the run without a reload.
    const item = panel.locator('[data-role="task-history-item"]');
    await expect.poll(() => item.count(), { timeout: 10_000 }).toBe(1);
    await item.click();
    const body = panel.locator('[data-role="task-run-body"]');
    await expect.poll(async () => deepText(body), { timeout: 10_000 }).toContain('Three new messages, none urgent.');
    expect(await deepText(body)).toContain('Summarise the inbox folder');
    // Hermes' header, one `**Label:** value` a line, reads as lines (not one run-on paragraph).
    const headerLines = await body.evaluate(
      (el) => [...(el.shadowRoot?.querySelectorAll('p') ?? [])].find((p) => p.textContent?.includes('Job ID:'))?.querySelectorAll('br').length ?? 0,
    );
    expect(headerLines).toBeGreaterThanOrEqual(4);
    await expect.poll(() => row.locator('[data-role="task-last-status"]').textContent(), { timeout: 10_000 }).toBe('ok');
    // "Started…" went with the run.
    expect(await panel.locator('[data-role="task-notice"]').count()).toBe(0);
    await body.evaluate((el) => el.scrollIntoView({ block: 'end' }));
    await ui.screenshot(a, 'panel-tasks-run');
    // A looked at it as it landed: nothing unseen in either tab.
    expect(await badge(a).count()).toBe(0);
    await expect.poll(() => badge(b).count(), { timeout: 5000 }).toBe(0);
  }, 60_000);

  it('a due job fires by itself: its session appears live, the output file is in Hermes’ layout, the badge waits for its history', async () => {
    // A leaves the panel: this completion is nobody's to see yet.
    await a.locator('[data-role="rail-item"][data-panel="chat"]').click();
    await a.locator('[data-role="panel"][data-panel="tasks"]').waitFor({ state: 'detached', timeout: 10_000 });

    ui.model.enqueue([{ text: 'The backup finished at dawn.' }]);
    const due = new Date(Date.now() + 4000);
    const created = await ui.api('/api/crons/create', { prompt: 'Report on the backup', schedule: due.toISOString(), name: 'Backup report' });
    expect(created.job.schedule).toMatchObject({ kind: 'once' });
    const jobId = created.job.id as string;

    // B still has the Tasks filter on: the new session shows there by itself.
    const fresh = b.locator(`${hooks.sessionRow}[data-session-id^="cron_${jobId}_"]`);
    await expect.poll(() => fresh.count(), { timeout: 15_000 }).toBe(1);
    expect(await deepText(fresh)).toContain('Backup report');

    // The output file, where Hermes keeps it.
    const dir = join(hermes(), 'cron', 'output', jobId);
    await expect.poll(async () => (await readdir(dir).catch(() => [])).filter((f) => OUTPUT_FILE.test(f)).length, { timeout: 15_000 }).toBe(1);
    const [file] = (await readdir(dir)).filter((f) => OUTPUT_FILE.test(f));
    const text = await readFile(join(dir, file!), 'utf8');
    expect(text).toContain(`**Job ID:** ${jobId}`);
    expect(text).toContain('**Model:** scripted-model');
    expect(text).toMatch(/## Prompt\n\nReport on the backup\n/);
    expect(text).toMatch(/## Response\n\nThe backup finished at dawn\.\n/);
    // jobs.json records the run once the file is written: a one-shot is then completed.
    const stored = async () => JSON.parse(await readFile(join(hermes(), 'cron', 'jobs.json'), 'utf8')).jobs.find((j: { id: string }) => j.id === jobId);
    await expect.poll(stored, { timeout: 10_000 }).toMatchObject({ state: 'completed', last_status: 'ok', next_run_at: null });

    // Nobody has opened its history: both tabs count it, until A does.
    await expect.poll(() => badge(b).textContent(), { timeout: 10_000 }).toBe('1');
    await expect.poll(() => badge(a).textContent(), { timeout: 10_000 }).toBe('1');
    await a.locator('[data-role="rail-item"][data-panel="tasks"]').click();
    const panel = a.locator('[data-role="panel"][data-panel="tasks"]');
    await panel.locator(`[data-role="task-row"][data-job-id="${jobId}"]`).click();
    await expect.poll(() => panel.locator('[data-role="task-history-item"]').count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => badge(a).count(), { timeout: 5000 }).toBe(0);
    await expect.poll(() => badge(b).count(), { timeout: 5000 }).toBe(0);
  }, 60_000);
});
