import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';
import { startHermesGateway, type FakeGateway } from '../fixtures/hermes-gateway.js';
import { sampleSessions, writeStateDb } from '../fixtures/hermes-state-db.js';
import { join } from 'node:path';

/**
 * A person in Chromium, against the real server started with HERMES_WEBUI_CHAT_BACKEND=gateway
 * and a scripted Hermes Agent API server: the same chat, Activity rows, approval card and Stop
 * as with the builtin agent, plus the quiet note saying which path is in use.
 */
describe('web app: driving a Hermes Agent gateway', () => {
  let ui: UiHarness;
  let gw: FakeGateway;
  beforeAll(async () => {
    gw = await startHermesGateway({ apiKey: 'gw-e2e-key-123' });
    ui = await startUi({
      // Hermes' own sessions, next to the WebUI's state dir ($HERMES_HOME/state.db).
      prepare: async (stateDir) => writeStateDb(join(stateDir, '..', 'state.db'), sampleSessions()),
      env: {
        HERMES_WEBUI_CHAT_BACKEND: 'gateway',
        HERMES_WEBUI_GATEWAY_BASE_URL: gw.url,
        HERMES_WEBUI_GATEWAY_API_KEY: 'gw-e2e-key-123',
        HERMES_WEBUI_GATEWAY_READ_TIMEOUT: '20',
      },
    });
  });
  afterAll(async () => {
    await ui?.close();
    await gw?.close();
  });

  const lastAssistant = (page: import('playwright-core').Page) => page.locator(hooks.message('assistant')).last();

  it('streams the answer and says quietly which path is in use', async () => {
    const words = Array.from({ length: 30 }, (_, i) => `w${i}`);
    gw.enqueue({ steps: words.flatMap((w) => [{ delta: `${w} ` }, { delayMs: 15 }]) });
    const { page } = await ui.open('/');
    const badge = page.locator('[data-role="agent-badge"]');
    await expect.poll(async () => (await badge.count()) && (await deepText(badge))).toContain('Hermes Agent · runs API');
    await page.locator(hooks.composer).fill('Count for me');
    await page.locator(hooks.send).click();
    await expect.poll(async () => (await deepText(lastAssistant(page))).includes('w5')).toBe(true);
    await expect.poll(() => page.locator(hooks.stop).count()).toBe(1);
    await expect.poll(async () => (await deepText(lastAssistant(page))).includes('w29')).toBe(true);
    await expect.poll(() => page.locator(hooks.send).count()).toBe(1);
    expect(gw.runBodies.at(-1)).toMatchObject({ input: 'Count for me' });
    // What this path cannot do, one click away.
    await badge.click();
    await expect.poll(async () => deepText(page.locator('[data-role="agent-details"]'))).toMatch(/Clarifying questions are not available/);
    await ui.screenshot(page, 'gateway-chat');
    expect(await page.evaluate(() => (window as any).__cspViolations)).toEqual([]);
  });

  it("shows Hermes' tool events as one Activity row of tool cards", async () => {
    gw.enqueue({
      steps: [
        { delta: 'Looking.' },
        { tool: 'terminal', preview: 'ls -la', duration: 0.2 },
        { tool: 'read_file', preview: 'README.md' },
        { delta: ' Done: two tools.' },
      ],
    });
    const { page } = await ui.open('/');
    await page.locator(hooks.composer).fill('look around');
    await page.locator(hooks.send).click();
    await expect.poll(async () => (await deepText(lastAssistant(page))).includes('Done: two tools.')).toBe(true);
    const activity = page.locator(hooks.activity);
    await expect.poll(() => activity.count()).toBe(1);
    expect(await deepText(activity)).toMatch(/Activity: 2 tools/);
    await activity.locator('summary, button').first().click();
    await expect.poll(() => page.locator(hooks.toolCard).count()).toBe(2);
    expect(await deepText(page.locator(hooks.toolCard).first())).toContain('ls -la');
    // After a reload the stored transcript shows the same.
    await page.reload();
    await expect.poll(async () => (await deepText(lastAssistant(page))).includes('Done: two tools.')).toBe(true);
    await expect.poll(async () => deepText(page.locator(hooks.activity))).toMatch(/Activity: 2 tools/);
  });

  it('asks through the approval card: Allow once and Deny reach Hermes', async () => {
    const { page } = await ui.open('/');
    for (const choice of ['once', 'deny'] as const) {
      gw.enqueue({ steps: [{ approval: { command: `rm -rf build-${choice}/`, description: 'recursive delete' } }, { delta: `answered ${choice}` }] });
      await page.locator(hooks.composer).fill(`clean (${choice})`);
      await page.locator(hooks.send).click();
      const card = page.locator(hooks.approvalCard);
      await expect.poll(() => card.count()).toBe(1);
      expect(await deepText(card)).toContain(`rm -rf build-${choice}/`);
      if (choice === 'once') await ui.screenshot(page, 'gateway-approval');
      await card.locator(`[data-choice="${choice}"]`).click();
      await expect.poll(async () => (await deepText(lastAssistant(page))).includes(`answered ${choice}`)).toBe(true);
      await expect.poll(() => card.count()).toBe(0);
    }
    expect(gw.approvals.slice(-2).map((a) => a.body.choice)).toEqual(['once', 'deny']);
  });

  it('Stop stops the Hermes run and keeps what was said', async () => {
    gw.enqueue({ steps: [{ delta: 'I will take a while' }, { hang: true }] });
    const { page } = await ui.open('/');
    await page.locator(hooks.composer).fill('long job');
    await page.locator(hooks.send).click();
    await expect.poll(async () => (await deepText(lastAssistant(page))).includes('I will take a while')).toBe(true);
    const before = gw.stops.length;
    await page.locator(hooks.stop).click();
    await expect.poll(() => gw.stops.length).toBe(before + 1);
    await expect.poll(() => page.locator(hooks.send).count()).toBe(1);
    expect(await deepText(lastAssistant(page))).toContain('I will take a while');
  });

  it('a gateway error shows as an error with its hint', async () => {
    gw.enqueue({ steps: [], status: 429, body: { error: { message: 'Too many concurrent runs', code: 'rate_limit_exceeded' } } });
    const { page } = await ui.open('/');
    await page.locator(hooks.composer).fill('one more');
    await page.locator(hooks.send).click();
    await expect.poll(async () => deepText(lastAssistant(page))).toMatch(/max_concurrent_runs/);
  });

  it('falls back to chat completions when the runs API is not offered', async () => {
    gw.configure({ runs: false });
    await ui.api('/api/agent?refresh=1');
    gw.enqueue({ steps: [{ delta: 'Over ' }, { delayMs: 20 }, { delta: 'chat completions.' }] });
    const { page } = await ui.open('/');
    await expect.poll(async () => deepText(page.locator('[data-role="agent-badge"]'))).toContain('Hermes Agent · chat completions');
    await page.locator(hooks.composer).fill('which path?');
    await page.locator(hooks.send).click();
    await expect.poll(async () => (await deepText(lastAssistant(page))).includes('Over chat completions.')).toBe(true);
    expect(gw.chats.at(-1)!.body.messages.at(-1)).toEqual({ role: 'user', content: 'which path?' });
    await page.locator('[data-role="agent-badge"]').click();
    await expect.poll(async () => deepText(page.locator('[data-role="agent-details"]'))).toMatch(/No approval prompts on this path/);
    await ui.screenshot(page, 'gateway-fallback');
    gw.configure({ runs: true });
  });

  it("lists Hermes' own sessions in the one sidebar with their source; a Telegram one opens, is imported and continued", async () => {
    await ui.api('/api/settings', { show_cli_sessions: true });
    const { page } = await ui.open('/');
    const rows = page.locator(hooks.sessionRow);
    const telegram = rows.filter({ hasText: 'What is on my calendar today?' });
    await expect.poll(() => telegram.count()).toBe(1);
    expect(await deepText(telegram.locator('[data-role="source-badge"]'))).toBe('Telegram');
    expect(await deepText(rows.filter({ hasText: 'Refactor the build script' }).locator('[data-role="source-badge"]'))).toBe('CLI');
    // Subagent and tool runs stay out; the separate list is gone.
    expect(await rows.filter({ hasText: 'delegated research' }).count()).toBe(0);
    expect(await page.locator('hermes-agent-sessions').count()).toBe(0);
    await telegram.locator('a').first().click();
    await expect.poll(async () => deepText(lastAssistant(page))).toContain('Two meetings: 10:00 and 15:00.');
    const importButton = page.locator('[data-role="import-cli"]');
    await expect.poll(() => importButton.count()).toBe(1);
    expect(await page.locator(hooks.composer).isDisabled()).toBe(true);
    await ui.screenshot(page, 'hermes-sessions');
    await importButton.click();
    await expect.poll(() => importButton.count()).toBe(0);
    gw.enqueue({ steps: [{ delta: 'Moved the 15:00 meeting.' }] });
    await page.locator(hooks.composer).fill('Move the afternoon one');
    await page.locator(hooks.send).click();
    await expect.poll(async () => deepText(lastAssistant(page))).toContain('Moved the 15:00 meeting.');
    // The answer streams before the turn is stored (at its end): wait for the turn to end.
    const storedSession = async () => (await ui.api('/api/session?session_id=20260727_160000_b11111')).session;
    await expect.poll(async () => (await storedSession()).active_stream_id ?? null).toBeNull();
    const stored = await storedSession();
    expect(stored.read_only).toBeUndefined();
    expect(stored.messages.map((m: any) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    // Listed once, as ours now, keeping its badge.
    const listed = (await ui.api('/api/sessions')).sessions.filter((s: any) => s.session_id === '20260727_160000_b11111');
    expect(listed).toHaveLength(1);
    expect(listed[0].source_label).toBe('Telegram');
    await ui.api('/api/settings', { show_cli_sessions: false });
  });
});
