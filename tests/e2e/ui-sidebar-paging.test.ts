import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hooks, startUi, type UiHarness } from '../helpers/browser.js';

const SESSIONS = 10_000;
const PINNED = [17, 4_321, 9_998];
const idOf = (i: number) => `p${i.toString(16).padStart(11, '0')}`;

/** 10,000 stored sessions, one a minute, newest first by index; three pinned far apart. */
async function prepare(stateDir: string) {
  const dir = join(stateDir, 'sessions');
  await mkdir(dir, { recursive: true });
  const now = Date.now() / 1000;
  await Promise.all(
    Array.from({ length: SESSIONS }, (_, i) => {
      const at = now - i * 60;
      return writeFile(
        join(dir, `${idOf(i)}.json`),
        JSON.stringify({
          session_id: idOf(i),
          title: `Paged chat ${i}`,
          created_at: at,
          updated_at: at,
          pinned: PINNED.includes(i),
          archived: false,
          project_id: null,
          messages: [{ role: 'user', content: 'x', timestamp: at }],
          tool_calls: [],
        }),
      );
    }),
  );
}

/** The session ids whose rows are in the sidebar's DOM now, in order. */
const rowIds = (page: Page) => page.locator(hooks.sessionRow).evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.sessionId!));

/** Scrolls the virtual list to its bottom until `id`'s row is drawn; returns how many scrolls it took. */
function scrollToEnd(page: Page, id: string): Promise<number> {
  return page.evaluate(async (wanted) => {
    const find = (root: Document | ShadowRoot, sel: string): Element | null => {
      const hit = root.querySelector(sel);
      if (hit) return hit;
      for (const el of root.querySelectorAll('*')) {
        const found = el.shadowRoot && find(el.shadowRoot, sel);
        if (found) return found;
      }
      return null;
    };
    const list = find(document, 'hermes-session-list')!;
    const viewport = list.shadowRoot!.querySelector<HTMLElement>('.viewport')!;
    for (let scrolls = 1; scrolls < 1000; scrolls++) {
      viewport.scrollTop = viewport.scrollHeight;
      const height = viewport.scrollHeight;
      const deadline = performance.now() + 5000;
      // Wait for the next page to grow the list (or for the wanted row to be drawn).
      while (performance.now() < deadline) {
        await new Promise((r) => requestAnimationFrame(r));
        if (list.shadowRoot!.querySelector(`[data-session-id="${wanted}"]`)) return scrolls;
        if (viewport.scrollHeight > height) break;
      }
      if (viewport.scrollHeight === height) throw new Error(`the list stopped growing at ${height}px`);
    }
    throw new Error('never reached the end');
  }, id);
}

describe('the sidebar pages through 10,000 sessions (Chromium, built server)', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi({ prepare });
  }, 120_000);
  afterAll(async () => ui?.close());

  it('loads one compressed page with the pinned rows on top, pages in on scroll, and reaches the last session', async () => {
    const context = await ui.browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      const lists: Array<{ url: URL; status: number; encoding: string | null; ifNoneMatch: string | null }> = [];
      page.on('response', async (res) => {
        const url = new URL(res.url());
        if (url.pathname !== '/api/sessions') return;
        lists.push({
          url,
          status: res.status(),
          encoding: await res.headerValue('content-encoding'),
          ifNoneMatch: await res.request().headerValue('if-none-match'),
        });
      });
      await page.goto(ui.server.url + '/');
      await page.locator(hooks.sessionRow).first().waitFor();

      expect(lists).toHaveLength(1);
      expect(lists[0]!.url.searchParams.get('limit')).toBe('100');
      expect(lists[0]!.encoding).toBe('br');
      // Pinned rows first, under their own header, though they are far down the order.
      const first = await rowIds(page);
      expect(first.slice(0, 3)).toEqual(PINNED.map(idOf));
      expect(await page.locator('[data-role="bucket-header"]').first().textContent()).toBe('Pinned');
      expect(first).toContain(idOf(0));
      expect(first).not.toContain(idOf(SESSIONS - 1));

      const scrolls = await scrollToEnd(page, idOf(SESSIONS - 1));
      expect(scrolls).toBeGreaterThan(50);
      const last = await rowIds(page);
      expect(last.at(-1)).toBe(idOf(SESSIONS - 1));
      const pages = lists.slice(1);
      expect(pages.every((p) => p.url.searchParams.get('cursor') && p.status === 200)).toBe(true);
      // Every page was asked once: no cursor twice.
      expect(new Set(pages.map((p) => p.url.searchParams.get('cursor'))).size).toBe(pages.length);
      const count = await page.evaluate(() => (document.querySelector('hermes-app') as any).sessions.rows.length);
      expect(count).toBe(SESSIONS);

      // A reload paints the rows IndexedDB kept and revalidates them: unchanged, so a 304.
      lists.length = 0;
      // Once IndexedDB holds every row (writes land in 100 ms batches):
      await expect
        .poll(() =>
          page.evaluate(
            () =>
              new Promise<number>((resolve) => {
                const open = indexedDB.open('hermes');
                open.onsuccess = () => {
                  const get = open.result.transaction('kv').objectStore('kv').get('hermes:rows');
                  get.onsuccess = () => resolve((get.result as unknown[] | undefined)?.length ?? 0);
                  get.onerror = () => resolve(0);
                };
                open.onerror = () => resolve(0);
              }),
          ),
        )
        .toBe(SESSIONS);
      await page.reload();
      await page.locator(hooks.sessionRow).first().waitFor();
      await expect.poll(() => lists.length).toBeGreaterThan(0);
      expect(lists[0]!.status).toBe(304);
      expect(lists[0]!.ifNoneMatch).toMatch(/^W\/"/);
      // The stored tag was sent at once (from localStorage), before IndexedDB had been read.
      expect(lists[0]!.url.searchParams.get('limit')).toBe('100');
      expect(await page.evaluate(() => (document.querySelector('hermes-app') as any).sessions.rows.length)).toBe(SESSIONS);
    } finally {
      await context.close();
    }
  }, 180_000);
});
