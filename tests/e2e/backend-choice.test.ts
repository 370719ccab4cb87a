import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../helpers/server.js';
import { startHermesGateway, type FakeGateway } from '../fixtures/hermes-gateway.js';

/**
 * Who answers, as the built server (dist/server.js) reports it: fixed by HERMES_WEBUI_CHAT_BACKEND
 * (Settings and the wizard cannot switch it) or, with the variable unset, a choice.
 */
describe('end to end: the chat backend, fixed or a choice', () => {
  let gw: FakeGateway;
  let home: string;
  beforeAll(async () => {
    gw = await startHermesGateway({ apiKey: 'gw-e2e-fixed-123' });
    home = await mkdtemp(join(tmpdir(), 'hermes-e2e-backend-'));
  });
  afterAll(async () => {
    await gw?.close();
    await rm(home, { recursive: true, force: true });
  });

  const client = (server: RunningServer) => async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const res = await fetch(server.url + path, {
      method,
      ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  /** A server over its own HERMES_HOME with `env` on top. */
  const start = (name: string, env: Record<string, string>) => startServer({ HOME: home, HERMES_HOME: join(home, name), ...env });

  it('HERMES_WEBUI_CHAT_BACKEND=gateway: settings and onboarding say fixed, and every switch is refused with 409', async () => {
    const server = await start('fixed', {
      HERMES_WEBUI_CHAT_BACKEND: 'gateway',
      HERMES_WEBUI_GATEWAY_BASE_URL: gw.url,
      HERMES_WEBUI_GATEWAY_API_KEY: 'gw-e2e-fixed-123',
    });
    try {
      const api = client(server);
      const settings = await api('GET', '/api/settings');
      expect(settings.body).toMatchObject({ chat_backend: 'gateway', gateway_base_url: gw.url, chat_backend_fixed: true });
      const status = await api('GET', '/api/onboarding/status');
      expect(status.body).toMatchObject({ backend: 'gateway', gateway_base_url: gw.url, backend_fixed: true, needed: false, agent_runtime: 'gateway' });
      expect(status.body.providers.map((p: any) => p.id)).not.toContain('gateway');
      // The gateway really answers: GET /api/agent asked the scripted Hermes.
      expect((await api('GET', '/api/agent')).body).toMatchObject({ kind: 'gateway', path: 'runs', reachable: true });

      for (const [path, body] of [
        ['/api/settings', { chat_backend: 'builtin' }],
        ['/api/settings', { gateway_base_url: 'http://127.0.0.1:8642' }],
        ['/api/onboarding/setup', { provider: 'gateway', base_url: gw.url }],
        ['/api/onboarding/probe', { provider: 'gateway', base_url: gw.url }],
      ] as const) {
        const refused = await api('POST', path, body);
        expect(refused.status, `${path} ${JSON.stringify(body)}`).toBe(409);
        expect(refused.body.error).toMatch(/HERMES_WEBUI_CHAT_BACKEND fixes who answers on this server/);
      }
      expect((await api('GET', '/api/settings')).body).toMatchObject({ chat_backend: 'gateway', chat_backend_fixed: true });
    } finally {
      await server.stop();
    }
  });

  it('HERMES_WEBUI_CHAT_BACKEND unset: a choice Settings and the wizard make, applied to the next call', async () => {
    const server = await start('choice', { HERMES_WEBUI_GATEWAY_API_KEY: 'gw-e2e-fixed-123' });
    try {
      const api = client(server);
      expect((await api('GET', '/api/settings')).body).toMatchObject({
        chat_backend: 'builtin',
        gateway_base_url: 'http://127.0.0.1:8642',
        chat_backend_fixed: false,
      });
      const status = await api('GET', '/api/onboarding/status');
      expect(status.body).toMatchObject({ backend: 'builtin', backend_fixed: false, needed: true });
      expect(status.body.providers.at(-1)).toMatchObject({ id: 'gateway', group: 'agent' });
      expect((await api('POST', '/api/onboarding/probe', { provider: 'gateway', base_url: gw.url })).body).toMatchObject({ ok: true, base_url: gw.url });

      const on = await api('POST', '/api/settings', { chat_backend: 'gateway', gateway_base_url: gw.url });
      expect(on.status).toBe(200);
      expect(on.body).toMatchObject({ chat_backend: 'gateway', gateway_base_url: gw.url, chat_backend_fixed: false });
      expect((await api('GET', '/api/agent')).body).toMatchObject({ kind: 'gateway', path: 'runs', reachable: true });
      expect((await api('GET', '/api/onboarding/status')).body).toMatchObject({ backend: 'gateway', needed: false });

      expect((await api('POST', '/api/settings', { chat_backend: 'builtin' })).body.chat_backend).toBe('builtin');
      expect((await api('GET', '/api/agent')).body).toMatchObject({ kind: 'builtin' });
    } finally {
      await server.stop();
    }
  });
});
