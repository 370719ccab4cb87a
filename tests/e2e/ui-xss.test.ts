import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';

/**
 * Hostile strings everywhere a page shows user or model data: titles, file names, file
 * contents, tool output, the user's own message, uploaded HTML/SVG. None may run script.
 */
describe('web app: hostile strings never run script', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(async () => ui?.close());

  const payload = (n: number) => `<img src=x onerror="window.__xss=${n}"><script>window.__xss=${n}</script><svg onload="window.__xss=${n}">`;

  it('in titles, file names, file contents, tool output and messages', async () => {
    await writeFile(join(ui.workspace, `<img src=x onerror="window.__xss=1">.txt`), 'x');
    await writeFile(join(ui.workspace, 'page.html'), `<h1>hi</h1>${payload(2)}`);
    const session = (await ui.api('/api/session/new', {})).session;
    await ui.api('/api/session/rename', { session_id: session.session_id, title: payload(3) });
    ui.model.enqueue(
      [{ toolCall: { id: 'r', name: 'read_file', args: { path: 'page.html' } } }],
      [{ text: `Here it is: ${payload(4)} [x](javascript:window.__xss=5)` }],
    );

    const { page } = await ui.open(`/session/${session.session_id}`);
    await page.locator(hooks.composer).fill(payload(6));
    await page.locator(hooks.send).click();
    await expect.poll(async () => (await deepText(page.locator(hooks.message('assistant')).last()))?.includes('Here it is')).toBe(true);
    // The turn's end redraws it from the stored transcript, Activity collapsed again: expand it after that,
    // or the tool card opened below can vanish under the click (which then waited out the test's 30 s).
    await expect.poll(() => page.locator(hooks.send).count()).toBe(1);
    // The user's message shows its text, literally.
    expect(await deepText(page.locator(hooks.message('user')).last())).toContain('<script>window.__xss=6</script>');
    // The tool card shows the file's markup as text.
    // Each toggle is clicked again if a redraw closed it meanwhile (a busy machine can redraw late).
    await expect
      .poll(async () => {
        if ((await page.locator(hooks.toolCard).count()) === 1) return true;
        await page
          .locator(hooks.activity)
          .locator('summary, button')
          .first()
          .click({ timeout: 2000 })
          .catch(() => {});
        return false;
      })
      .toBe(true);
    await expect
      .poll(async () => {
        if ((await deepText(page.locator(hooks.toolCard)))?.includes('window.__xss=2')) return true;
        if ((await page.locator(hooks.toolCard).count()) === 0)
          await page
            .locator(hooks.activity)
            .locator('summary, button')
            .first()
            .click({ timeout: 2000 })
            .catch(() => {});
        else
          await page
            .locator(hooks.toolCard)
            .locator('button')
            .first()
            .click({ timeout: 2000 })
            .catch(() => {});
        return false;
      })
      .toBe(true);
    // The title, in the sidebar (the scripted model may have retitled it: rename again now).
    await ui.api('/api/session/rename', { session_id: session.session_id, title: payload(3) });
    await page.reload();
    await expect.poll(async () => (await deepText(page.locator(hooks.sessionRow).first())) ?? '').toContain('window.__xss=3');
    // The file list and the file preview.
    await page.getByRole('button', { name: 'Toggle workspace panel' }).click();
    await expect.poll(async () => (await deepText(page.locator(hooks.workspacePanel)))?.includes('onerror')).toBe(true);
    await page.locator(hooks.workspacePanel).getByText('page.html').click();
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as any).__xss)).toBeUndefined();
    // Nothing but the refused inline handlers (blocked by the policy as the sanitizer parses them).
    const violations: string[] = await page.evaluate(() => (window as any).__cspViolations);
    expect(violations.filter((v) => !v.startsWith('script-src-attr'))).toEqual([]);
  });

  it('served user files (HTML, SVG) are sandboxed and cannot run script in the app origin', async () => {
    const session = (await ui.api('/api/session/new', {})).session;
    await writeFile(join(ui.workspace, 'evil.html'), `<script>document.title='ran'; localStorage.setItem('pwned','1')</script>`);
    await writeFile(join(ui.workspace, 'evil.svg'), `<svg xmlns="http://www.w3.org/2000/svg"><script>document.title='ran'</script></svg>`);
    const { page } = await ui.open('/');
    for (const file of ['evil.html', 'evil.svg']) {
      const res = await page.goto(`${ui.server.url}/api/file/raw?session_id=${session.session_id}&path=${file}`);
      expect(res!.headers()['content-security-policy']).toMatch(/sandbox/);
      expect(res!.headers()['x-content-type-options']).toBe('nosniff');
      await page.waitForTimeout(200);
      expect(await page.title()).not.toBe('ran');
    }
    await page.goto(ui.server.url + '/');
    expect(await page.evaluate(() => localStorage.getItem('pwned'))).toBeNull();
    const download = await fetch(`${ui.server.url}/api/file/raw?session_id=${session.session_id}&path=evil.html&download=1`);
    expect(download.headers.get('content-disposition')).toMatch(/^attachment/);
  });
});
