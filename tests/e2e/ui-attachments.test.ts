import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hooks, startUi, type UiHarness } from '../helpers/browser.js';
import { isTitleRequest } from '../helpers/chat.js';

/** A real 1×1 PNG. */
const PNG_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const composerChip = 'hermes-composer [data-role="attachment-chip"]';

/** Pasting into the composer in Chromium: screenshots reach the model and stay in the bubble; long pastes become files. */
describe('web app: attachments', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(async () => ui?.close());

  it('a pasted screenshot is sent as an image_url part and shows as a thumbnail, also after a reload', async () => {
    const { page } = await ui.open('/');
    // A real paste event carrying a PNG file, as the clipboard gives a screenshot.
    await page.locator(hooks.composer).evaluate((el, b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], 'image.png', { type: 'image/png' }));
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true, composed: true }));
    }, PNG_B64);
    await expect.poll(() => page.locator(`${composerChip}[data-state="done"]`).count(), { timeout: 10_000 }).toBe(1);
    expect(await page.locator(composerChip).getAttribute('title')).toMatch(/^screenshot-\d+\.png$/);

    ui.model.enqueue([{ text: 'One white pixel.' }]);
    await page.locator(hooks.composer).fill('What is in this screenshot?');
    await page.locator(hooks.send).click();
    await expect.poll(() => ui.model.requests.filter((r) => !isTitleRequest(r)).length, { timeout: 10_000 }).toBe(1);
    const user = ui.model.requests.find((r) => !isTitleRequest(r))!.body.messages.at(-1);
    expect(user.content[1]).toEqual({ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_B64}` } });

    const thumb = page.locator(`${hooks.message('user')} [data-role="attachment-thumb"] img`);
    await expect.poll(() => thumb.count()).toBe(1);
    const src = (await thumb.getAttribute('src'))!;
    const url = new URL(src, 'http://x');
    expect(url.pathname).toBe('/api/media');
    expect(url.searchParams.get('path')).toMatch(/[\\/]attachments[\\/][^\\/]+[\\/]screenshot-\d+\.png$/);
    expect(url.searchParams.get('session_id')).toBeTruthy();
    expect(url.searchParams.get('inline')).toBe('1');
    // GET /api/media serves the upload: the thumbnail decodes the real bytes.
    await expect.poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    await expect.poll(() => page.locator(hooks.send).count()).toBe(1);
    await ui.screenshot(page, 'attachment-thumbnail');

    await page.reload();
    await expect.poll(() => page.locator(`${hooks.message('user')} [data-role="attachment-thumb"] img`).count()).toBe(1);
    expect(await page.locator(`${hooks.message('user')} [data-role="attachment-thumb"] img`).getAttribute('src')).toBe(src);
  });

  it('a paste of 100 lines becomes a pasted-text .md attachment, not composer text; it is inlined for the model and shown as a chip', async () => {
    const { page } = await ui.open('/');
    const pasted = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join('\n');
    await page.locator(hooks.composer).evaluate((el, text) => {
      const data = new DataTransfer();
      data.setData('text/plain', text);
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true, composed: true }));
    }, pasted);
    await expect.poll(() => page.locator(`${composerChip}[data-state="done"]`).count(), { timeout: 10_000 }).toBe(1);
    expect(await page.locator(composerChip).getAttribute('title')).toMatch(/^pasted-text-\d{4}-\d\d-\d\d_\d\d-\d\d-\d\d-\d{3}\.md$/);
    expect(await page.locator(hooks.composer).inputValue()).toBe('');

    const before = ui.model.requests.filter((r) => !isTitleRequest(r)).length;
    ui.model.enqueue([{ text: 'Got your lines.' }]);
    await page.locator(hooks.composer).fill('Summarise the paste');
    await page.locator(hooks.send).click();
    await expect.poll(() => ui.model.requests.filter((r) => !isTitleRequest(r)).length, { timeout: 10_000 }).toBe(before + 1);
    const content: string = ui.model.requests
      .filter((r) => !isTitleRequest(r))
      .at(-1)!
      .body.messages.at(-1).content;
    expect(content).toContain('line 1\nline 2');
    expect(content).toContain('line 100');
    const chip = page.locator(`${hooks.message('user')} [data-role="attachment-chip"]`);
    await expect.poll(() => chip.count()).toBe(1);
    expect(await chip.getAttribute('href')).toContain('/api/media?path=');
  });
});
