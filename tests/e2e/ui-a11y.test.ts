import { readFile, appendFile, mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepText, hooks, openPanel, PANELS, startUi, type UiHarness } from '../helpers/browser.js';

const AXE = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const EMBED_DIR = join(import.meta.dirname, '..', '..', 'public', 'embed');
const THEMES = ['dark', 'light'] as const;

interface Finding {
  screen: string;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/** Every serious or critical axe violation on the page as it stands (axe walks open shadow roots itself). */
async function audit(page: Page, screen: string, include?: string): Promise<Finding[]> {
  // Evaluated over the DevTools protocol: the app's CSP (script-src 'self') refuses an inline <script>.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(`${AXE}\n;0`);
  const violations = await page.evaluate(async (selector) => {
    const axe = (window as any).axe;
    const context = selector ? { include: [[selector]] } : document;
    const result = await axe.run(context, { resultTypes: ['violations'] });
    return result.violations.map((v: any) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n: any) => JSON.stringify(n.target)),
    }));
  }, include);
  return violations.filter((v: Finding) => v.impact === 'serious' || v.impact === 'critical').map((v: Finding) => ({ ...v, screen }));
}

const report = (found: Finding[]) => found.map((f) => `${f.screen}: ${f.rule} (${f.impact}) ${f.help}\n    ${f.targets.slice(0, 5).join('\n    ')}`).join('\n');

/** The embed bundle on a host page of its own loopback origin (as tests/e2e/embed.test.ts serves it). */
async function startHost(page: () => string): Promise<{ server: Server; origin: string }> {
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/') return void res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page());
    if (path.startsWith('/embed/')) {
      try {
        const body = await readFile(join(EMBED_DIR, normalize(path.slice('/embed/'.length)).replace(/^(\.\.[/\\])+/, '')));
        return void res.writeHead(200, { 'Content-Type': extname(path) === '.js' ? 'text/javascript' : 'application/octet-stream' }).end(body);
      } catch {
        /* 404 below */
      }
    }
    res.writeHead(404).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

/** One skill, so the skills panel has rows (each with its switch) and a detail to read. */
async function writeSkill(stateDir: string) {
  const dir = join(stateDir, '..', 'skills', 'devops', 'deploy');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'SKILL.md'), '---\nname: deploy\ndescription: Ship the app to production\n---\n# Deploy\n\nRun the **release** checklist first.\n');
}

async function idle(page: Page) {
  await expect.poll(() => page.locator(hooks.send).count()).toBe(1);
}

