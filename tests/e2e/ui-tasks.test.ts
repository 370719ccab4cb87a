import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUi, type UiHarness } from '../helpers/browser.js';

/**
 * The Tasks panel against the real server and cron/jobs.json: create with a previewed schedule
 * (an invalid one refused with the reason), edit, pause/resume, duplicate, delete after a
 * confirm; a run Hermes recorded (its output file and the job's last run) shows in the history
 * rendered, and badges the rail until the job is opened.
 */
describe('web app: the Tasks panel', () => {
  let ui: UiHarness;
  const hermes = () => join(ui.home, '.hermes');
  const jobsFile = () => join(hermes(), 'cron', 'jobs.json');
  const readJobs = async () => JSON.parse(await readFile(jobsFile(), 'utf8')).jobs as Array<Record<string, any>>;

  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(async () => ui?.close());

  it('creates, edits, pauses, resumes, duplicates and deletes a task; shows a run rendered; the badge appears and clears', async () => {
    const { page } = await ui.open('/panel/tasks');
    const panel = page.locator('[data-role="panel"][data-panel="tasks"]');
    await panel.locator('[data-role="tasks-empty"]').waitFor({ timeout: 15_000 });
    await panel.locator('[data-role="tasks-empty-new"]').click();

    const form = page.locator('[data-role="task-form"]');
    const schedule = form.locator('[data-role="task-form-schedule"]');
    const save = form.locator('[data-role="task-form-save"]');
    await schedule.fill('not a schedule');
    await expect.poll(() => form.locator('[data-role="task-schedule-error"]').textContent(), { timeout: 10_000 }).toBeTruthy();
    expect(await save.isDisabled()).toBe(true);
    await schedule.fill('every 2h');
    await expect.poll(() => form.locator('[data-role="task-next-run"]').count(), { timeout: 10_000 }).toBe(3);
    expect(await save.isDisabled()).toBe(false);
    await form.locator('[data-role="task-form-prompt"]').fill('Summarise the inbox folder');
    await form.locator('[data-role="task-form-name"]').fill('Inbox digest');
    await save.click();

    const row = panel.locator('[data-role="task-row"]');
    await expect.poll(() => row.count()).toBe(1);
    const [created] = await readJobs();
    expect(created).toMatchObject({ name: 'Inbox digest', prompt: 'Summarise the inbox folder', deliver: 'local', enabled: true });
    expect(created!.schedule).toMatchObject({ kind: 'interval', minutes: 120 });
    const id = created!.id as string;
    expect(await row.getAttribute('data-job-id')).toBe(id);
    expect(await panel.locator('[data-role="tasks-scheduler"]').textContent()).toBeTruthy();

    // Edit: the name and the schedule change, the prompt stays.
    await panel.locator('[data-role="task-edit"]').click();
    await form.locator('[data-role="task-form-name"]').fill('Morning digest');
    await schedule.fill('0 9 * * *');
    await expect.poll(() => form.locator('[data-role="task-next-run"]').count(), { timeout: 10_000 }).toBe(3);
    await save.click();
    await expect.poll(() => panel.locator('[data-role="task-detail"] h3').textContent()).toBe('Morning digest');
    expect((await readJobs())[0]).toMatchObject({
      name: 'Morning digest',
      prompt: 'Summarise the inbox folder',
      schedule: { kind: 'cron', expr: '0 9 * * *' },
    });

    const state = () => row.first().locator('[data-role="task-state"]').getAttribute('data-state');
    await panel.locator('[data-role="task-pause"]').click();
    await expect.poll(state).toBe('paused');
    expect((await readJobs())[0]!.state).toBe('paused');
    await panel.locator('[data-role="task-pause"]').click();
    await expect.poll(state).toBe('scheduled');
    expect((await readJobs())[0]!.enabled).toBe(true);

    await panel.locator('[data-role="task-duplicate"]').click();
    await expect.poll(() => row.count()).toBe(2);
    const copy = (await readJobs()).find((j) => j.id !== id)!;
    expect(copy).toMatchObject({ name: 'Morning digest (copy)', prompt: 'Summarise the inbox folder', schedule: { kind: 'cron', expr: '0 9 * * *' } });

    // The copy is open: delete it, after saying no once.
    await panel.locator('[data-role="task-delete"]').click();
    await panel.locator('[data-role="task-delete-no"]').click();
    expect(await row.count()).toBe(2);
    await panel.locator('[data-role="task-delete"]').click();
    await panel.locator('[data-role="task-delete-yes"]').click();
    await expect.poll(() => row.count()).toBe(1);
    expect((await readJobs()).map((j) => j.id)).toEqual([id]);

    // A run recorded as Hermes records it: the output file, then the job's last run.
    await page.locator('[data-role="rail-item"][data-panel="chat"]').click();
    const finished = new Date();
    const stamp = finished.toISOString().slice(0, 19).replace('T', '_').replaceAll(':', '-');
    const outDir = join(hermes(), 'cron', 'output', id);
    await mkdir(outDir, { recursive: true });
    await writeFile(
      join(outDir, `${stamp}.md`),
      `# Cron Job: Morning digest\n\n**Job ID:** ${id}\n**Run Time:** ${stamp.replace('_', ' ').replace(/-(\d\d)-(\d\d)$/, ':$1:$2')}\n**Schedule:** 0 9 * * *\n**Model:** scripted-model\n**Duration:** 4.2s\n\n## Prompt\n\nSummarise the inbox folder\n\n## Response\n\n**Three** new messages, none urgent.\n`,
    );
    const raw = JSON.parse(await readFile(jobsFile(), 'utf8'));
    Object.assign(raw.jobs[0], { last_run_at: finished.toISOString(), last_status: 'ok' });
    await writeFile(jobsFile(), JSON.stringify(raw, null, 2));
    // What live sync fires when a task completes.
    await page.evaluate(() =>
      window.dispatchEvent(new CustomEvent('hermes-sessions-changed', { detail: { type: 'sessions_changed', reason: 'cron_complete' } })),
    );
    const badge = page.locator('[data-role="rail-item"][data-panel="tasks"] [data-role="rail-badge"]');
    await expect.poll(() => badge.textContent(), { timeout: 10_000 }).toBe('1');

    await page.locator('[data-role="rail-item"][data-panel="tasks"]').click();
    await row.first().click();
    const item = panel.locator('[data-role="task-history-item"]');
    await expect.poll(() => item.count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => badge.count()).toBe(0);
    await item.click();
    const body = panel.locator('[data-role="task-run-body"]');
    await expect.poll(() => body.locator('strong').last().textContent(), { timeout: 10_000 }).toBe('Three');
    const download = page.waitForEvent('download');
    await panel.locator('[data-role="task-run-download"]').click();
    expect((await download).suggestedFilename()).toBe(`${stamp}.md`);
    await ui.screenshot(page, 'panel-tasks');

    // Seen survives a reload.
    await page.reload();
    await panel.locator('[data-role="task-run-output"]').waitFor({ timeout: 15_000 });
    expect(await badge.count()).toBe(0);
  });
});
