import { afterEach, describe, expect, it } from 'vitest';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';

/**
 * `/health` and `/api/health/agent` as monitors and the incumbent's agent banner read them
 * (inventory §1.2, api/routes.py _handle_health, api/agent_health.py).
 */
let t: TestApp | ChatHarness;
afterEach(async () => t?.close());

describe('GET /health', () => {
  it('answers the incumbent fields, public, with accept_loop counting requests', async () => {
    t = await makeTestApp({ auth: { password: 'a password for this test' } });
    await t.call('GET', '/api/settings');
    const r = await t.call('GET', '/health');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      status: 'ok',
      sessions: 0,
      active_streams: 0,
      active_runs: 0,
      runs: [],
      last_run_finished_at: null,
      server_started_at: expect.any(Number),
      uptime_seconds: expect.any(Number),
      accept_loop: { requests_total: expect.any(Number), last_request_at: expect.any(Number) },
    });
    expect(r.body.accept_loop.requests_total).toBeGreaterThanOrEqual(2);
    expect(r.body).not.toHaveProperty('checks');
    const again = await t.call('GET', '/health');
    expect(again.body.accept_loop.requests_total).toBe(r.body.accept_loop.requests_total + 1);
  });

  it('?deep=1 adds checks with the session store timed', async () => {
    t = await makeTestApp();
    const r = await t.call('GET', '/health?deep=1');
    expect(r.status).toBe(200);
    expect(r.body.checks).toMatchObject({ session_store: { status: 'ok', kind: 'memory', ms: expect.any(Number) } });
  });

  it('lists a running turn in runs and last_run_finished_at after it', async () => {
    const c = await makeChatApp();
    t = c;
    const sid = await c.newSession();
    c.model.enqueue([{ text: 'a' }, { delayMs: 300 }, { text: 'b' }]);
    const { stream_id } = (await c.start(sid, 'go')).body;
    const during = await c.call('GET', '/health');
    expect(during.body.active_runs).toBe(1);
    expect(during.body.runs[0]).toMatchObject({ stream_id, session_id: sid });
    await c.stream(stream_id);
    const after = await c.call('GET', '/health');
    expect(after.body.active_runs).toBe(0);
    expect(typeof after.body.last_run_finished_at).toBe('number');
  });
});

describe('GET /api/health/agent', () => {
  it('with the built-in agent: alive null, gateway_not_configured, gateway_chat off', async () => {
    t = await makeTestApp();
    const r = await t.call('GET', '/api/health/agent');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      alive: null,
      details: { state: 'unknown', reason: 'gateway_not_configured' },
      gateway_chat: { enabled: false, backend: 'builtin' },
    });
    expect(new Date(r.body.checked_at).toISOString()).toBe(r.body.checked_at);
  });

  it('with a gateway nobody answers at: alive false, state down', async () => {
    t = await makeTestApp({ env: { HERMES_WEBUI_CHAT_BACKEND: 'gateway', HERMES_WEBUI_GATEWAY_BASE_URL: 'http://127.0.0.1:9' } });
    const r = await t.call('GET', '/api/health/agent');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      alive: false,
      details: { state: 'down', reason: 'gateway_unreachable' },
      gateway_chat: { enabled: true, backend: 'gateway', base_url_configured: true },
    });
  });
});
