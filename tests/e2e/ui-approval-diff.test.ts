import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';

/** A file edit's approval in Chromium: the card draws the diff the patch would make; Deny keeps the file, Allow once writes it. */
describe('web app: the diff before a file edit is allowed', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
    // Every edit asks (the agent reads config.yaml per turn).
    await appendFile(join(ui.home, '.hermes', 'config.yaml'), 'approvals:\n  file_edits: always\n');
  });
  afterAll(async () => ui?.close());

  it('shows the patch as a diff; Deny leaves the file, Allow once changes it', async () => {
    await mkdir(ui.workspace, { recursive: true });
    const file = join(ui.workspace, 'greeting.txt');
    await writeFile(file, 'hello\nold words\nbye\n');
    const patch = { mode: 'replace', path: 'greeting.txt', old_string: 'old words', new_string: 'new words' };
    const { page } = await ui.open('/');
    const card = page.locator(hooks.approvalCard);

    ui.model.enqueue([{ toolCall: { id: 'p1', name: 'patch', args: patch } }], [{ text: 'Left it alone.' }]);
    await page.locator(hooks.composer).fill('change the greeting');
    await page.locator(hooks.send).click();
    await expect.poll(() => card.count()).toBe(1);
    const diff = card.locator('[data-role="approval-diff"]');
    await expect.poll(async () => (await deepText(diff)).replace(/\s+/g, ' ')).toMatch(/old words.*new words/);
    expect(await card.locator('[data-role="approval-path"]').textContent()).toBe('greeting.txt');
    expect(await deepText(card)).toContain('File edit (approvals.file_edits: always): greeting.txt');
    const kinds = await diff.evaluate((el) =>
      [...el.querySelector('hermes-diff-view')!.shadowRoot!.querySelectorAll<HTMLElement>('.line')].map(
        (l) => `${l.dataset.kind}:${l.querySelector('.text')?.textContent ?? ''}`,
      ),
    );
    expect(kinds.filter((k) => k.startsWith('add') || k.startsWith('del'))).toEqual(['del:old words', 'add:new words']);
    await ui.screenshot(page, 'approval-diff-card');
    await card.locator('[data-choice="deny"]').click();
    await expect.poll(async () => (await deepText(page.locator(hooks.message('assistant')).last())).includes('Left it alone.')).toBe(true);
    expect(await card.count()).toBe(0);
    expect(await readFile(file, 'utf8')).toBe('hello\nold words\nbye\n');

    ui.model.enqueue([{ toolCall: { id: 'p2', name: 'patch', args: patch } }], [{ text: 'Changed it.' }]);
    await page.locator(hooks.composer).fill('now really change it');
    await page.locator(hooks.send).click();
    await expect.poll(() => card.count()).toBe(1);
    await card.locator('[data-choice="once"]').click();
    await expect.poll(async () => (await deepText(page.locator(hooks.message('assistant')).last())).includes('Changed it.')).toBe(true);
    expect(await readFile(file, 'utf8')).toBe('hello\nnew words\nbye\n');
  });
});
