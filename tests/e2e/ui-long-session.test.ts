import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';
import type { ScriptStep } from '../fixtures/scripted-openai.js';

const LONG = 'long000000000001';
const SHORT = 'short00000000001';
const MESSAGES = 5_000;
const NEEDLE = 'zebra-needle-42';

const answer = (i: number) => `Answer **${i}**.\n\nA second paragraph for message ${i}, long enough to wrap a little in the column.\n\n- one\n- two`;

/** Two sessions in the incumbent's file format: 5,000 messages (one early message holds NEEDLE), and 30 long ones. */
async function prepare(stateDir: string) {
  const dir = join(stateDir, 'sessions');
  await mkdir(dir, { recursive: true });
  const now = Date.now() / 1000;
  const file = (id: string, title: string, messages: unknown[], at: number) =>
    writeFile(
      join(dir, `${id}.json`),
      JSON.stringify(
        { session_id: id, title, created_at: at - 3600, updated_at: at, pinned: false, archived: false, project_id: null, messages, tool_calls: [] },
        null,
        2,
      ),
    );
  const long = Array.from({ length: MESSAGES }, (_, i) =>
    i % 2 === 0
      ? { role: 'user', content: i === 6 ? `question 6 about the ${NEEDLE}` : `question ${i}`, timestamp: now - 3600 + i * 0.5 }
      : { role: 'assistant', content: answer(i), timestamp: now - 3600 + i * 0.5 },
  );
  const short = Array.from({ length: 30 }, (_, i) =>
    i % 2 === 0
      ? { role: 'user', content: `topic ${i}`, timestamp: now - 60 + i }
      : { role: 'assistant', content: Array.from({ length: 6 }, () => answer(i)).join('\n\n'), timestamp: now - 60 + i },
  );
  await file(LONG, 'A very long chat', long, now - 10);
  await file(SHORT, 'A shorter chat', short, now - 20);
}

type Op = 'firstInView' | 'topOf' | 'fromBottom' | 'scrollTop' | 'scrollHeight' | 'toTop' | 'upFromBottom';

/** Reads or moves the transcript's scroller (inside nested shadow roots). */
function scroller<T>(page: Page, op: Op, arg = 0): Promise<T> {
  return page.evaluate(
    ([op, arg]) => {
      const find = (root: Document | ShadowRoot): HTMLElement | null => {
        const t = root.querySelector('hermes-transcript');
        if (t) return t.shadowRoot!.querySelector<HTMLElement>('.scroller');
        for (const el of root.querySelectorAll('*')) {
          const found = el.shadowRoot && find(el.shadowRoot);
          if (found) return found;
        }
        return null;
      };
      const s = find(document)!;
      if (op === 'toTop') s.scrollTop = 0;
      if (op === 'upFromBottom') s.scrollTop = Math.max(0, s.scrollHeight - s.clientHeight - (arg as number));
      if (op === 'fromBottom') return s.scrollHeight - s.scrollTop - s.clientHeight;
      if (op === 'scrollTop') return s.scrollTop;
      if (op === 'scrollHeight') return s.scrollHeight;
      if (op === 'topOf') {
        const t = s.querySelector<HTMLElement>(`.turn[data-index="${arg}"]`);
        return t ? t.getBoundingClientRect().top - s.getBoundingClientRect().top : null;
      }
      if (op === 'firstInView') {
        // The first turn in view: its stored index and its distance from the scroller's top.
        const top = s.getBoundingClientRect().top;
        const t = [...s.querySelectorAll<HTMLElement>('.turn')].find((e) => e.getBoundingClientRect().bottom > top + 1)!;
        return { index: Number(t.dataset.index), top: t.getBoundingClientRect().top - top };
      }
      return null;
    },
    [op, arg] as const,
  ) as Promise<T>;
}

const firstInView = (page: Page) => scroller<{ index: number; top: number }>(page, 'firstInView');
const fromBottom = (page: Page) => scroller<number>(page, 'fromBottom');

