import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { deepText, hooks, startUi, type UiHarness } from '../helpers/browser.js';

const NOW = Date.now() / 1000;

/** A compressed lineage as the incumbent leaves it: the snapshot parent and its live continuation. */
async function prepare(stateDir: string) {
  await mkdir(join(stateDir, 'sessions'), { recursive: true });
  const write = (s: Record<string, unknown>) => writeFile(join(stateDir, 'sessions', `${s.session_id}.json`), JSON.stringify(s, null, 2));
  const base = { workspace: null, model: null, profile: 'default', tool_calls: [] };
  await write({
    ...base,
    session_id: 'a0a0a0a0a0a0',
    title: 'Before compression',
    created_at: NOW - 600,
    updated_at: NOW - 300,
    pre_compression_snapshot: true,
    messages: [
      { role: 'user', content: 'the snapshot question', timestamp: NOW - 600 },
      { role: 'assistant', content: 'the snapshot answer', timestamp: NOW - 590 },
    ],
  });
  await write({
    ...base,
    session_id: 'b1b1b1b1b1b1',
    title: 'After compression',
    created_at: NOW - 300,
    updated_at: NOW - 60,
    parent_session_id: 'a0a0a0a0a0a0',
    messages: [
      { role: 'user', content: 'the continued question', timestamp: NOW - 120 },
      { role: 'assistant', content: 'the continued answer', timestamp: NOW - 60 },
    ],
  });
}

const TIP = '/session/b1b1b1b1b1b1';
const here = (page: Page) => page.evaluate(() => location.pathname + location.search);
const transcript = (page: Page) => deepText(page.locator('hermes-transcript'));

/** Canonical session resolution in Chromium against the real server and its stored sessions. */
describe('web app: canonical session resolution', () => {
  let ui: UiHarness;
  beforeAll(async () => {
    ui = await startUi({ prepare });
  });
  afterAll(async () => ui?.close());

  it('a direct open of the compressed parent shows its continuation; the sidebar lists the lineage once', async () => {
    const { page } = await ui.open('/session/a0a0a0a0a0a0');
    await expect.poll(() => here(page)).toBe(TIP);
    await expect.poll(() => transcript(page)).toContain('the continued answer');
    expect(await transcript(page)).not.toContain('the snapshot answer');
    await expect.poll(() => page.locator(`${hooks.sessionRow}[data-session-id="b1b1b1b1b1b1"]`).count()).toBe(1);
    expect(await page.locator(`${hooks.sessionRow}[data-session-id="a0a0a0a0a0a0"]`).count()).toBe(0);
  });

  it('?session= and ?session_id= land on the same continuation', async () => {
    for (const q of ['session', 'session_id']) {
      const { page } = await ui.open(`/?${q}=a0a0a0a0a0a0`);
      await expect.poll(() => here(page)).toBe(TIP);
      await expect.poll(() => transcript(page)).toContain('the continued answer');
    }
  });

  it('explicit inspection (?inspect=1) opens the snapshot itself, with a way to the live conversation', async () => {
    const { page } = await ui.open('/session/a0a0a0a0a0a0?inspect=1');
    await expect.poll(() => transcript(page)).toContain('the snapshot answer');
    expect(await here(page)).toBe('/session/a0a0a0a0a0a0?inspect=1');
    // A record, read-only: the composer is off, and the server refuses a turn sent anyway.
    await expect.poll(() => page.locator('[data-role="composer-input"]').isDisabled()).toBe(true);
    expect(await deepText(page.locator('[data-role="snapshot-note"]'))).toContain('read-only snapshot');
    const refused = await page.evaluate(async () => {
      const r = await fetch('/api/chat/start', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ session_id: 'a0a0a0a0a0a0', message: 'hi' }),
      });
      return { status: r.status, body: await r.json() };
    });
    expect(refused).toMatchObject({ status: 409, body: { continuation_session_id: 'b1b1b1b1b1b1' } });
    await page.locator('[data-role="open-continuation"]').click();
    await expect.poll(() => here(page)).toBe(TIP);
    await expect.poll(() => transcript(page)).toContain('the continued answer');
    await expect.poll(() => page.locator('[data-role="composer-input"]').isDisabled()).toBe(false);
  });

  it('the last active session is restored at / (remembered under the incumbent key)', async () => {
    const { page } = await ui.open('/session/a0a0a0a0a0a0');
    await expect.poll(() => transcript(page)).toContain('the continued answer');
    expect(await page.evaluate(() => localStorage.getItem('hermes-webui-session'))).toBe('b1b1b1b1b1b1');
    // An older tab remembered the snapshot: still canonicalised before it is shown.
    await page.evaluate(() => localStorage.setItem('hermes-webui-session', 'a0a0a0a0a0a0'));
    await page.goto(`${ui.server.url}/`);
    await expect.poll(() => here(page)).toBe(TIP);
    await expect.poll(() => transcript(page)).toContain('the continued answer');
  });

  it('a missing session shows the not-found view', async () => {
    const { page } = await ui.open('/session/c2c2c2c2c2c2');
    await expect.poll(() => page.locator('[data-role="session-missing"]').count()).toBe(1);
    expect(await deepText(page.locator('[data-role="session-missing"]'))).toContain('no longer exists');
    expect(await here(page)).toBe('/session/c2c2c2c2c2c2');
  });
});