/** axe-core over every screen, dark and light: no serious or critical violation anywhere. */
describe('web app: accessibility (axe-core in Chromium)', () => {
  let ui: UiHarness;
  let host: { server: Server; origin: string };
  let token = '';
  let share = '';
  let theme: string = THEMES[0];

  beforeAll(async () => {
    host = await startHost(
      () => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Host page</title>
<script type="module" src="${ui.server.url}/embed/hermes-chat.js"></script></head>
<body><main><h1>A page that embeds Hermes</h1><hermes-chat server="${ui.server.url}" token="${token}" theme="${theme}"></hermes-chat></main></body></html>`,
    );
    ui = await startUi({ env: { HERMES_WEBUI_EMBED_ORIGINS: host.origin }, prepare: writeSkill });
    await appendFile(join(ui.home, '.hermes', 'config.yaml'), 'approvals:\n  file_edits: always\n');
    await mkdir(ui.workspace, { recursive: true });
    await writeFile(join(ui.workspace, 'notes.txt'), 'first line\nsecond line\n');
    token = (await ui.api('/api/embed/tokens', { origin: host.origin })).token;
  }, 120_000);
  afterAll(async () => {
    host?.server.close();
    await ui?.close();
  });

  it.each(THEMES)('chat, approval card, every panel, settings, share page and embed in %s', async (scheme) => {
    theme = scheme;
    await ui.api('/api/settings', { theme: scheme });
    const { page } = await ui.open('/');
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(scheme);
    await page.locator(hooks.composer).waitFor();
    const found: Finding[] = [];
    found.push(...(await audit(page, `${scheme} chat (empty)`)));

    // A transcript with a tool call, markdown and code, then an approval waiting for an answer.
    ui.model.enqueue(
      [{ toolCall: { id: `r-${scheme}`, name: 'read_file', args: { path: 'notes.txt' } } }],
      [{ text: 'It has **two lines**:\n\n```txt\nfirst line\nsecond line\n```\n\n- one\n- two\n\n[A link](https://example.com)' }],
    );
    await page.locator(hooks.composer).fill('What is in notes.txt?');
    await page.locator(hooks.send).click();
    await expect.poll(async () => deepText(page.locator(hooks.message('assistant')).last())).toContain('two lines');
    await idle(page);
    await page.locator(hooks.activity).first().waitFor();
    found.push(...(await audit(page, `${scheme} chat (transcript, tool call)`)));

    const patch = { mode: 'replace', path: 'notes.txt', old_string: 'first line', new_string: 'new line' };
    ui.model.enqueue([{ toolCall: { id: `p-${scheme}`, name: 'patch', args: patch } }], [{ text: 'Left it.' }]);
    await page.locator(hooks.composer).fill('Change the first line');
    await page.locator(hooks.send).click();
    const card = page.locator(hooks.approvalCard);
    await card.locator('[data-role="approval-diff"]').waitFor();
    found.push(...(await audit(page, `${scheme} chat (approval card)`)));
    await card.locator('[data-choice="deny"]').click();
    await idle(page);

    for (const name of PANELS) {
      await openPanel(page, name);
      found.push(...(await audit(page, `${scheme} panel ${name}`)));
    }
    await page.locator('[data-role="rail"] [data-role="rail-item"][data-panel="skills"]').click();
    await page.locator('[data-role="skill-row"][data-skill="deploy"]').click();
    await expect.poll(async () => deepText(page.locator('[data-role="panel"][data-panel="skills"]'))).toContain('release');
    found.push(...(await audit(page, `${scheme} panel skills (a skill open)`)));

    await page.locator('[data-role="rail"] [data-role="rail-item"][data-panel="settings"]').click();
    const dialog = page.locator(hooks.settings);
    await dialog.waitFor({ state: 'visible' });
    const sections = await dialog.locator('section').count();
    expect(sections).toBeGreaterThan(3);
    for (let i = 0; i < sections; i++) {
      const section = dialog.locator('section').nth(i);
      await section.scrollIntoViewIfNeeded();
      found.push(...(await audit(page, `${scheme} settings ${await section.locator('h3').textContent()}`)));
    }
    await page.keyboard.press('Escape');

    const sessionId = new URL(page.url()).pathname.split('/').pop() ?? '';
    const sessions = await ui.api('/api/sessions');
    const id = sessions.sessions.find((s: { session_id: string }) => s.session_id === sessionId)?.session_id ?? sessions.sessions[0].session_id;
    share = (await ui.api('/api/share/create', { session_id: id })).share.url;
    const shared = await page.context().newPage();
    await shared.emulateMedia({ colorScheme: scheme });
    await shared.goto(new URL(share, ui.server.url).href);
    found.push(...(await audit(shared, `${scheme} share page`)));

    const embed = await page.context().newPage();
    await embed.goto(`${host.origin}/`);
    await embed.locator(hooks.composer).waitFor();
    ui.model.enqueue([{ text: 'An **embedded** answer.' }]);
    await embed.locator(hooks.composer).fill('Hello from the host page');
    await embed.locator(hooks.send).click();
    await expect.poll(async () => deepText(embed.locator(hooks.message('assistant')).last())).toContain('embedded');
    await idle(embed);
    found.push(...(await audit(embed, `${scheme} embed`)));

    expect(found, report(found)).toEqual([]);
  });
});

describe('web app: accessibility of the first-run wizard', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi({ noConfig: true });
  }, 120_000);
  afterAll(async () => ui?.close());

  it.each(THEMES)('every wizard step has no serious or critical violation in %s', async (scheme) => {
    await ui.api('/api/settings', { theme: scheme });
    const { page } = await ui.open('/');
    const wizard = page.locator('[data-role="onboarding"]');
    await wizard.waitFor();
    await expect.poll(() => page.evaluate(() => document.documentElement.dataset.theme)).toBe(scheme);
    const found: Finding[] = [];
    found.push(...(await audit(page, `${scheme} onboarding welcome`)));
    await page.locator('[data-role="onboarding-next"]').click();
    await page.locator('[data-role="provider-option"]').first().waitFor();
    found.push(...(await audit(page, `${scheme} onboarding provider`)));
    await page.locator('[data-role="provider-option"][data-provider="custom"]').click();
    await page.locator('[data-role="probe"]').waitFor();
    found.push(...(await audit(page, `${scheme} onboarding connect`)));
    expect(found, report(found)).toEqual([]);
    // By keyboard: every control of the step shows where focus is.
    const walk = await tabWithoutRing(page, 20);
    expect(walk.seen).toBeGreaterThan(4);
    expect(walk.bare).toEqual([]);
  });
});

describe('web app: accessibility of the sign-in page', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi({ env: { HERMES_WEBUI_PASSWORD: 'a long enough password' } });
  }, 120_000);
  afterAll(async () => ui?.close());

  it.each(THEMES)('the login page, and its error, in %s', async (scheme) => {
    const { page } = await ui.open('/');
    await page.emulateMedia({ colorScheme: scheme });
    await page.evaluate((t) => localStorage.setItem('hermes:theme', t), scheme);
    await page.reload();
    const input = page.locator('hermes-login input[type="password"]');
    await input.waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(scheme);
    const found: Finding[] = [];
    found.push(...(await audit(page, `${scheme} login`)));
    await input.fill('wrong');
    await page.locator('hermes-login button[type="submit"]').click();
    await page.locator('hermes-login [role="alert"]').waitFor();
    found.push(...(await audit(page, `${scheme} login (error)`)));
    expect(found, report(found)).toEqual([]);
    const walk = await tabWithoutRing(page, 6);
    expect(walk.seen).toBeGreaterThan(0);
    expect(walk.bare).toEqual([]);
  });
});

/** Tabs `count` times; each focused element that shows no ring (outline or box-shadow) is named. */
async function tabWithoutRing(page: Page, count: number): Promise<{ seen: number; bare: string[] }> {
  const seen = new Set<string>();
  const bare: string[] = [];
  for (let i = 0; i < count; i++) {
    await page.keyboard.press('Tab');
    const focus = await page.evaluate(() => {
      // The focused element, through open shadow roots.
      let el = document.activeElement as HTMLElement | null;
      while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement as HTMLElement;
      if (!el || el === document.body) return null;
      const cs = getComputedStyle(el);
      const ring = (cs.outlineStyle !== 'none' && Number.parseFloat(cs.outlineWidth) > 0) || cs.boxShadow !== 'none';
      const label = el.getAttribute('aria-label');
      return { name: `${el.tagName.toLowerCase()}${el.dataset.role ? `[data-role=${el.dataset.role}]` : ''}${label ? `[aria-label=${label}]` : ''}`, ring };
    });
    if (!focus) continue;
    seen.add(focus.name);
    if (!focus.ring && !bare.includes(focus.name)) bare.push(focus.name);
  }
  return { seen: seen.size, bare };
}

/** Every animation and transition running longer than 0.01 s anywhere in the page (shadow roots included). */
function longMotion(): string[] {
  const slow = (list: string) => list.split(',').some((d) => Number.parseFloat(d) * (d.trim().endsWith('ms') ? 0.001 : 1) > 0.01);
  const found: string[] = [];
  const walk = (root: Document | ShadowRoot) => {
    for (const el of Array.from(root.querySelectorAll('*'))) {
      const cs = getComputedStyle(el);
      // No computed style (an element that is not rendered, e.g. in a <template>): nothing moves.
      if (!cs.animationName) continue;
      const animated = cs.animationName !== 'none' && (slow(cs.animationDuration) || cs.animationIterationCount !== '1');
      if (animated || slow(cs.transitionDuration)) {
        found.push(
          `${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''} animation ${cs.animationName} ${cs.animationDuration}×${cs.animationIterationCount} transition ${cs.transitionDuration}`,
        );
      }
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  return found;
}

/** The spinner's computed animation, wherever one is drawn. */
function spinners(): string[] {
  const out: string[] = [];
  const walk = (root: Document | ShadowRoot) => {
    for (const el of Array.from(root.querySelectorAll('*'))) {
      if (el.getAttribute('data-role') === 'spinner') {
        const cs = getComputedStyle(el);
        out.push(`${cs.animationName} ${cs.animationDuration}×${cs.animationIterationCount}`);
      }
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  return out;
}

describe('web app: keyboard focus and reduced motion', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi({ prepare: writeSkill });
  }, 120_000);
  afterAll(async () => ui?.close());

  it('every element Tab reaches on the chat, in each panel and in settings shows a focus ring', async () => {
    const { page } = await ui.open('/');
    await page.locator(hooks.composer).waitFor();
    const chat = await tabWithoutRing(page, 30);
    expect(chat.seen).toBeGreaterThan(8);
    const bare = [...chat.bare];
    for (const name of PANELS) {
      await openPanel(page, name);
      const walk = await tabWithoutRing(page, 15);
      expect(walk.seen, name).toBeGreaterThan(2);
      bare.push(...walk.bare.map((b) => `${name}: ${b}`));
    }
    await page.locator('[data-role="rail"] [data-role="rail-item"][data-panel="settings"]').click();
    await page.locator(hooks.settings).waitFor({ state: 'visible' });
    const settings = await tabWithoutRing(page, 40);
    expect(settings.seen).toBeGreaterThan(10);
    bare.push(...settings.bare.map((b) => `settings: ${b}`));
    expect(bare).toEqual([]);
  });

  it('with prefers-reduced-motion every animation and transition ends within 0.01 s, the spinner too', async () => {
    const { page } = await ui.open('/');
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.locator(hooks.composer).waitFor();
    ui.model.enqueue([{ delayMs: 2500 }, { text: 'Done waiting.' }]);
    await page.locator(hooks.composer).fill('Take your time');
    await page.locator(hooks.send).click();
    await page.locator('[data-role="waiting"]').waitFor();
    expect(await page.evaluate(spinners)).toContain('hermes-spin 0.01s×1');
    expect(await page.evaluate(longMotion)).toEqual([]);
    await idle(page);
    expect(await page.evaluate(longMotion)).toEqual([]);

    // Without the preference the same spinner turns (so the check above can fail).
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    ui.model.enqueue([{ delayMs: 2500 }, { text: 'Done again.' }]);
    await page.locator(hooks.composer).fill('Once more');
    await page.locator(hooks.send).click();
    await page.locator('[data-role="waiting"]').waitFor();
    expect(await page.evaluate(spinners)).toContain('hermes-spin 0.9s×infinite');
    expect((await page.evaluate(longMotion)).length).toBeGreaterThan(0);
    await idle(page);
  });
});