describe('web app: long sessions', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi({ prepare });
  });
  afterAll(async () => ui?.close());

  it('opens a 5,000-message session at its end with at most 100 messages, and pages back on scroll without moving the view', async () => {
    const { page } = await ui.open('/');
    const pages: Array<{ url: URL; count: number }> = [];
    page.on('response', async (res) => {
      const url = new URL(res.url());
      if (url.pathname !== '/api/session' || url.searchParams.get('session_id') !== LONG) return;
      const body = await res.json().catch(() => null);
      if (body?.session) pages.push({ url, count: body.session.messages.length });
    });
    await page.goto(`${ui.server.url}/session/${LONG}`);
    await expect.poll(async () => deepText(page.locator(`[data-index="${MESSAGES - 1}"]`))).toContain(`Answer ${MESSAGES - 1}`);
    expect(pages[0]!.url.searchParams.get('msg_limit')).toBe('100');
    expect(pages[0]!.count).toBe(100);
    expect(pages.every((p) => p.count <= 500)).toBe(true);
    await expect.poll(() => fromBottom(page)).toBeLessThan(2);

    // Scroll to the top again and again: rendered turns grow, then earlier pages are fetched.
    let held = 0;
    for (let i = 0; i < 40 && pages.length < 3; i++) {
      await scroller(page, 'toTop');
      const before = await firstInView(page);
      await page.waitForTimeout(250);
      // Whatever was added above, the turn that was at the top stays exactly where it was.
      const after = await scroller<number | null>(page, 'topOf', before.index);
      expect(after).not.toBeNull();
      expect(Math.abs(after! - before.top)).toBeLessThanOrEqual(1);
      if ((await scroller<number>(page, 'scrollTop')) > 0) held++;
    }
    // Each step put turns above the reader (the scroll position moved down to hold the view).
    expect(held).toBeGreaterThan(2);
    const earlier = pages.slice(1);
    expect(earlier.length).toBeGreaterThanOrEqual(2);
    expect(earlier[0]!.url.searchParams.get('msg_before')).toBe(String(MESSAGES - 100));
    expect(earlier[1]!.url.searchParams.get('msg_before')).toBe(String(MESSAGES - 200));
    expect(await page.locator(`[data-index="${MESSAGES - 150}"]`).count()).toBe(1);
  });

  it('jumps from a search hit to an early message, loading the pages up to it', async () => {
    const { page } = await ui.open('/');
    const requested: URL[] = [];
    page.on('request', (req) => {
      const url = new URL(req.url());
      if (url.pathname === '/api/session' && url.searchParams.get('session_id') === LONG) requested.push(url);
    });
    await page.locator('[data-role="session-search"]').fill(NEEDLE);
    await expect.poll(() => page.locator(`${hooks.sessionRow}[data-session-id="${LONG}"]`).count()).toBe(1);
    await page.locator(`${hooks.sessionRow}[data-session-id="${LONG}"]`).click();
    const target = page.locator('[data-index="6"]');
    await expect.poll(async () => deepText(target)).toContain(NEEDLE);
    expect(await target.getAttribute('data-revealed')).toBe('');
    // In view: its top within the scroller's box.
    await expect.poll(() => firstInView(page).then((f) => f.index)).toBeLessThanOrEqual(6);
    // Every fetch was a page, never the whole transcript.
    expect(requested.every((u) => u.searchParams.has('msg_limit'))).toBe(true);
    expect(requested.some((u) => u.searchParams.has('msg_before'))).toBe(true);
  });

  it('keeps the view within 1 px for 5 s of streaming while scrolled up, and follows at the bottom', async () => {
    const steps: ScriptStep[] = [];
    for (let i = 0; i < 140; i++) steps.push({ text: i % 12 === 11 ? `word${i}.\n\n` : `word${i} ` }, { delayMs: 70 });
    ui.model.enqueue(steps);
    const { page } = await ui.open(`/session/${SHORT}`);
    await expect.poll(async () => deepText(page.locator(hooks.message('assistant')).last())).toContain('Answer 29');
    await page.locator(hooks.composer).fill('tell me a long story');
    await page.locator(hooks.send).click();
    await expect.poll(async () => deepText(page.locator('[data-live="true"]'))).toContain('word3');

    // Scrolled up into the earlier answers: for 5 s, nothing the reader sees moves.
    await scroller(page, 'upFromBottom', 1500);
    await page.waitForTimeout(100);
    const start = await firstInView(page);
    const scrollTop = await scroller<number>(page, 'scrollTop');
    const liveLength = async () => (await deepText(page.locator('[data-live="true"]'))).length;
    const grownFrom = await liveLength();
    let worst = 0;
    for (let t = 0; t < 50; t++) {
      await page.waitForTimeout(100);
      const now = await firstInView(page);
      expect(now.index).toBe(start.index);
      worst = Math.max(worst, Math.abs(now.top - start.top));
    }
    expect(worst).toBeLessThanOrEqual(1);
    expect(Math.abs((await scroller<number>(page, 'scrollTop')) - scrollTop)).toBeLessThanOrEqual(1);
    expect(await liveLength()).toBeGreaterThan(grownFrom);
    expect(await page.locator('[data-role="jump-latest"]').count()).toBe(1);

    // Back at the bottom, the view follows the answer as it grows.
    await page.locator('[data-role="jump-latest"]').click();
    const height = await scroller<number>(page, 'scrollHeight');
    await expect.poll(() => scroller<number>(page, 'scrollHeight')).toBeGreaterThan(height);
    expect(await fromBottom(page)).toBeLessThan(2);
    await expect.poll(() => page.locator(hooks.send).count(), { timeout: 20_000 }).toBe(1);
    expect(await fromBottom(page)).toBeLessThan(2);
  });
});
