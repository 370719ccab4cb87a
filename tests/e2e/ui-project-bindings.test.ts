import { mkdir, readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';
import { isTitleRequest } from '../helpers/chat.js';

/**
 * Project bindings in Chromium: bind a project to a workspace and a model in "Project
 * settings…", start a new chat in the project, and that chat works in the bound workspace with
 * the bound model and is filed in the project.
 */
describe('web app: project bindings', () => {
  let ui: UiHarness;
  let projectWs: string;
  let projectId: string;
  beforeAll(async () => {
    ui = await startUi();
    await mkdir(join(ui.home, 'atlas-repo'));
    projectWs = await realpath(join(ui.home, 'atlas-repo'));
    await ui.api('/api/workspaces/add', { path: projectWs, name: 'Atlas repo' });
    projectId = (await ui.api('/api/projects/create', { name: 'Atlas' })).project.project_id;
  });
  afterAll(async () => ui?.close());

  it('binds a workspace and a model in the dialog; + and New chat start sessions there, in the project', async () => {
    const { page } = await ui.open('/');
    const chip = page.locator(`[data-role="project-chip"][data-project-id="${projectId}"]`);
    await chip.click({ button: 'right' });
    await page.locator('[data-role="project-menu"] [data-action="project-settings"]').click();
    const dialog = page.locator('[data-role="project-settings"]');
    await expect.poll(() => dialog.isVisible()).toBe(true);

    // Pick the saved workspace, make it the default, and bind the catalog's second model.
    await expect.poll(() => dialog.locator(`[data-role="project-workspace-add"] option[value="${projectWs}"]`).count()).toBe(1);
    await dialog.locator('[data-role="project-workspace-add"]').selectOption(projectWs);
    await dialog.locator('[data-role="project-default-workspace"]').selectOption(projectWs);
    const model = dialog.locator('[data-role="project-model"]');
    await expect.poll(() => model.locator('option[data-model="scripted-model-large"]').count(), { timeout: 10_000 }).toBe(1);
    const value = await model.locator('option[data-model="scripted-model-large"]').getAttribute('value');
    await model.selectOption(value!);
    await ui.screenshot(page, 'project-settings-dialog');
    await dialog.locator('[data-role="project-settings-save"]').click();
    await expect.poll(() => page.locator('[data-role="project-settings"]').count()).toBe(0);

    // Stored in the incumbent's projects.json shape.
    const stored = JSON.parse(await readFile(join(ui.stateDir, 'projects.json'), 'utf8')).find((p: { project_id: string }) => p.project_id === projectId);
    expect(stored).toMatchObject({ workspaces: [projectWs], workspace: projectWs, default_workspace: projectWs, model: 'scripted-model-large' });

    // The project's own +: a new chat configured for the project, opened at once.
    await chip.click();
    await page.locator('[data-role="project-new-chat"]').click();
    await expect.poll(() => page.url()).toMatch(/\/session\/[0-9a-f]{12}$/);
    const sessionId = page.url().split('/').pop()!;
    const session = (await ui.api(`/api/session?session_id=${sessionId}`)).session;
    expect(session).toMatchObject({ workspace: projectWs, model: 'scripted-model-large', project_id: projectId });

    // The turn runs with the bound model.
    ui.model.enqueue([{ text: 'hello from the project' }]);
    await page.locator(hooks.composer).fill('Where am I?');
    await page.locator(hooks.send).click();
    await expect.poll(async () => (await deepText(page.locator(hooks.message('assistant')).last()))?.includes('hello from the project')).toBe(true);
    const turn = ui.model.requests.filter((r) => !isTitleRequest(r)).at(-1)!;
    expect(turn.body.model).toBe('scripted-model-large');
    expect(JSON.stringify(turn.body.messages)).toContain(projectWs);
    // Filed in the project: its row shows under the project filter.
    await expect.poll(() => page.locator(`${hooks.sessionRow}[data-session-id="${sessionId}"]`).count()).toBe(1);

    // New chat while the project filter is on does the same.
    await page.locator(hooks.newChat).click();
    await expect.poll(() => page.url()).not.toContain(sessionId);
    await expect.poll(() => page.url()).toMatch(/\/session\/[0-9a-f]{12}$/);
    const second = (await ui.api(`/api/session?session_id=${page.url().split('/').pop()}`)).session;
    expect(second).toMatchObject({ workspace: projectWs, model: 'scripted-model-large', project_id: projectId });
    await ui.screenshot(page, 'project-new-chat');
  });
});
