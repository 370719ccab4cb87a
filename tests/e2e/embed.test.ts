import { createServer, type Server } from 'node:http';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { deepText, hooks, launchBrowser } from '../helpers/browser.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { startScriptedOpenAI, type ScriptedServer } from '../fixtures/scripted-openai.js';
import { isTitleRequest } from '../helpers/chat.js';
import { startFlakyProxy } from '../helpers/flaky-proxy.js';

const EMBED_DIR = join(import.meta.dirname, '..', '..', 'public', 'embed');

/** A tiny static site on its own loopback origin: `page()` answers `/`, `/embed/*` is a copy of the bundle. */
async function startSite(page: (url: URL) => string): Promise<{ server: Server; origin: string }> {
  const server = createServer(async (req, res) => {
    const reqUrl = new URL(req.url ?? '/', 'http://x');
    const path = reqUrl.pathname;
    if (path === '/') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(page(reqUrl));
      return;
    }
    if (path.startsWith('/embed/')) {
      const file = join(EMBED_DIR, normalize(path.slice('/embed/'.length)).replace(/^(\.\.[/\\])+/, ''));
      try {
        const body = await readFile(file);
        res.writeHead(200, { 'Content-Type': extname(file) === '.js' ? 'text/javascript' : 'application/octet-stream' });
        res.end(body);
        return;
      } catch {
        /* 404 below */
      }
    }
    res.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return { server, origin: `http://127.0.0.1:${port}` };
}

const embedPage = (o: { script: string; server: string; token: string }) => `<!doctype html>
<html><head><meta charset="utf-8"><title>Host page</title>
<style>body { font-family: serif; background: rgb(1, 2, 3); }</style>
<script>
  window.__events = [];
  for (const name of ['hermes-ready', 'hermes-message', 'hermes-run-start', 'hermes-run-end', 'hermes-approval', 'hermes-error'])
    document.addEventListener(name, (e) => window.__events.push({ name, detail: JSON.parse(JSON.stringify(e.detail)) }));
</script>
<script type="module" src="${o.script}"></script>
</head><body>
<h1>A page that embeds Hermes</h1>
<hermes-chat server="${o.server}" token="${o.token}" theme="dark" placeholder="Ask the docs bot"></hermes-chat>
</body></html>`;

const events = (page: Page) => page.evaluate(() => (window as unknown as { __events: Array<{ name: string; detail: any }> }).__events);

/** <hermes-chat> on another origin, against the real server (allowlist env), a scripted model and Chromium. */
describe('embedding <hermes-chat> on another origin', () => {
  let home: string;
  let model: ScriptedServer;
  let hermes: RunningServer;
  let browser: Browser;
  let allowed: { server: Server; origin: string };
  let foreign: { server: Server; origin: string };
  let token = '';

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'hermes-embed-'));
    const hermesHome = join(home, '.hermes');
    await mkdir(join(hermesHome, 'webui'), { recursive: true });
    model = await startScriptedOpenAI();
    model.setRouter((req) => (isTitleRequest(req) ? [{ text: 'An embedded title' }] : undefined));
    await writeFile(join(hermesHome, 'config.yaml'), `model:\n  default: scripted-model\n  provider: custom\n  base_url: ${model.url}\n`);
    let url = '';
    // `?server=` points the element elsewhere (a cuttable proxy in front of the server).
    allowed = await startSite((u) => embedPage({ script: `${url}/embed/hermes-chat.js`, server: u.searchParams.get('server') ?? url, token }));
    // The foreign site hosts the bundle itself (the server only shares it with allowlisted origins).
    foreign = await startSite(() => embedPage({ script: '/embed/hermes-chat.js', server: url, token }));
    hermes = await startServer({ HOME: home, HERMES_HOME: hermesHome, HERMES_WEBUI_EMBED_ORIGINS: allowed.origin });
    url = hermes.url;
    const res = await fetch(`${url}/api/embed/tokens`, {
      method: 'POST',
      body: JSON.stringify({ origin: allowed.origin }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(200);
    token = ((await res.json()) as { token: string }).token;
    browser = await launchBrowser();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await hermes?.stop('SIGKILL');
    await model?.close();
    allowed?.server.close();
    foreign?.server.close();
    if (home) await rm(home, { recursive: true, force: true });
  });

  const open = async (origin: string, locale?: string) => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 800 }, ...(locale ? { locale } : {}) });
    const page = await context.newPage();
    page.on('pageerror', (err) => console.error('[pageerror]', err.message));
    await page.goto(origin + '/');
    return page;
  };

  it('sends, streams, and asks before a dangerous command, all inside the element', async () => {
    const page = await open(allowed.origin);
    await expect.poll(async () => (await events(page)).some((e) => e.name === 'hermes-ready')).toBe(true);
    expect(await page.locator(hooks.composer).getAttribute('placeholder')).toBe('Ask the docs bot');

    const words = Array.from({ length: 30 }, (_, i) => `emb${i}`);
    model.enqueue(words.flatMap((w) => [{ text: `${w} ` }, { delayMs: 15 }]));
    await page.locator(hooks.composer).fill('Stream thirty words');
    await page.locator(hooks.send).click();
    const assistant = () => page.locator('hermes-chat').locator(hooks.message('assistant')).last();
    await expect.poll(async () => (await deepText(assistant())).includes('emb3')).toBe(true);
    await expect.poll(async () => (await deepText(assistant())).includes('emb29')).toBe(true);
    await expect.poll(() => page.locator(hooks.send).count()).toBe(1);
    await expect.poll(async () => (await events(page)).map((e) => e.name)).toContain('hermes-run-end');
    const log = await events(page);
    const sessionId = log.find((e) => e.name === 'hermes-run-start')?.detail.sessionId;
    expect(sessionId).toMatch(/^[0-9a-f]{12}$/);
    const messages = log.filter((e) => e.name === 'hermes-message').map((e) => ({ role: e.detail.role, content: e.detail.content.trim() }));
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(messages[0]!.content).toBe('Stream thirty words');
    expect(messages[1]!.content).toBe(words.join(' '));
    expect(await page.evaluate(() => (document.querySelector('hermes-chat') as any).session)).toBe(sessionId);

    // A dangerous command waits for approval in the element's card.
    model.enqueue(
      [{ toolCall: { id: 't-embed', name: 'terminal', args: { command: 'mkdir -p embedded/x && rm -rf embedded/x && touch embedded.ran' } } }],
      [{ text: 'ran it from the embed' }],
    );
    await page.evaluate(() => (document.querySelector('hermes-chat') as any).send('please run it'));
    const card = page.locator(hooks.approvalCard);
    await expect.poll(() => card.count()).toBe(1);
    expect(await deepText(card)).toContain('rm -rf embedded/x');
    await expect.poll(async () => (await events(page)).some((e) => e.name === 'hermes-approval' && e.detail.approval.command.includes('rm -rf'))).toBe(true);
    await card.locator('[data-choice="once"]').click();
    await expect.poll(async () => (await deepText(assistant())).includes('ran it from the embed')).toBe(true);
    await expect(readFile(join(home, '.hermes', 'webui', 'workspace', 'embedded.ran'), 'utf8')).resolves.toBe('');
    await page.screenshot({ path: join(import.meta.dirname, '..', '..', 'test-results', 'screenshots', 'embed-chat.png') }).catch(() => {});
  });

  it('themes live through data-theme on the host without touching the page', async () => {
    const page = await open(allowed.origin);
    await expect.poll(async () => (await events(page)).some((e) => e.name === 'hermes-ready')).toBe(true);
    const bg = () => page.evaluate(() => getComputedStyle(document.querySelector('hermes-chat')!).backgroundColor);
    const dark = await bg();
    await page.evaluate(() => ((document.querySelector('hermes-chat') as any).theme = 'light'));
    await expect.poll(() => page.evaluate(() => document.querySelector('hermes-chat')!.getAttribute('data-theme'))).toBe('light');
    await expect.poll(bg).not.toBe(dark);
    expect(
      await page.evaluate(() => [
        document.documentElement.dataset.theme ?? null,
        getComputedStyle(document.body).backgroundColor,
        getComputedStyle(document.body).fontFamily,
      ]),
    ).toEqual([null, 'rgb(1, 2, 3)', 'serif']);
    // Custom properties from the page reach inside.
    await page.addStyleTag({ content: 'hermes-chat { --hermes-bg: rgb(9, 8, 7); }' });
    await expect.poll(bg).toBe('rgb(9, 8, 7)');
  });

  it('takes the app’s skins through its skin attribute, in dark and light, without touching the page', async () => {
    const page = await open(allowed.origin);
    await expect.poll(async () => (await events(page)).some((e) => e.name === 'hermes-ready')).toBe(true);
    const bg = () => page.evaluate(() => getComputedStyle(document.querySelector('hermes-chat')!).backgroundColor);
    await page.evaluate(() => {
      const el = document.querySelector('hermes-chat')!;
      el.setAttribute('theme', 'dark');
      el.setAttribute('skin', 'paper');
    });
    // Paper's dark and light backgrounds (components/styles/skins.css).
    await expect.poll(bg).toBe('rgb(27, 25, 20)');
    await page.evaluate(() => document.querySelector('hermes-chat')!.setAttribute('theme', 'light'));
    await expect.poll(bg).toBe('rgb(246, 241, 231)');
    await page.evaluate(() => document.querySelector('hermes-chat')!.setAttribute('skin', 'default'));
    await expect.poll(bg).toBe('rgb(234, 224, 213)');
    expect(await page.evaluate(() => [document.documentElement.dataset.skin ?? null, getComputedStyle(document.body).backgroundColor])).toEqual([
      null,
      'rgb(1, 2, 3)',
    ]);
  });

  it('on an origin that is not allowlisted, the element says it is not authorised', async () => {
    const page = await open(foreign.origin);
    const notice = page.locator('hermes-chat').locator('[data-role="embed-unauthorised"]');
    await expect.poll(() => notice.count()).toBe(1);
    expect((await deepText(notice)).toLowerCase()).toContain('not authorised');
    expect(await page.locator(hooks.composer).count()).toBe(0);
    await expect.poll(async () => (await events(page)).find((e) => e.name === 'hermes-error')?.detail.status).toBe(403);
  });

  it('speaks the browser’s language, then the page’s lang, without writing to the page', async () => {
    const page = await open(foreign.origin, 'fr-FR');
    const notice = page.locator('hermes-chat').locator('[data-role="embed-unauthorised"]');
    await expect.poll(async () => deepText(notice)).toContain('Non autorisé');
    await page.evaluate(() => (document.documentElement.lang = 'de'));
    await expect.poll(async () => deepText(notice)).toContain('Nicht berechtigt');
    // Arabic on the element alone: its messages and its own direction, the page stays German, left to right.
    await page.evaluate(() => document.querySelector('hermes-chat')!.setAttribute('lang', 'ar'));
    await expect.poll(async () => deepText(notice)).toContain('غير مصرّح');
    expect(
      await page.evaluate(() => [(document.querySelector('hermes-chat') as HTMLElement).dir, document.documentElement.lang, document.documentElement.dir]),
    ).toEqual(['rtl', 'de', '']);
    await page.context().close();
  });

  it('resumes the live turn after a dropped connection, without losing or repeating text', async () => {
    const proxy = await startFlakyProxy(new URL(hermes.url));
    try {
      const words = Array.from({ length: 60 }, (_, i) => `drop${i}`);
      model.enqueue(words.flatMap((w) => [{ text: `${w} ` }, { delayMs: 25 }]));
      const page = await open(`${allowed.origin}/?server=${encodeURIComponent(proxy.url)}`);
      await expect.poll(async () => (await events(page)).some((e) => e.name === 'hermes-ready')).toBe(true);
      await page.locator(hooks.composer).fill('keep talking');
      await page.locator(hooks.send).click();
      const assistant = () => page.locator('hermes-chat').locator(hooks.message('assistant')).last();
      await expect.poll(async () => (await deepText(assistant())).includes('drop6')).toBe(true);
      proxy.cut();
      await expect.poll(() => page.locator('[data-role="reconnecting"]').count(), { timeout: 15_000 }).toBe(1);
      await page.waitForTimeout(500);
      proxy.restore();
      await expect.poll(async () => (await deepText(assistant())).includes('drop59'), { timeout: 20_000 }).toBe(true);
      await expect.poll(() => page.locator(hooks.send).count()).toBe(1);
      const text = await deepText(assistant());
      for (const w of words) expect(text.split(w + ' ').length - 1, w).toBe(1);
    } finally {
      await proxy.close();
    }
  });

  it('a revoked token turns the element to "not authorised" on the allowed origin too', async () => {
    const list = (await (await fetch(`${hermes.url}/api/embed/tokens`)).json()) as { tokens: Array<{ id: string }> };
    const res = await fetch(`${hermes.url}/api/embed/tokens/revoke`, {
      method: 'POST',
      body: JSON.stringify({ id: list.tokens[0]!.id }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(res.status).toBe(200);
    const page = await open(allowed.origin);
    const notice = page.locator('hermes-chat').locator('[data-role="embed-unauthorised"]');
    await expect.poll(() => notice.count()).toBe(1);
    expect(await deepText(notice)).toContain('A valid embed token is required');
  });
});
