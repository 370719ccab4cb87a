import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';
import { isTitleRequest } from '../helpers/chat.js';

const ONE = 'a0000000000a';
const TWO = 'b0000000000b';

/** Two stored sessions; the first has a tool-using turn (an Activity row). */
async function prepare(stateDir: string) {
  const dir = join(stateDir, 'sessions');
  await mkdir(dir, { recursive: true });
  const now = Date.now() / 1000;
  const base = { pinned: false, archived: false, project_id: null, tool_calls: [] };
  await writeFile(
    join(dir, `${ONE}.json`),
    JSON.stringify({
      ...base,
      session_id: ONE,
      title: 'First offline chat',
      created_at: now - 100,
      updated_at: now - 100,
      messages: [
        { role: 'user', content: 'What is in a.txt?', timestamp: now - 100 },
        {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: 't1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } }],
          timestamp: now - 99,
        },
        { role: 'tool', tool_call_id: 't1', content: 'hello', timestamp: now - 98 },
        { role: 'assistant', content: 'Answer one: it says hello.', timestamp: now - 97 },
      ],
    }),
  );
  await writeFile(
    join(dir, `${TWO}.json`),
    JSON.stringify({
      ...base,
      session_id: TWO,
      title: 'Second offline chat',
      created_at: now - 50,
      updated_at: now - 50,
      messages: [
        { role: 'user', content: 'Second question', timestamp: now - 50 },
        { role: 'assistant', content: 'Answer two.', timestamp: now - 49 },
      ],
    }),
  );
}

const transcriptText = (page: Page) => deepText(page.locator('hermes-transcript'));
const rowFor = (page: Page, title: string) => page.locator(hooks.sessionRow).filter({ hasText: title });

/**
 * The offline PWA in Chromium: the service worker serves the shell, IndexedDB the sessions,
 * the outbox sends what was typed offline once the server is back.
 *
 * The server serves a COPY of public/ (HERMES_WEBUI_PUBLIC_DIR), so the update test can put a
 * changed sw.js there — what a new deploy does — while the page stays on the same origin.
 */
