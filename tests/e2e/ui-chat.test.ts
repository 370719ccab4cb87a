import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';
import { startFlakyProxy } from '../helpers/flaky-proxy.js';

/** A person in Chromium, against the real server and a scripted model. */
describe('web app: chatting', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(async () => ui?.close());

  it('sends a message and watches the answer stream in, then finds it in the sidebar', async () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`);
    ui.model.enqueue(words.flatMap((w) => [{ text: `${w} ` }, { delayMs: 15 }]));
    const { page } = await ui.open('/');
    await page.locator(hooks.composer).fill('Tell me forty words');
    await page.locator(hooks.send).click();
    const assistant = page.locator(hooks.message('assistant')).last();
    // Mid-stream: part of the answer is visible and Stop is offered.
    await expect.poll(async () => (await deepText(assistant))?.includes('word5')).toBe(true);
    await expect.poll(() => page.locator(hooks.stop).count()).toBe(1);
    await expect.poll(async () => (await deepText(assistant))?.includes('word39')).toBe(true);
    await expect.poll(() => page.locator(hooks.send).count()).toBe(1);
    expect(await deepText(page.locator(hooks.message('user')).last())).toContain('Tell me forty words');
    expect(page.url()).toMatch(/\/session\/[0-9a-f]{12}$/);
    await expect.poll(() => page.locator(hooks.sessionRow).count()).toBeGreaterThan(0);
    await expect.poll(async () => (await deepText(page.locator(hooks.sessionRow).first())) ?? '').toContain('A scripted title');
    // The whole app runs under the strict Content-Security-Policy without a single report.
    expect(await page.evaluate(() => (window as any).__cspViolations)).toEqual([]);
    await ui.screenshot(page, 'chat-desktop');
  });

  it('shows a tool-using turn as one collapsed Activity row that expands to tool cards', async () => {
    ui.model.enqueue(
      [
        { text: 'Let me look.' },
        { toolCall: { id: 'a', name: 'write_file', args: { path: 'one.txt', content: '1' } } },
        { toolCall: { id: 'b', name: 'write_file', args: { path: 'two.txt', content: '2' } } },
      ],
      [{ toolCall: { id: 'c', name: 'read_file', args: { path: 'one.txt' } } }],
      [{ text: 'Done: both files exist.' }],
    );
    const { page } = await ui.open('/');
    await page.locator(hooks.composer).fill('make files');
    await page.locator(hooks.send).click();
    await expect.poll(async () => (await deepText(page.locator(hooks.message('assistant')).last()))?.includes('Done: both files exist.')).toBe(true);
    const activity = page.locator(hooks.activity);
    expect(await activity.count()).toBe(1);
    expect(await activity.getAttribute('data-open')).toBe('false');
    expect(await deepText(activity)).toMatch(/Activity: 3 tools/);
    expect(await page.locator(hooks.toolCard).count()).toBe(0);
    await activity.locator('summary, button').first().click();
    await expect.poll(() => activity.getAttribute('data-open')).toBe('true');
    await expect.poll(() => page.locator(hooks.toolCard).count()).toBe(3);
    expect(await readFile(join(ui.workspace, 'two.txt'), 'utf8')).toBe('2');
    await ui.screenshot(page, 'activity-expanded');
  });

  it('asks before a dangerous command: Allow once runs it, Deny does not', async () => {
    const { page } = await ui.open('/');
    for (const [choice, file] of [
      ['once', 'allowed'],
      ['deny', 'denied'],
    ] as const) {
      ui.model.enqueue(
        [{ toolCall: { id: `t-${choice}`, name: 'terminal', args: { command: `mkdir -p ${file}/x && rm -rf ${file}/x && touch ${file}.ran` } } }],
        [{ text: `answered ${choice}` }],
      );
      await page.locator(hooks.composer).fill(`please run it (${choice})`);
      await page.locator(hooks.send).click();
      const card = page.locator(hooks.approvalCard);
      await expect.poll(() => card.count()).toBe(1);
      expect(await deepText(card)).toContain(`rm -rf ${file}/x`);
      if (choice === 'once') await ui.screenshot(page, 'approval-card');
      await card.locator(`[data-choice="${choice}"]`).click();
      await expect.poll(async () => (await deepText(page.locator(hooks.message('assistant')).last()))?.includes(`answered ${choice}`)).toBe(true);
      expect(await card.count()).toBe(0);
    }
    await expect(readFile(join(ui.workspace, 'allowed.ran'), 'utf8')).resolves.toBe('');
    await expect(readFile(join(ui.workspace, 'denied.ran'), 'utf8')).rejects.toThrow();
  });

  it('answers a clarifying question from its card', async () => {
    ui.model.enqueue([{ toolCall: { id: 'q', name: 'clarify', args: { question: 'Which colour?', choices: ['red', 'blue'] } } }], [{ text: 'Blue, then.' }]);
    const { page } = await ui.open('/');
    await page.locator(hooks.composer).fill('paint');
    await page.locator(hooks.send).click();
    const card = page.locator(hooks.clarifyCard);
    await expect.poll(() => card.count()).toBe(1);
    expect(await deepText(card)).toContain('Which colour?');
    await card.getByRole('button', { name: 'blue' }).click();
    await expect.poll(async () => (await deepText(page.locator(hooks.message('assistant')).last()))?.includes('Blue, then.')).toBe(true);
    const sent = ui.model.requests.map((r) => r.body).filter((b) => b.messages?.some((m: any) => m.role === 'tool' && m.tool_call_id === 'q'));
    expect(sent.at(-1).messages.find((m: any) => m.tool_call_id === 'q').content).toContain('blue');
  });

  it('reloading mid-stream shows the complete answer exactly once', async () => {
    const words = Array.from({ length: 60 }, (_, i) => `tok${i}`);
    ui.model.enqueue(words.flatMap((w) => [{ text: `${w} ` }, { delayMs: 20 }]));
    const { page } = await ui.open('/');
    await page.locator(hooks.composer).fill('stream sixty');
    await page.locator(hooks.send).click();
    const assistant = () => page.locator(hooks.message('assistant')).last();
    await expect.poll(async () => (await deepText(assistant()))?.includes('tok10')).toBe(true);
    await page.reload();
    await expect.poll(async () => (await deepText(assistant()))?.includes('tok59'), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => page.locator(hooks.send).count()).toBe(1);
    const text = (await deepText(assistant())) ?? '';
    for (const w of words) expect(text.split(w + ' ').length - 1, w).toBe(1);
    expect(await page.locator(hooks.message('assistant')).count()).toBe(1);
  });

  it('renders markdown, code and math, and scripted XSS does not execute', async () => {
    const answer = [
      '## Result',
      '',
      '| a | b |',
      '|---|---|',
      '| 1 | 2 |',
      '',
      '```python',
      'print("hi")',
      '```',
      '',
      'Euler: $e^{i\\pi} + 1 = 0$ and $$\\int_0^1 x\\,dx = \\tfrac12$$',
      '',
      '<img src=x onerror="window.__xss = 1"> <script>window.__xss = 2</script> [click](javascript:window.__xss=3)',
    ].join('\n');
    ui.model.enqueue([{ text: answer }]);
    const { page } = await ui.open('/');
    await page.locator(hooks.composer).fill('show me');
    await page.locator(hooks.send).click();
    const assistant = page.locator(hooks.message('assistant')).last();
    await expect.poll(() => assistant.locator('table').count()).toBe(1);
    await expect.poll(() => assistant.locator('.katex').count(), { timeout: 10_000 }).toBeGreaterThan(1);
    expect(await deepText(assistant.locator('pre code'))).toContain('print("hi")');
    expect(await deepText(assistant)).toMatch(/python/i);
    await assistant
      .getByText('click')
      // The sanitizer may leave no link to click; Playwright's default 30 s wait would be the test's whole budget.
      .click({ timeout: 2_000 })
      .catch(() => {});
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => (window as any).__xss)).toBeUndefined();
    // KaTeX (fonts, styles), highlight.js and the app itself run under the strict policy. The
    // only reports are the scripted onerror attributes, refused while the sanitizer parses them
    // (the policy blocking the very XSS above: nothing ran).
    const violations: string[] = await page.evaluate(() => (window as any).__cspViolations);
    expect(violations.filter((v) => !v.startsWith('script-src-attr'))).toEqual([]);
    expect((await page.goto(page.url()))!.headers()['content-security-policy']).toContain("script-src 'self'");
    await ui.screenshot(page, 'markdown-math');
  });
});

