import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepText, hooks, openPanel, PANELS, startUi, type UiHarness } from '../helpers/browser.js';

/**
 * What is not the app's to translate: what the test wrote (a message, a skill and its category,
 * a file), the workspace folder's name, Hermes' file and profile names, brand (providers too), format and key
 * names, a placeholder example and the type sample of the font row.
 */
const DATA = [
  'Tell me about the release',
  'The release is on Friday.',
  'A scripted title',
  'scripted-model',
  'Ship the app to production',
  'deploy',
  'devops',
  'notes.txt',
  'workspace',
  'MEMORY.md',
  'USER.md',
  'SOUL.md',
  'default',
  'work',
  'Hermes Agent',
  'OpenRouter',
  'Anthropic',
  'OpenAI',
  'Ollama',
  'LM Studio',
  'Hermes',
  'MCP',
  'Markdown',
  'JSON',
  'Ctrl+Enter',
  'Enter',
  'Aa',
];
/** Values in a shape of their own: paths, URLs, environment variable names, and dates and weekdays (Intl speaks English for en-XA). */
const DATA_SHAPES = [
  /(?:^|\s)\/[\w./-]+/g,
  /https?:\/\/\S+/g,
  /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/g,
  /\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}, \d{4}\b/g,
  /\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)\b/g,
];

interface Finding {
  screen: string;
  text: string;
  where: string;
}

/**
 * Every visible text and labelling attribute with Latin letters outside a pseudo-locale message
 * (⟦…⟧): English the layer never saw. Text inside a message's brackets (a value set in markup, such
 * as a file name in <code>) is the message's own.
 */
async function untranslated(page: Page, screen: string, data: readonly string[]): Promise<Finding[]> {
  const found = await page.evaluate(() => {
    const out: { text: string; where: string }[] = [];
    let depth = 0;
    const describe = (el: Element | null) =>
      el ? `${el.tagName.toLowerCase()}${el.getAttribute('data-role') ? `[data-role=${el.getAttribute('data-role')}]` : ''}` : '?';
    const outside = (text: string) => {
      let rest = '';
      for (const ch of text) {
        if (ch === '⟦') depth++;
        else if (ch === '⟧') depth = Math.max(0, depth - 1);
        else if (depth === 0) rest += ch;
      }
      return rest;
    };
    const walk = (root: Node) => {
      for (const node of Array.from(root.childNodes)) {
        if (node.nodeType === Node.TEXT_NODE) {
          const parent = node.parentElement;
          const rest = outside(node.textContent ?? '');
          if (parent && /[A-Za-z]{2,}/.test(rest) && parent.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions))
            out.push({ text: rest.trim(), where: describe(parent) });
          continue;
        }
        if (node.nodeType !== Node.ELEMENT_NODE) continue;
        const el = node as Element;
        if (['STYLE', 'SCRIPT', 'TEMPLATE', 'PRE', 'CODE', 'TEXTAREA'].includes(el.tagName)) continue;
        for (const attr of ['aria-label', 'title', 'placeholder', 'alt']) {
          const value = el.getAttribute(attr);
          if (value && /[A-Za-z]{2,}/.test(value.replace(/⟦[^⟧]*⟧/g, '')) && el.checkVisibility()) out.push({ text: value, where: `${describe(el)} @${attr}` });
        }
        if (el.shadowRoot) walk(el.shadowRoot);
        walk(el);
      }
    };
    walk(document.body);
    return out;
  });
  const isData = (text: string) => {
    let rest = text;
    for (const shape of DATA_SHAPES) rest = rest.replace(shape, ' ');
    for (const d of [...data].sort((x, y) => y.length - x.length)) rest = rest.split(d).join(' ');
    return !/[A-Za-z]{2,}/.test(rest.replace(/⟦[^⟧]*⟧/g, ' '));
  };
  const seen = new Set<string>();
  // One line per text and place: the settings dialog shows every section at once.
  return found.filter((f) => !isData(f.text) && !seen.has(`${f.text} ${f.where}`) && seen.add(`${f.text} ${f.where}`)).map((f) => ({ ...f, screen }));
}

const report = (found: Finding[]) => found.map((f) => `${f.screen}: ${JSON.stringify(f.text)} (${f.where})`).join('\n');

