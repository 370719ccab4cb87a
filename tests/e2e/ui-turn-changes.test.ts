import { access } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';

const changes = '[data-role="turn-changes"]';
const treeRow = (name: string) => `hermes-file-tree [data-path="${name}"]`;
const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** What a turn changed, in Chromium against the real server and the scripted model: the row, its diff, and undo. */
describe('web app: a turn’s file changes', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(async () => ui?.close());

  it('shows "Changed 1 file" under the turn, opens its diff, and undoes it: the file leaves the disk and the tree', async () => {
    ui.model.enqueue([{ toolCall: { id: 'w1', name: 'write_file', args: { path: 'notes.txt', content: 'hello\nworld\n' } } }], [{ text: 'Wrote notes.txt.' }]);
    const { page } = await ui.open('/');
    await page.locator(hooks.composer).fill('write two lines to notes.txt');
    await page.locator(hooks.send).click();
    await expect.poll(async () => (await deepText(page.locator(hooks.message('assistant')).last())).includes('Wrote notes.txt.')).toBe(true);
    await expect.poll(() => page.locator(hooks.send).count()).toBe(1);
    const file = join(ui.workspace, 'notes.txt');
    expect(await exists(file)).toBe(true);

    // The server records the turn's changes (turn_changes, then file_changes on the answer).
    await expect.poll(() => page.locator(changes).count()).toBe(1);
    const row = page.locator(changes).last();
    await expect.poll(async () => (await row.locator('[data-role="turn-changes-label"]').textContent())?.trim()).toBe('Changed 1 file (+2 −0)');

    await page.locator('[data-role="workspace-files"]').click();
    await expect.poll(() => page.locator(treeRow('notes.txt')).count()).toBe(1);

    await row.locator('[data-role="turn-changes-toggle"]').click();
    const fileRow = row.locator('[data-role="turn-change-file"][data-path="notes.txt"]');
    expect(await fileRow.getAttribute('data-action')).toBe('created');
    await fileRow.locator('button.file').click();
    const added = fileRow.locator('hermes-diff-view [data-kind="add"]');
    await expect.poll(() => added.count()).toBe(2);
    expect(await deepText(added.first())).toContain('hello');
    await ui.screenshot(page, 'turn-changes-diff');

    await row.locator('[data-role="turn-undo"]').click();
    await row.locator('[data-role="turn-undo-yes"]').click();
    await expect.poll(async () => (await row.locator('[data-role="turn-undone"]').textContent())?.trim()).toBe('Changes undone');
    expect(await row.locator('[data-role="turn-undo"]').count()).toBe(0);
    expect(await exists(file)).toBe(false);
    await expect.poll(() => page.locator(treeRow('notes.txt')).count()).toBe(0);
    await ui.screenshot(page, 'turn-changes-undone');

    // After a reload the record says it was undone: no second undo is offered.
    await page.reload();
    const again = page.locator(changes).last();
    await expect.poll(async () => (await again.locator('[data-role="turn-changes-label"]').textContent())?.trim()).toBe('Changed 1 file (+2 −0)');
    await again.locator('[data-role="turn-changes-toggle"]').click();
    await expect.poll(() => again.locator('[data-role="turn-undone"]').count()).toBe(1);
    expect(await again.locator('[data-role="turn-undo"]').count()).toBe(0);
  });
});
