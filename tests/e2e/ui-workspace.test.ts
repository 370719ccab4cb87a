import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';
import { isTitleRequest } from '../helpers/chat.js';

const chip = '[data-role="workspace-chip"]';
const option = (path: string) => `[data-role="workspace-option"][data-path="${path}"]`;
const treeRow = (name: string) => `hermes-file-tree [data-path="${name}"]`;
const toast = '.toast[role="status"]';

/** Switching a session's workspace from the composer chip, adding a folder by completion, and Settings → Workspaces. */
describe('web app: workspaces from the composer', () => {
  let ui: UiHarness;
  let alpha: string;
  let projects: string;
  beforeAll(async () => {
    ui = await startUi();
    // The server's HOME is the harness's temp home: a trusted root for completion.
    projects = join(await realpath(ui.home), 'projects');
    alpha = join(projects, 'alpha');
    await mkdir(alpha, { recursive: true });
    await writeFile(join(alpha, 'alpha-marker.txt'), 'in alpha');
    await mkdir(join(projects, 'beta-proj'), { recursive: true });
    await writeFile(join(projects, 'beta-proj', 'beta-marker.txt'), 'in beta');
    const added = await ui.api('/api/workspaces/add', { path: alpha, name: 'Alpha' });
    expect(added.ok).toBe(true);
  });
  afterAll(async () => ui?.close());

  it('switches the open session from the chip: the session, the file tree and the next turn’s shell follow', async () => {
    const { page } = await ui.open('/');
    ui.model.enqueue([{ text: 'first answer' }]);
    await page.locator(hooks.composer).fill('hello');
    await page.locator(hooks.send).click();
    await expect.poll(async () => (await deepText(page.locator(hooks.message('assistant')).last())).includes('first answer')).toBe(true);
    await expect.poll(() => page.locator(hooks.send).count()).toBe(1);
    const sid = /\/session\/([0-9a-f]+)$/.exec(page.url())![1]!;
    const before = (await ui.api(`/api/session?session_id=${sid}`)).session.workspace;
    expect(before).not.toBe(alpha);

    await page.locator('[data-role="workspace-files"]').click();
    await expect.poll(() => page.locator(hooks.workspacePanel).count()).toBe(1);
    await page.locator(chip).click();
    await page.locator('[data-role="workspace-search"]').fill('alph');
    await page.locator(option(alpha)).click();
    await expect.poll(() => page.locator(toast).textContent()).toContain('Switched to Alpha');
    expect((await ui.api(`/api/session?session_id=${sid}`)).session.workspace).toBe(alpha);
    await expect.poll(() => page.locator(chip).textContent()).toContain('Alpha');
    await expect.poll(() => page.locator(treeRow('alpha-marker.txt')).count()).toBe(1);
    expect(await page.locator('[data-role="workspace-name"]').textContent()).toBe('alpha');

    // The next turn's terminal runs in the new folder.
    ui.model.enqueue([{ toolCall: { id: 'pwd1', name: 'terminal', args: { command: 'pwd && ls' } } }], [{ text: 'listed it' }]);
    await page.locator(hooks.composer).fill('where are you?');
    await page.locator(hooks.send).click();
    await expect.poll(async () => (await deepText(page.locator(hooks.message('assistant')).last())).includes('listed it')).toBe(true);
    const afterTool = ui.model.requests.filter((r) => !isTitleRequest(r)).at(-1)!.body.messages;
    const result = afterTool.filter((m: any) => m.role === 'tool').at(-1);
    expect(String(result.content)).toContain(alpha);
    expect(String(result.content)).toContain('alpha-marker.txt');
    await ui.screenshot(page, 'workspace-switched');
  });

  it('adds a folder through path completion and switches to it', async () => {
    const { page } = await ui.open('/');
    ui.model.enqueue([{ text: 'ok' }]);
    await page.locator(hooks.composer).fill('start');
    await page.locator(hooks.send).click();
    await expect.poll(() => page.locator(hooks.send).count()).toBe(1);
    await expect.poll(() => /\/session\/[0-9a-f]+$/.test(page.url())).toBe(true);
    const sid = /\/session\/([0-9a-f]+)$/.exec(page.url())![1]!;

    await page.locator(chip).click();
    await page.locator('[data-role="workspace-add"]').click();
    await page.locator('[data-role="workspace-add-input"]').fill(`${projects}/be`);
    const beta = join(projects, 'beta-proj');
    const suggestion = page.locator(`[data-role="workspace-suggestion"][data-path="${beta}"]`);
    await expect.poll(() => suggestion.count()).toBe(1);
    await ui.screenshot(page, 'workspace-add-completion');
    await suggestion.click();
    await expect.poll(() => page.locator('[data-role="workspace-add-input"]').inputValue()).toBe(`${beta}/`);
    await page.locator('[data-role="workspace-add-confirm"]').click();
    await expect.poll(async () => (await ui.api(`/api/session?session_id=${sid}`)).session.workspace).toBe(beta);
    const saved = (await ui.api('/api/workspaces')).workspaces;
    expect(saved.map((w: any) => w.path)).toContain(beta);
    await expect.poll(() => page.locator(chip).textContent()).toContain('beta-proj');
  });

  it('Settings → Workspaces renames and reorders with the keyboard', async () => {
    const { page } = await ui.open('/');
    await page.locator('[data-role="open-settings"]').click();
    await page.locator(`${hooks.settings} input[type="search"]`).fill('workspaces');
    const beta = join(projects, 'beta-proj');
    const row = page.locator(`[data-role="workspace-row"][data-path="${beta}"]`);
    await expect.poll(() => row.count()).toBe(1);
    const name = row.locator('[data-role="workspace-rename"]');
    await name.fill('Beta project');
    await name.press('Enter');
    await expect.poll(async () => (await ui.api('/api/workspaces')).workspaces.find((w: any) => w.path === beta)?.name).toBe('Beta project');

    const order = async () => (await ui.api('/api/workspaces')).workspaces.map((w: any) => w.path);
    const start = await order();
    const at = start.indexOf(beta);
    // Home (the default workspace, kept when Alpha was added), Alpha, then the folder added above.
    expect(at).toBe(2);
    await row.locator('[data-role="workspace-up"]').focus();
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await order()).indexOf(beta)).toBe(at - 1);
    // The focus follows the moved row (once the list has been redrawn), so a second Enter moves it again.
    await expect.poll(() => row.locator('[data-role="workspace-up"]').evaluate((el) => el.matches(':focus'))).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await order()).indexOf(beta)).toBe(0);
    expect(await row.locator('[data-role="workspace-up"]').isDisabled()).toBe(true);
    await ui.screenshot(page, 'settings-workspaces');
  });
});
