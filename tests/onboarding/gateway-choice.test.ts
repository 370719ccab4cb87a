import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { startHermesGateway, type FakeGateway } from '../fixtures/hermes-gateway.js';
import { startScriptedOpenAI, type ScriptedServer } from '../fixtures/scripted-openai.js';
import { readStream } from '../helpers/sse.js';

/** Choosing a running Hermes Agent in the first-run wizard and in Settings (not only by environment). */
describe('the gateway as a choice', () => {
  let gw: FakeGateway;
  let model: ScriptedServer;
  let t: TestApp;
  beforeAll(async () => {
    gw = await startHermesGateway({ apiKey: 'gw-secret-123456' });
    model = await startScriptedOpenAI();
  });
  afterAll(async () => {
    await gw.close();
    await model.close();
  });
  afterEach(async () => t?.close());

  // The server's own wiring with HERMES_WEBUI_CHAT_BACKEND unset: the backend is a choice.
  const app = (configYaml?: string, env: Record<string, string> = {}) =>
    makeTestApp({ ...(configYaml ? { configYaml } : {}), env: { HERMES_WEBUI_GATEWAY_READ_TIMEOUT: '5', ...env } });

  const turn = async (text: string) => {
    const sid = await t.newSession();
    const start = await t.call('POST', '/api/chat/start', { session_id: sid, message: text });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const res = await t.app.request(`/api/chat/stream?stream_id=${start.body.stream_id}`);
    return readStream(res, { timeoutMs: 10_000 });
  };

  it('offers "Hermes Agent" in the wizard, probes it, and setup makes it answer (key kept in .env)', async () => {
    t = await app();
    const status = await t.call('GET', '/api/onboarding/status');
    expect(status.body).toMatchObject({ needed: true, backend: 'builtin', backend_fixed: false });
    expect(status.body.providers.at(-1)).toMatchObject({ id: 'gateway', group: 'agent', default_base_url: 'http://127.0.0.1:8642' });

    const refused = await t.call('POST', '/api/onboarding/probe', { provider: 'gateway', base_url: gw.url, api_key: 'wrong-key-0000' });
    expect(refused.body).toMatchObject({ ok: false, error: 'http_4xx' });
    const probe = await t.call('POST', '/api/onboarding/probe', { provider: 'gateway', base_url: gw.url, api_key: 'gw-secret-123456' });
    expect(probe.body).toMatchObject({ ok: true, base_url: gw.url, agent: { label: 'Hermes Agent', path: 'runs', reachable: true } });
    expect(probe.body.models.map((m: any) => m.id)).toContain('hermes-agent');

    const setup = await t.call('POST', '/api/onboarding/setup', { provider: 'gateway', base_url: gw.url + '/', api_key: 'gw-secret-123456' });
    expect(setup.status, JSON.stringify(setup.body)).toBe(200);
    expect(setup.body).toMatchObject({ needed: false, backend: 'gateway', gateway_base_url: gw.url });
    expect(await readFile(join(t.hermesHome, '.env'), 'utf8')).toContain('HERMES_WEBUI_GATEWAY_API_KEY=gw-secret-123456');
    expect(JSON.stringify(setup.body)).not.toContain('gw-secret-123456');

    gw.enqueue({ steps: [{ delta: 'From your Hermes.' }, { done: {} }] });
    const frames = await turn('hi');
    expect(
      frames
        .filter((f) => f.event === 'token')
        .map((f) => f.data.text)
        .join(''),
    ).toBe('From your Hermes.');
    expect((await t.call('GET', '/api/agent')).body).toMatchObject({ kind: 'gateway', path: 'runs' });
  });

  it('switches between the builtin agent and the gateway in Settings, for the next turn', async () => {
    t = await app(`model:\n  provider: custom\n  default: scripted-model\n  base_url: ${model.url}\n`, { HERMES_WEBUI_GATEWAY_API_KEY: 'gw-secret-123456' });
    model.setRouter((req) => (JSON.stringify(req.body).includes('title') ? [{ text: 'T' }] : undefined));
    model.enqueue([{ text: 'builtin here' }]);
    expect(
      (await turn('one'))
        .filter((f) => f.event === 'token')
        .map((f) => f.data.text)
        .join(''),
    ).toBe('builtin here');

    const bad = await t.call('POST', '/api/settings', { chat_backend: 'gateway', gateway_base_url: 'ftp://x' });
    expect(bad.status).toBe(400);
    const on = await t.call('POST', '/api/settings', { chat_backend: 'gateway', gateway_base_url: gw.url });
    expect(on.body).toMatchObject({ chat_backend: 'gateway', gateway_base_url: gw.url, chat_backend_fixed: false });
    gw.enqueue({ steps: [{ delta: 'gateway here' }, { done: {} }] });
    expect(
      (await turn('two'))
        .filter((f) => f.event === 'token')
        .map((f) => f.data.text)
        .join(''),
    ).toBe('gateway here');

    await t.call('POST', '/api/settings', { chat_backend: 'builtin' });
    model.enqueue([{ text: 'builtin again' }]);
    expect(
      (await turn('three'))
        .filter((f) => f.event === 'token')
        .map((f) => f.data.text)
        .join(''),
    ).toBe('builtin again');
    // Choosing a model provider in the wizard also means the builtin agent answers.
    await t.call('POST', '/api/settings', { chat_backend: 'gateway' });
    const setup = await t.call('POST', '/api/onboarding/setup', { provider: 'custom', model: 'scripted-model', base_url: model.url });
    expect(setup.body.backend).toBe('builtin');
    model.setRouter(null);
  }, 20_000);

  it('cannot be switched where HERMES_WEBUI_CHAT_BACKEND fixes it', async () => {
    t = await app(undefined, { HERMES_WEBUI_CHAT_BACKEND: 'builtin' });
    const status = await t.call('GET', '/api/onboarding/status');
    expect(status.body).toMatchObject({ backend: 'builtin', backend_fixed: true, gateway_base_url: null });
    expect(status.body.providers.map((p: any) => p.id)).not.toContain('gateway');
    expect((await t.call('GET', '/api/settings')).body).toMatchObject({ chat_backend: 'builtin', chat_backend_fixed: true });

    const setup = await t.call('POST', '/api/onboarding/setup', { provider: 'gateway', base_url: gw.url });
    expect(setup.status).toBe(409);
    expect(setup.body.error).toMatch(/HERMES_WEBUI_CHAT_BACKEND/);
    expect((await t.call('POST', '/api/onboarding/probe', { provider: 'gateway', base_url: gw.url })).status).toBe(409);
    const sw = await t.call('POST', '/api/settings', { chat_backend: 'gateway', theme: 'light' });
    expect(sw.status).toBe(409);
    expect(sw.body.error).toMatch(/HERMES_WEBUI_CHAT_BACKEND fixes who answers/);
    // Refused as a whole: nothing else in that request was stored either.
    expect(await t.deps.settings.read()).not.toHaveProperty('theme');
    // Naming what already applies switches nothing.
    expect((await t.call('POST', '/api/settings', { chat_backend: 'builtin' })).status).toBe(200);
    expect(await t.deps.settings.read()).not.toHaveProperty('chat_backend');
  });

  it('with HERMES_WEBUI_CHAT_BACKEND=gateway, the environment alone says who answers and where', async () => {
    t = await app(undefined, { HERMES_WEBUI_CHAT_BACKEND: 'gateway', HERMES_WEBUI_GATEWAY_BASE_URL: gw.url, HERMES_WEBUI_GATEWAY_API_KEY: 'gw-secret-123456' });
    await t.deps.settings.write({ chat_backend: 'builtin', gateway_base_url: 'http://127.0.0.1:9' });
    expect((await t.call('GET', '/api/settings')).body).toMatchObject({ chat_backend: 'gateway', gateway_base_url: gw.url, chat_backend_fixed: true });
    expect((await t.call('GET', '/api/onboarding/status')).body).toMatchObject({
      backend: 'gateway',
      gateway_base_url: gw.url,
      backend_fixed: true,
      needed: false,
    });
    expect((await t.call('POST', '/api/settings', { gateway_base_url: 'http://127.0.0.1:8642' })).status).toBe(409);
    gw.enqueue({ steps: [{ delta: 'fixed gateway' }, { done: {} }] });
    expect(
      (await turn('hi'))
        .filter((f) => f.event === 'token')
        .map((f) => f.data.text)
        .join(''),
    ).toBe('fixed gateway');
  });

  it('HERMES_WEBUI_GATEWAY_BASE_URL alone fixes the address, not the choice', async () => {
    t = await app(undefined, { HERMES_WEBUI_GATEWAY_BASE_URL: gw.url });
    const on = await t.call('POST', '/api/settings', { chat_backend: 'gateway' });
    expect(on.body).toMatchObject({ chat_backend: 'gateway', gateway_base_url: gw.url, chat_backend_fixed: false });
    const moved = await t.call('POST', '/api/settings', { gateway_base_url: 'http://127.0.0.1:8642' });
    expect(moved.status).toBe(409);
    expect(moved.body.error).toMatch(/HERMES_WEBUI_GATEWAY_BASE_URL/);
    expect((await t.call('POST', '/api/settings', { gateway_base_url: gw.url + '/' })).status).toBe(200);
  });
});