describe('web app: offline', () => {
  let ui: UiHarness;
  let publicCopy: string;
  beforeAll(async () => {
    publicCopy = mkdtempSync(join(tmpdir(), 'hermes-public-'));
    cpSync(join(import.meta.dirname, '..', '..', 'public'), publicCopy, { recursive: true });
    ui = await startUi({ prepare, env: { HERMES_WEBUI_PUBLIC_DIR: publicCopy } });
  });
  afterAll(async () => {
    await ui?.close();
    rmSync(publicCopy, { recursive: true, force: true });
  });

  it('serves the manifest and the worker with the right headers', async () => {
    const manifest = await fetch(`${ui.server.url}/manifest.webmanifest`);
    expect(manifest.headers.get('content-type')).toBe('application/manifest+json');
    const body = await manifest.json();
    expect(body).toMatchObject({ name: 'Hermes', start_url: '/', display: 'standalone', background_color: '#0a0908', theme_color: '#22333b' });
    expect(body.icons.some((i: { purpose: string }) => i.purpose === 'maskable')).toBe(true);
    const sw = await fetch(`${ui.server.url}/sw.js`);
    expect(sw.status).toBe(200);
    expect(sw.headers.get('cache-control')).toBe('no-store');
    expect(sw.headers.get('service-worker-allowed')).toBe('/');
    const icon = await fetch(`${ui.server.url}/icons/icon-512.png`);
    expect(icon.headers.get('content-type')).toBe('image/png');
  });

  it('starts offline from the cache, queues a message, and sends it exactly once when back; disclosures persist; an update prompts', async () => {
    const { context, page } = await ui.open(`/session/${ONE}`);
    await expect.poll(() => transcriptText(page)).toContain('Answer one: it says hello.');
    // The worker has installed and controls the page (clients.claim on activate).
    await page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 15_000 });
    // Visit the second session online, so both transcripts are cached.
    await rowFor(page, 'Second offline chat').click();
    await expect.poll(() => transcriptText(page)).toContain('Answer two.');
    await page.waitForTimeout(300); // the cache's write batch (100 ms) lands

    // Offline: the shell still loads, both sessions list, both transcripts show, marked cached.
    await context.setOffline(true);
    const shell = await page.reload();
    // The shell came from the worker's cache: the network is off.
    expect(shell?.fromServiceWorker()).toBe(true);
    await expect.poll(() => page.locator('[data-role="offline-indicator"]').count()).toBe(1);
    await expect.poll(() => page.locator(hooks.sessionRow).count()).toBe(2);
    await expect.poll(() => transcriptText(page)).toContain('Answer two.');
    await expect.poll(() => page.locator('[data-role="cached-note"]').count()).toBe(1);
    await rowFor(page, 'First offline chat').click();
    await expect.poll(() => transcriptText(page)).toContain('Answer one: it says hello.');
    expect(await page.locator('[data-role="cached-note"]').count()).toBe(1);
    await ui.screenshot(page, 'offline-cached');

    // A message typed offline is queued, and stays queued across a reload.
    await page.locator(hooks.composer).fill('queued hello');
    await page.locator(hooks.send).click();
    await expect.poll(() => page.locator('[data-role="queued"]').count()).toBe(1);
    expect(await page.locator(hooks.composer).inputValue()).toBe('');
    await page.reload();
    await expect.poll(() => page.locator('[data-role="queued"]').count()).toBe(1);
    expect(await deepText(page.locator(hooks.message('user')).last())).toContain('queued hello');
    // Drafts keep working offline.
    await page.locator(hooks.composer).fill('a draft kept offline');
    await page.reload();
    await expect.poll(() => page.locator(hooks.composer).inputValue()).toBe('a draft kept offline');
    await page.locator(hooks.composer).fill('');

    // Back online: sent once, and the answer streams in.
    ui.model.enqueue([{ text: 'The queued message ' }, { delayMs: 30 }, { text: 'got its answer.' }]);
    await context.setOffline(false);
    await expect.poll(() => deepText(page.locator(hooks.message('assistant')).last()), { timeout: 15_000 }).toContain('got its answer.');
    expect(await page.locator('[data-role="queued"]').count()).toBe(0);
    await expect.poll(() => page.locator('[data-role="offline-indicator"]').count()).toBe(0);
    const sent = ui.model.requests.filter(
      (r) => !isTitleRequest(r) && r.body?.messages?.at(-1)?.role === 'user' && JSON.stringify(r.body.messages.at(-1).content).includes('queued hello'),
    );
    expect(sent).toHaveLength(1);
    const stored = await ui.api(`/api/session?session_id=${ONE}`);
    expect(stored.session.messages.filter((m: { role: string; content: unknown }) => m.role === 'user' && m.content === 'queued hello')).toHaveLength(1);
    // ...and not again after another reload.
    await page.reload();
    await expect.poll(() => transcriptText(page)).toContain('got its answer.');
    await page.waitForTimeout(500);
    expect(
      ui.model.requests.filter((r) => !isTitleRequest(r) && JSON.stringify(r.body?.messages?.at(-1)?.content ?? '').includes('queued hello')),
    ).toHaveLength(1);

    // An Activity row opened stays open across a reload and a chat switch.
    const activity = page.locator(hooks.activity).first();
    await activity.locator('button').first().click();
    await expect.poll(() => activity.getAttribute('data-open')).toBe('true');
    await page.waitForTimeout(300);
    await page.reload();
    await expect.poll(() => page.locator(hooks.activity).first().getAttribute('data-open')).toBe('true');
    await rowFor(page, 'Second offline chat').click();
    await expect.poll(() => transcriptText(page)).toContain('Answer two.');
    await rowFor(page, 'First offline chat').click();
    await expect.poll(() => page.locator(hooks.activity).first().getAttribute('data-open')).toBe('true');

    // A new deploy: a changed sw.js. The new worker waits; the page offers to reload.
    const swFile = join(publicCopy, 'sw.js');
    // The build's version is the only 12-hex-digit string literal in the worker.
    const current = readFileSync(swFile, 'utf8');
    const next = current.replace(/"[0-9a-f]{12}"/, '"testversion2"');
    expect(next).not.toBe(current);
    writeFileSync(swFile, next);
    expect(await page.locator('[data-role="update-prompt"]').count()).toBe(0);
    await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.update()));
    await expect.poll(() => page.locator('[data-role="update-prompt"]').count(), { timeout: 15_000 }).toBe(1);
    // It never reloads by itself; with unsent text it asks first.
    await page.locator(hooks.composer).fill('unsent words');
    await page.waitForTimeout(300);
    await page.locator('[data-role="update-reload"]').click();
    await expect.poll(() => page.locator('[data-role="update-prompt"][data-confirming="true"]').count()).toBe(1);
    expect(await deepText(page.locator('[data-role="update-prompt"]'))).toContain('unsent message');
    await Promise.all([page.waitForEvent('load', { timeout: 15_000 }), page.locator('[data-role="update-reload-anyway"]').click()]);
    await expect.poll(() => page.evaluate(() => caches.keys())).toContain('hermes-shell-testversion2');
    await expect.poll(() => page.evaluate(() => caches.keys().then((k) => k.filter((n) => n.startsWith('hermes-shell-')).length))).toBe(1);
    expect(await page.locator('[data-role="update-prompt"]').count()).toBe(0);
  });
  it('a transcript seen once and left at once (a fresh browser, its database still opening) is there offline', async () => {
    // A page of this origin that is not the app, to install the fault before the app's first load.
    const { context, page } = await ui.open('/manifest.webmanifest');
    await page.addInitScript(() => {
      // A fresh profile's first IndexedDB open takes 90–430 ms; here every open's success is held 3 s (a
      // slow disk), longer than this page takes to load and show the transcript.
      const realOpen = IDBFactory.prototype.open;
      IDBFactory.prototype.open = function (this: IDBFactory, ...args: Parameters<IDBFactory['open']>) {
        const request = realOpen.apply(this, args);
        let handler: ((this: IDBRequest, e: Event) => unknown) | null = null;
        Object.defineProperty(request, 'onsuccess', { configurable: true, get: () => handler, set: (fn) => void (handler = fn) });
        request.addEventListener('success', (e) => void setTimeout(() => handler?.call(request, e), 3000));
        return request;
      };
    });
    await page.goto(`${ui.server.url}/session/${TWO}`);
    await expect.poll(() => transcriptText(page), { interval: 5 }).toContain('Answer two.');
    // Left the moment it showed: a full navigation, long before the old 100 ms batch.
    await page.goto(`${ui.server.url}/`);
    await page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 15_000 });
    await context.setOffline(true);
    await page.goto(`${ui.server.url}/session/${TWO}`);
    // Every read waits for the held open.
    await expect.poll(() => transcriptText(page), { timeout: 15_000 }).toContain('Answer two.');
    expect(await page.locator('[data-role="cached-note"]').count()).toBe(1);
  });

  it('a message typed offline in the new-chat view is queued, then starts its conversation once, when the server is back', async () => {
    const sessionsBefore = (await ui.api('/api/sessions')).total;
    const { context, page } = await ui.open('/');
    await page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 15_000 });
    await context.setOffline(true);
    await page.reload();
    await expect.poll(() => page.locator('[data-role="offline-indicator"]').count()).toBe(1);
    await page.locator(hooks.composer).fill('a brand new question');
    await page.locator(hooks.send).click();
    await expect.poll(() => page.locator('[data-role="queued"]').count()).toBe(1);
    expect(page.url()).toMatch(/\/$/);
    // Survives a reload while still offline.
    await page.reload();
    await expect.poll(() => page.locator('[data-role="queued"]').count()).toBe(1);
    const before = ui.model.requests.filter((r) => !isTitleRequest(r)).length;
    ui.model.enqueue([{ text: 'Answering the new question.' }]);
    await context.setOffline(false);
    await expect.poll(() => page.url(), { timeout: 20_000 }).toMatch(/\/session\/[0-9a-f]{12}$/);
    await expect.poll(() => transcriptText(page), { timeout: 20_000 }).toContain('Answering the new question.');
    await expect.poll(() => page.locator('[data-role="queued"]').count()).toBe(0);
    const sent = ui.model.requests.filter((r) => !isTitleRequest(r)).slice(before);
    expect(sent.filter((r) => JSON.stringify(r.body.messages).includes('a brand new question'))).toHaveLength(1);
    // Exactly one new session, the one now in the URL.
    const list = await ui.api('/api/sessions');
    expect(list.total).toBe(sessionsBefore + 1);
    expect(list.sessions.map((r: { session_id: string }) => r.session_id)).toContain(page.url().split('/').pop());
    await page.waitForTimeout(500);
    expect(
      ui.model.requests
        .filter((r) => !isTitleRequest(r))
        .slice(before)
        .filter((r) => JSON.stringify(r.body.messages).includes('a brand new question')),
    ).toHaveLength(1);
  });

  it('offline on /session/<id> with no copy on this device, a message is queued for that session and lands there', async () => {
    const created = await ui.api('/api/session/new', {});
    const sid: string = created.session.session_id;
    await ui.api('/api/session/rename', { session_id: sid, title: 'Never opened here' });
    const sessionsBefore = (await ui.api('/api/sessions')).total;
    const { context, page } = await ui.open('/');
    await page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 15_000 });
    await context.setOffline(true);
    // The URL names the session; this browser never fetched its transcript.
    await page.goto(`${ui.server.url}/session/${sid}`);
    await expect.poll(() => page.locator('[data-role="offline-indicator"]').count()).toBe(1);
    await page.locator(hooks.composer).fill('for the named session');
    await page.locator(hooks.send).click();
    await expect.poll(() => page.locator('[data-role="queued"]').count()).toBe(1);
    expect(page.url()).toMatch(new RegExp(`/session/${sid}$`));
    const before = ui.model.requests.filter((r) => !isTitleRequest(r)).length;
    ui.model.enqueue([{ text: 'Answered in the named session.' }]);
    await context.setOffline(false);
    await expect.poll(() => transcriptText(page), { timeout: 20_000 }).toContain('Answered in the named session.');
    expect(page.url()).toMatch(new RegExp(`/session/${sid}$`));
    await expect.poll(() => page.locator('[data-role="queued"]').count()).toBe(0);
    const stored = await ui.api(`/api/session?session_id=${sid}`);
    expect(stored.session.messages.filter((m: { role: string; content: unknown }) => m.role === 'user').map((m: { content: unknown }) => m.content)).toEqual([
      'for the named session',
    ]);
    // No conversation was started for it elsewhere.
    expect((await ui.api('/api/sessions')).total).toBe(sessionsBefore);
    const sent = ui.model.requests.filter((r) => !isTitleRequest(r)).slice(before);
    expect(sent.filter((r) => JSON.stringify(r.body.messages).includes('for the named session'))).toHaveLength(1);
  });
});