describe('web app: a dropped connection', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi();
  });
  afterAll(async () => ui?.close());

  it('says it is reconnecting while offline, then resumes without losing or repeating text', async () => {
    const words = Array.from({ length: 80 }, (_, i) => `piece${i}`);
    ui.model.enqueue(words.flatMap((w) => [{ text: `${w} ` }, { delayMs: 25 }]));
    const proxy = await startFlakyProxy(new URL(ui.server.url));
    const context = await ui.browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(proxy.url + '/');
    await page.locator(hooks.composer).fill('keep talking');
    await page.locator(hooks.send).click();
    const assistant = () => page.locator(hooks.message('assistant')).last();
    await expect.poll(async () => (await deepText(assistant())).includes('piece8')).toBe(true);
    proxy.cut();
    await expect.poll(() => page.locator('[data-role="reconnecting"]').count(), { timeout: 15_000 }).toBe(1);
    await ui.screenshot(page, 'reconnecting');
    await page.waitForTimeout(800);
    proxy.restore();
    await expect.poll(async () => (await deepText(assistant())).includes('piece79'), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => page.locator('[data-role="reconnecting"]').count()).toBe(0);
    await expect.poll(() => page.locator(hooks.send).count()).toBe(1);
    const text = await deepText(assistant());
    for (const w of words) expect(text.split(w + ' ').length - 1, w).toBe(1);
    await context.close();
    await proxy.close();
  });
});
