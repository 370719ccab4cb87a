import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';
import { startHttpMcpServer, type HttpMcpFixture } from '../fixtures/mcp-servers.js';

/**
 * A person in Chromium managing MCP servers in Settings: adds an HTTP server, sees it start
 * with the next message (status and tool count), edits it (the masked header keeps its value),
 * turns it off and on, and removes it; config.yaml follows each step.
 */
describe('web app: Settings → MCP servers', () => {
  let ui: UiHarness;
  let mcp: HttpMcpFixture;
  beforeAll(async () => {
    mcp = await startHttpMcpServer({ requireAuth: 'Bearer e2e-token', label: 'e2e' });
    ui = await startUi();
  });
  afterAll(async () => {
    await ui?.close();
    await mcp?.close();
  });

  const config = async () => parseYaml(await readFile(join(ui.home, '.hermes', 'config.yaml'), 'utf8'));

  it('add, status after a turn, edit, disable/enable, remove', async () => {
    const { page } = await ui.open('/');
    await page.locator(hooks.composer).waitFor();
    const openSettings = async () => {
      await page.locator('[data-role="open-settings"]').click();
      await page.locator(`${hooks.settings} input[type="search"]`).fill('mcp');
      await page.locator('[data-setting="mcp_servers"]').waitFor();
    };
    await openSettings();
    await expect.poll(async () => deepText(page.locator('[data-role="mcp-servers"]'))).toContain('No MCP servers yet.');

    // Add an HTTP server.
    await page.locator('[data-action="add-mcp"]').click();
    await page.locator('#mcp-name').fill('fixture');
    await page.locator('hermes-mcp-server-form input[value="http"]').check();
    await page.locator('#mcp-url').fill(mcp.url);
    await page.locator('#mcp-headers').fill('Authorization: Bearer e2e-token');
    await page.locator('[data-action="save-mcp"]').click();
    const row = page.locator('li[data-server="fixture"]');
    await row.waitFor();
    expect(await deepText(row.locator('[data-role="mcp-status"]'))).toContain('Not started yet');
    expect((await config()).mcp_servers).toEqual({ fixture: { url: mcp.url, headers: { Authorization: 'Bearer e2e-token' } } });
    await ui.screenshot(page, 'settings-mcp-added');

    // The next message starts it; the list then says so.
    await page.keyboard.press('Escape');
    ui.model.enqueue([{ text: 'Hello with MCP.' }]);
    await page.locator(hooks.composer).fill('hi');
    await page.locator(hooks.send).click();
    await expect.poll(async () => deepText(page.locator(hooks.message('assistant')).last()), { timeout: 15_000 }).toContain('Hello with MCP.');
    const turn = ui.model.requests.findLast((r) => Array.isArray(r.body?.tools));
    const offered = turn?.body.tools.map((t: any) => t.function.name) ?? [];
    expect(offered).toContain('mcp__fixture__echo');
    await openSettings();
    await expect.poll(async () => deepText(row.locator('[data-role="mcp-status"]'))).toContain('Connected · 6 tools');
    expect(await row.getAttribute('data-status')).toBe('active');
    await ui.screenshot(page, 'settings-mcp-connected');

    // Edit: the header shows masked and is sent back masked; the stored token survives.
    await row.locator('[data-action="edit"]').click();
    expect(await page.locator('#mcp-headers').inputValue()).toBe('Authorization: ••••••');
    await page.locator('#mcp-timeout').fill('45');
    await page.locator('[data-action="save-mcp"]').click();
    await expect.poll(async () => (await config()).mcp_servers.fixture).toEqual({ url: mcp.url, headers: { Authorization: 'Bearer e2e-token' }, timeout: 45 });
    await row.locator('[data-role="mcp-status"]').waitFor();

    // Off, then on again.
    await row.locator('[data-action="toggle"]').uncheck();
    await expect.poll(async () => deepText(row.locator('[data-role="mcp-status"]'))).toContain('Off');
    expect((await config()).mcp_servers.fixture.enabled).toBe(false);
    await row.locator('[data-action="toggle"]').check();
    await expect.poll(async () => row.getAttribute('data-status')).not.toBe('disabled');
    expect((await config()).mcp_servers.fixture.enabled).toBe(true);

    // Remove, with a confirmation.
    await row.locator('[data-action="remove"]').click();
    await row.locator('[data-action="confirm-remove"]').click();
    await expect.poll(() => row.count()).toBe(0);
    expect((await config()).mcp_servers).toEqual({});
    expect(await deepText(page.locator('[data-role="mcp-servers"]'))).toContain('No MCP servers yet.');
  });
});
