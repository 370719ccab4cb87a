import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { unzipSync } from 'fflate';
import { hooks, startUi, type UiHarness } from '../helpers/browser.js';

const treeRow = (path: string) => `hermes-file-tree [data-path="${path}"]`;

/** Uploading into a folder of the workspace from the file tree, and downloading that folder as a zip, in Chromium. */
describe('web app: workspace upload into a folder and folder download', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(async () => ui?.close());

  it('uploads a file into a folder through the picker, then downloads the folder as a zip holding it', async () => {
    const { session } = await ui.api('/api/session/new', {});
    const workspace = session.workspace as string;
    await mkdir(join(workspace, 'reports'), { recursive: true });
    const { page } = await ui.open(`/session/${session.session_id}`);
    await page.locator('[data-role="workspace-files"]').click();
    await expect.poll(() => page.locator(hooks.workspacePanel).count()).toBe(1);
    await expect.poll(() => page.locator(treeRow('reports')).count()).toBe(1);

    await page.locator(treeRow('reports')).hover();
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.locator(`${treeRow('reports')} [data-action="upload-here"]`).click()]);
    await chooser.setFiles({ name: 'q3 summary.txt', mimeType: 'text/plain', buffer: Buffer.from('revenue up') });
    await expect.poll(() => readFile(join(workspace, 'reports', 'q3_summary.txt'), 'utf8').catch(() => null)).toBe('revenue up');
    // The folder opens and shows what arrived.
    await expect.poll(() => page.locator(treeRow('reports/q3_summary.txt')).count()).toBe(1);
    await ui.screenshot(page, 'workspace-upload-into-folder');

    await page.locator(treeRow('reports')).hover();
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator(`${treeRow('reports')} [data-action="download-folder"]`).click()]);
    expect(download.suggestedFilename()).toBe('reports.zip');
    const zip = unzipSync(new Uint8Array(await readFile((await download.path())!)));
    expect(Object.keys(zip)).toEqual(['q3_summary.txt']);
    expect(new TextDecoder().decode(zip['q3_summary.txt'])).toBe('revenue up');
  });
});
