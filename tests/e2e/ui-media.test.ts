import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';

/** A real `width`×`height` RGB PNG, so the browser has something to decode. */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  // Each row: filter byte 0, then an orange pixel per column.
  const rows = Buffer.concat(Array.from({ length: height }, () => Buffer.from([0, ...Array.from({ length: width }, () => [230, 120, 40]).flat()])));
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
const PNG = png(8, 6);

/** A scripted answer with `MEDIA:` lines: the image and the CSV render in place, from the real bytes. */
describe('web app: inline media', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
    await mkdir(join(ui.workspace, 'out'), { recursive: true });
    await writeFile(join(ui.workspace, 'out', 'chart.png'), PNG);
    await writeFile(join(ui.workspace, 'out', 'scores.csv'), 'name,score\nada,3\ngrace,5\n');
  });
  afterAll(async () => ui?.close());

  it('renders a MEDIA: image with its bytes and a CSV as a table, before and after a reload', async () => {
    const { page } = await ui.open('/');
    ui.model.enqueue([{ text: `Here is the chart:\n\nMEDIA:${join(ui.workspace, 'out', 'chart.png')}\n\nAnd the scores:\n\nMEDIA:out/scores.csv\n` }]);
    await page.locator(hooks.composer).fill('show me the chart');
    await page.locator(hooks.send).click();
    await expect.poll(async () => (await deepText(page.locator(hooks.message('assistant')).last()))?.includes('And the scores')).toBe(true);

    const check = async () => {
      const img = page.locator('[data-role="media-image"]');
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth), { timeout: 10_000 }).toBe(8);
      expect(await img.evaluate((el: HTMLImageElement) => el.naturalHeight)).toBe(6);
      const src = new URL((await img.getAttribute('src'))!, ui.server.url);
      expect(src.pathname).toBe('/api/media');
      const cells = page.locator('[data-role="media-csv"] td');
      await expect.poll(() => cells.allTextContents(), { timeout: 10_000 }).toEqual(['ada', '3', 'grace', '5']);
      expect(await page.locator('[data-role="media-csv"] th').allTextContents()).toEqual(['name', 'score']);
      // Nothing the page loaded broke its Content-Security-Policy.
      expect(await page.evaluate(() => (window as any).__cspViolations)).toEqual([]);
    };
    await check();
    await ui.screenshot(page, 'inline-media');
    await page.reload();
    await check();
  });
});
