import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEntries } from '../../src/agent/tools/memory-store.js';
import { startUi, type UiHarness } from '../helpers/browser.js';

/** The Memory panel on Hermes' own files: entries edited, removed and added, SOUL.md saved, a save over the limit refused. */
describe('web app: the Memory panel', () => {
  let ui: UiHarness;
  const hermes = () => join(ui.home, '.hermes');
  const memFile = () => join(hermes(), 'memories', 'MEMORY.md');

  beforeAll(async () => {
    ui = await startUi();
    await appendFile(join(hermes(), 'config.yaml'), 'memory:\n  memory_char_limit: 60\n');
    await mkdir(join(hermes(), 'memories'), { recursive: true });
    // Written by hand as Hermes writes it.
    await writeFile(memFile(), 'Uses pnpm\n§\nTests with vitest');
    await writeFile(join(hermes(), 'memories', 'USER.md'), 'Name: Ada');
  });
  afterAll(async () => ui?.close());

  it('adds, edits and removes entries, saves SOUL.md, refuses a save over the limit, and a reload shows the files', async () => {
    const { page } = await ui.open('/panel/memory');
    const memory = page.locator('hermes-memory-store[section="memory"]');
    const entry = (i: number) => memory.locator(`[data-role="memory-entry"][data-index="${i}"]`);
    const texts = () => memory.locator('[data-role="memory-entry"] .text').allTextContents();
    await expect.poll(texts, { timeout: 15_000 }).toEqual(['Uses pnpm', 'Tests with vitest']);
    await expect.poll(() => page.locator('hermes-memory-store[section="user"] [data-role="memory-entry"]').count()).toBe(1);
    expect(await memory.locator('[data-role="memory-usage"]').getAttribute('data-limit')).toBe('60');

    await entry(0).locator('[data-role="memory-entry-edit"]').click();
    await memory.locator('[data-role="memory-entry-input"]').fill('Uses bun');
    await memory.locator('[data-role="memory-entry-save"]').click();
    await expect.poll(texts).toEqual(['Uses bun', 'Tests with vitest']);
    expect(await readFile(memFile(), 'utf8')).toBe('Uses bun\n§\nTests with vitest');

    await entry(1).locator('[data-role="memory-entry-remove"]').click();
    await expect.poll(texts).toEqual(['Uses bun']);

    const add = memory.locator('[data-role="memory-add-input"]');
    await add.fill('Likes tea');
    await memory.locator('[data-role="memory-add"]').click();
    await expect.poll(texts).toEqual(['Uses bun', 'Likes tea']);
    expect(parseEntries(await readFile(memFile(), 'utf8'))).toEqual(['Uses bun', 'Likes tea']);

    // 8 + 3 + 9 + 3 + 50 = 73 characters against 60: refused with the figures, the text kept.
    const long = 'x'.repeat(50);
    await add.fill(long);
    await expect.poll(() => memory.locator('[data-role="memory-usage"]').getAttribute('data-state')).toBe('over');
    await memory.locator('[data-role="memory-add"]').click();
    await expect.poll(() => memory.locator('[data-role="memory-error"]').textContent()).toMatch(/Not saved: 73 \/ 60 characters, over the limit/);
    expect(await add.inputValue()).toBe(long);
    expect(await readFile(memFile(), 'utf8')).toBe('Uses bun\n§\nLikes tea');
    await add.fill('');

    const soul = page.locator('[data-role="soul-input"]');
    await soul.fill('You are calm and brief.');
    await page.locator('[data-role="soul-save"]').click();
    await expect.poll(() => readFile(join(hermes(), 'SOUL.md'), 'utf8').catch(() => '')).toBe('You are calm and brief.');

    await page.reload();
    await expect.poll(texts, { timeout: 15_000 }).toEqual(['Uses bun', 'Likes tea']);
    expect(await page.locator('[data-role="soul-input"]').inputValue()).toBe('You are calm and brief.');
    await page.locator('[data-role="panel"][data-panel="memory"]').waitFor();
    await ui.screenshot(page, 'panel-memory');
  });
});
