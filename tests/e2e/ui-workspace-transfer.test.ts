import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { strToU8, unzipSync, zipSync } from 'fflate';
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

/** An archive attached in the composer is extracted into the workspace on request, in Chromium. */
describe('web app: the composer offers to extract an attached archive', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(async () => ui?.close());

  const chip = (name: string) => `hermes-attachment-chip:has([title="${name}"])`;

  it('extracts a zip into <workspace>/<stem>/, says how many files went where, and the file tree shows the folder', async () => {
    const { session } = await ui.api('/api/session/new', {});
    const workspace = session.workspace as string;
    const { page } = await ui.open(`/session/${session.session_id}`);
    await page.locator('[data-role="workspace-files"]').click();
    await expect.poll(() => page.locator(hooks.workspacePanel).count()).toBe(1);

    const bundle = zipSync({ 'README.md': strToU8('# bundle'), 'src/main.ts': strToU8('export {};') });
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.locator('[data-role="attach"]').click()]);
    await chooser.setFiles([
      { name: 'bundle.zip', mimeType: 'application/zip', buffer: Buffer.from(bundle) },
      { name: 'slip.zip', mimeType: 'application/zip', buffer: Buffer.from(zipSync({ '../outside.txt': strToU8('no') })) },
    ]);
    const offer = (name: string) => page.locator(`${chip(name)} [data-role="attachment-extract"]`);
    await expect.poll(() => offer('bundle.zip').count()).toBe(1);

    await offer('bundle.zip').click();
    await expect.poll(() => page.locator(`${chip('bundle.zip')} [data-role="attachment-detail"]`).textContent()).toBe('2 files → bundle/');
    expect(await readFile(join(workspace, 'bundle', 'src', 'main.ts'), 'utf8')).toBe('export {};');
    await expect.poll(() => page.locator(treeRow('bundle')).count()).toBe(1);

    await offer('slip.zip').click();
    await expect.poll(() => page.locator(`${chip('slip.zip')} [data-role="attachment-extract-error"]`).textContent()).toBe('Zip-slip blocked: ../outside.txt');
    await expect.poll(() => readFile(join(workspace, '..', 'outside.txt'), 'utf8').catch(() => null)).toBe(null);
    await ui.screenshot(page, 'composer-extract-archive');
  });
});