/** The main screens in the pseudo-locale en-XA: every word of the app bracketed and accented, none left in English. */
describe('web app: the pseudo-locale leaves no English on the main screens', () => {
  let ui: UiHarness;

  beforeAll(async () => {
    ui = await startUi({
      env: { HERMES_WEBUI_SKIP_ONBOARDING: '1' },
      prepare: async (stateDir) => {
        const dir = join(stateDir, '..', 'skills', 'devops', 'deploy');
        await mkdir(dir, { recursive: true });
        await writeFile(join(dir, 'SKILL.md'), '---\nname: deploy\ndescription: Ship the app to production\n---\n# Deploy\n');
      },
    });
    await mkdir(ui.workspace, { recursive: true });
    await writeFile(join(ui.workspace, 'notes.txt'), 'first line\n');
    await ui.api('/api/settings', { language: 'en-XA' });
  }, 120_000);
  afterAll(async () => {
    await ui?.close();
  });

  it('chat, a finished turn, every panel, each settings section and the workspace panel', async () => {
    const { page } = await ui.open('/');
    await page.locator(hooks.composer).waitFor();
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('en-XA');
    const found: Finding[] = [];
    found.push(...(await untranslated(page, 'chat (empty)', DATA)));
    await ui.screenshot(page, 'pseudo-chat-empty');

    ui.model.enqueue([{ text: 'The release is on Friday.' }]);
    await page.locator(hooks.composer).fill('Tell me about the release');
    await page.locator(hooks.send).click();
    await page.locator(hooks.message('assistant')).first().waitFor();
    await expect.poll(() => page.locator(hooks.send).count()).toBe(1);
    await expect.poll(() => deepText(page.locator(hooks.message('assistant')).first())).toContain('The release is on Friday.');
    found.push(...(await untranslated(page, 'chat (a finished turn)', DATA)));
    await ui.screenshot(page, 'pseudo-chat-turn');

    for (const name of PANELS) {
      await openPanel(page, name);
      found.push(...(await untranslated(page, `panel ${name}`, DATA)));
      await ui.screenshot(page, `pseudo-panel-${name}`);
    }

    await page.locator('[data-role="rail"] [data-role="rail-item"][data-panel="settings"]').click();
    const dialog = page.locator(hooks.settings);
    await dialog.waitFor({ state: 'visible' });
    const sections = await dialog.locator('section').count();
    expect(sections).toBeGreaterThan(3);
    for (let i = 0; i < sections; i++) {
      await dialog.locator('section').nth(i).scrollIntoViewIfNeeded();
      found.push(...(await untranslated(page, `settings section ${i + 1}`, DATA)));
    }
    await ui.screenshot(page, 'pseudo-settings');
    await page.keyboard.press('Escape');

    // The chat again, with the workspace panel and its file tree.
    await page.locator('[data-role="rail"] [data-role="rail-item"][data-panel="chat"]').click();
    await page.locator('hermes-app .topbar button[aria-pressed]').first().click();
    const files = page.locator(hooks.workspacePanel);
    await files.waitFor({ state: 'visible' });
    await expect.poll(() => deepText(files)).toContain('notes.txt');
    found.push(...(await untranslated(page, 'workspace panel', DATA)));
    await ui.screenshot(page, 'pseudo-workspace');

    expect(report(found)).toBe('');
  }, 120_000);
});

/** The remembered language, as the app keeps it, for a page that cannot read the settings yet. */
async function rememberPseudo(page: Page) {
  await page.evaluate(() => localStorage.setItem('hermes:language', JSON.stringify({ setting: 'en-XA', code: 'en-XA', dir: 'ltr' })));
  await page.reload();
}

describe('web app: the pseudo-locale on the first-run wizard and the sign-in page', () => {
  let wizard: UiHarness;
  let guarded: UiHarness;
  beforeAll(async () => {
    [wizard, guarded] = await Promise.all([startUi({ noConfig: true }), startUi({ env: { HERMES_WEBUI_PASSWORD: 'a long enough password' } })]);
  }, 120_000);
  afterAll(async () => {
    await Promise.all([wizard?.close(), guarded?.close()]);
  });

  it('every step of the wizard', async () => {
    await wizard.api('/api/settings', { language: 'en-XA' });
    const { page } = await wizard.open('/');
    await page.locator('[data-role="onboarding"]').waitFor();
    const found: Finding[] = [];
    found.push(...(await untranslated(page, 'onboarding welcome', DATA)));
    await page.locator('[data-role="onboarding-next"]').click();
    await page.locator('[data-role="provider-option"]').first().waitFor();
    found.push(...(await untranslated(page, 'onboarding provider', DATA)));
    await wizard.screenshot(page, 'pseudo-onboarding-provider');
    await page.locator('[data-role="provider-option"][data-provider="custom"]').click();
    await page.locator('[data-role="probe"]').waitFor();
    found.push(...(await untranslated(page, 'onboarding connect', DATA)));
    expect(report(found)).toBe('');
  });

  it('the sign-in page and its error', async () => {
    const { page } = await guarded.open('/');
    await rememberPseudo(page);
    const input = page.locator('hermes-login input[type="password"]');
    await input.waitFor();
    const found: Finding[] = [];
    found.push(...(await untranslated(page, 'login', DATA)));
    await input.fill('wrong');
    await page.locator('hermes-login button[type="submit"]').click();
    await page.locator('hermes-login [role="alert"]').waitFor();
    found.push(...(await untranslated(page, 'login (error)', DATA)));
    await guarded.screenshot(page, 'pseudo-login');
    expect(report(found)).toBe('');
  });
});
