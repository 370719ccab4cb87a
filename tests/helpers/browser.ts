import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { machine, requireBrowser } from '../../scripts/test-tools/find-browser.mjs';
import { childrenOf } from '../../scripts/test-tools/processes.mjs';
import { startServer, type RunningServer } from './server.js';
import { startScriptedOpenAI, type ScriptedServer } from '../fixtures/scripted-openai.js';
import type { ScriptedAudio } from '../fixtures/scripted-openai-audio.js';
import { isTitleRequest } from './chat.js';
import { expect } from 'vitest';
import { track } from './processes.js';

export const SCREENSHOTS = join(import.meta.dirname, '..', '..', 'test-results', 'screenshots');

let executable: Promise<string> | undefined;
/** The browser `npm test` passed as CHROMIUM_PATH, or the same lookup (no installing): never a skip. */
export function chromiumPath(): Promise<string> {
  return (executable ??= machine().then(requireBrowser));
}

/** `args`: more Chromium switches (e.g. its fake microphone). */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  const executablePath = await chromiumPath();
  const before = new Set(childrenOf(process.pid));
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', ...extraArgs],
  });
  // Playwright runs it as this process's child, leading its own process group (renderers, GPU and
  // zygote in it); its Browser object does not expose the pid: it is the child that was not there before.
  for (const pid of childrenOf(process.pid)) {
    if (!before.has(pid)) track({ pid }, 'Chromium', { group: true });
  }
  return browser;
}

/** Runs every step even when one throws (a failed close must not leave the rest running), then throws the first error. */
export async function stopAll(...steps: Array<(() => unknown) | undefined>): Promise<void> {
  let first: unknown;
  for (const step of steps) {
    try {
      await step?.();
    } catch (err) {
      first ??= err;
    }
  }
  if (first !== undefined) throw first;
}

export interface UiHarness {
  browser: Browser;
  server: RunningServer;
  model: ScriptedServer & { audio: ScriptedAudio };
  home: string;
  stateDir: string;
  workspace: string;
  /** A fresh browser context (its own storage) and page, at `path`. */
  open(path?: string, options?: { viewport?: { width: number; height: number }; isMobile?: boolean }): Promise<{ context: BrowserContext; page: Page }>;
  api(path: string, body?: unknown): Promise<any>;
  screenshot(page: Page, name: string): Promise<string>;
  close(): Promise<void>;
}

/** The real server (built, as `npm start` runs it), a scripted model, and Chromium. */
export async function startUi(
  options: {
    prepare?: (stateDir: string) => Promise<void>;
    env?: Record<string, string> /** A fresh install: no config.yaml (the first-run wizard shows). */;
    noConfig?: boolean;
    /** More Chromium switches. */
    browserArgs?: string[];
  } = {},
): Promise<UiHarness> {
  const home = await mkdtemp(join(tmpdir(), 'hermes-ui-'));
  const hermes = join(home, '.hermes');
  const stateDir = join(hermes, 'webui');
  let model: (ScriptedServer & { audio: ScriptedAudio }) | undefined;
  let server: RunningServer | undefined;
  let browser: Browser;
  try {
    await mkdir(stateDir, { recursive: true });
    await options.prepare?.(stateDir);
    model = await startScriptedOpenAI();
    model.setRouter((req) => (isTitleRequest(req) ? [{ text: 'A scripted title' }] : undefined));
    if (!options.noConfig) await writeFile(join(hermes, 'config.yaml'), `model:\n  default: scripted-model\n  provider: custom\n  base_url: ${model.url}\n`);
    server = await startServer({ HOME: home, HERMES_HOME: hermes, ...options.env });
    browser = await launchBrowser(options.browserArgs);
  } catch (err) {
    // No browser, a server that would not start: what did start is stopped before the error goes up.
    await stopAll(
      () => server?.stop('SIGKILL'),
      () => model?.close(),
      () => rm(home, { recursive: true, force: true }),
    ).catch(() => {});
    throw err;
  }
  const contexts: BrowserContext[] = [];
  await mkdir(SCREENSHOTS, { recursive: true });
  return {
    browser,
    server,
    model,
    home,
    stateDir,
    workspace: join(stateDir, 'workspace'),
    async open(path = '/', o = {}) {
      const context = await browser.newContext({
        viewport: o.viewport ?? { width: 1280, height: 800 },
        isMobile: o.isMobile ?? false,
        hasTouch: o.isMobile ?? false,
      });
      contexts.push(context);
      const page = await context.newPage();
      // A stuck action fails naming its locator instead of silently using up the test's whole budget.
      page.setDefaultTimeout(15_000);
      page.on('pageerror', (err) => console.error('[pageerror]', err.message));
      // Every Content-Security-Policy violation the page meets, for tests to assert none.
      await page.addInitScript(() => {
        (window as any).__cspViolations = [];
        document.addEventListener('securitypolicyviolation', (e) =>
          (window as any).__cspViolations.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber} ${e.sample}`),
        );
      });
      await page.goto(server.url + path);
      return { context, page };
    },
    async api(path, body) {
      const res = await fetch(
        server.url + path,
        body === undefined ? {} : { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } },
      );
      return res.json();
    },
    async screenshot(page, name) {
      const file = join(SCREENSHOTS, `${name}.png`);
      await page.screenshot({ path: file });
      return file;
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => {});
      await stopAll(
        () => browser.close(),
        () => server.stop('SIGKILL'),
        () => model.close(),
        () => rm(home, { recursive: true, force: true }),
      );
    },
  };
}

/** Locators pierce open shadow roots in Playwright; these are the app's stable hooks. */
export const hooks = {
  composer: '[data-role="composer-input"]',
  send: '[data-role="send"]',
  stop: '[data-role="stop"]',
  newChat: '[data-role="new-chat"]',
  sessionRow: '[data-role="session-row"]',
  message: (role: 'user' | 'assistant') => `[data-role="message"][data-message-role="${role}"]`,
  activity: '[data-role="activity"]',
  toolCard: '[data-role="tool-card"]',
  approvalCard: '[data-role="approval-card"]',
  clarifyCard: '[data-role="clarify-card"]',
  workspacePanel: '[data-role="workspace-panel"]',
  settings: '[data-role="settings"]',
};

/**
 * The text a person sees in an element, through every open shadow root (Playwright's
 * textContent stops at the first one: the markdown lives in a nested shadow root).
 */
export async function deepText(locator: import('playwright-core').Locator): Promise<string> {
  if ((await locator.count()) === 0) return '';
  return locator.evaluate((root) => {
    const parts: string[] = [];
    const walk = (node: Node) => {
      if (node.nodeType === Node.TEXT_NODE) parts.push(node.textContent ?? '');
      const el = node as Element;
      if (el.shadowRoot) walk(el.shadowRoot);
      for (const child of Array.from(node.childNodes)) walk(child);
    };
    walk(root);
    return parts.join('');
  });
}

/** The control center's panels, in rail order. */
export const PANELS = ['tasks', 'skills', 'memory', 'todos', 'insights', 'profiles', 'logs'] as const;

/** Opens a control-center panel from the rail and waits until it has loaded (its busy mark gone). */
export async function openPanel(page: import('playwright-core').Page, name: string) {
  await page.locator(`[data-role="rail"] [data-role="rail-item"][data-panel="${name}"]`).click();
  const panel = page.locator(`[data-role="panel"][data-panel="${name}"]`);
  await panel.waitFor({ state: 'visible' });
  await expect.poll(() => panel.locator('[aria-busy="true"]').count()).toBe(0);
  return panel;
}
