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

  it("lists Hermes' own sessions read-only with their source, once asked to", async () => {
    const { page } = await ui.open('/');
    const enable = page.locator('[data-role="agent-sessions-enable"]');
    await expect.poll(() => enable.count()).toBe(1);
    await enable.click();
    const rows = page.locator('[data-role="agent-session-row"]');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await deepText(rows.nth(0))).toContain('Telegram');
    expect(await deepText(rows.nth(1))).toMatch(/CLI\s*Refactor the build script/);
    await rows.nth(1).click();
    const viewer = page.locator('[data-role="agent-session-viewer"]');
    await expect.poll(async () => deepText(viewer)).toContain('Done: it now uses set -eu.');
    expect(await deepText(viewer.locator('[data-role="read-only-note"]'))).toMatch(/Read-only: a CLI session/);
    expect(await viewer.locator(hooks.composer).count()).toBe(0);
    await ui.screenshot(page, 'hermes-sessions');
    await viewer.locator('[data-role="viewer-close"]').click();
    await expect.poll(() => page.locator('[data-role="agent-session-viewer"][open]').count()).toBe(0);
    // Nothing of it became a WebUI session.
    const ours = await ui.api('/api/sessions');
    expect(ours.sessions.map((s: any) => s.session_id)).not.toContain('20260727_135519_a55c71');
    await page.locator('[data-role="agent-sessions-hide"]').click();
    await expect.poll(() => rows.count()).toBe(0);
  });
});
