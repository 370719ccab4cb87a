import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { buildWorkerDeps, type WorkerEnv } from '../../src/adapters/workers/worker-deps.js';
import { applyMigrations } from '../../src/adapters/storage/d1/migrations.js';
import type { D1Database } from '../../src/adapters/storage/d1/d1-types.js';
import { MemoryRunJournal } from '../../src/runs/journal.js';

/**
 * The Workers deps give routes the same explicit backend as Node: fixed by
 * HERMES_WEBUI_CHAT_BACKEND or a choice stored in D1 (workerd's D1 through Miniflare).
 */
describe('Workers deps: the chat backend, fixed or a choice', () => {
  let mf: Miniflare;
  const dbs: D1Database[] = [];
  beforeAll(async () => {
    mf = new Miniflare({ modules: true, script: 'export default { fetch() { return new Response() } }', d1Databases: ['FIXED', 'CHOICE'] });
    for (const name of ['FIXED', 'CHOICE']) {
      const db = (await mf.getD1Database(name)) as D1Database;
      await applyMigrations(db);
      dbs.push(db);
    }
  }, 60_000);
  afterAll(async () => {
    await mf?.dispose();
  });

  // The session's Durable Object app (no forwarding); these requests need neither binding.
  const unused = (what: string) => () => {
    throw new Error(`${what} is not used by these requests`);
  };
  const app = (DB: D1Database, vars: Record<string, string>) => {
    const env: WorkerEnv = {
      DB,
      SESSION_RUNS: { idFromName: unused('SESSION_RUNS'), get: unused('SESSION_RUNS') },
      ASSETS: { fetch: unused('ASSETS') },
      ...vars,
    };
    const deps = buildWorkerDeps(env, { kind: 'runs', journal: new MemoryRunJournal(), background: () => {} });
    const hono = createApp(deps);
    const call = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
      const res = await hono.request(path, {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }),
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    return { deps, call };
  };

  it('HERMES_WEBUI_CHAT_BACKEND=gateway: fixed, and a switch is refused with 409', async () => {
    const { deps, call } = app(dbs[0]!, { HERMES_WEBUI_CHAT_BACKEND: 'gateway', HERMES_WEBUI_GATEWAY_BASE_URL: 'http://127.0.0.1:9' });
    expect(deps.agent.backend.fixed).toBe(true);
    expect((await call('GET', '/api/settings')).body).toMatchObject({
      chat_backend: 'gateway',
      gateway_base_url: 'http://127.0.0.1:9',
      chat_backend_fixed: true,
    });
    expect((await call('GET', '/api/onboarding/status')).body).toMatchObject({ backend: 'gateway', backend_fixed: true, needed: false });
    const refused = await call('POST', '/api/settings', { chat_backend: 'builtin' });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/HERMES_WEBUI_CHAT_BACKEND/);
  });

  it('unset: a choice kept in D1', async () => {
    const { deps, call } = app(dbs[1]!, {});
    expect(deps.agent.backend.fixed).toBe(false);
    expect((await call('GET', '/api/settings')).body).toMatchObject({ chat_backend: 'builtin', chat_backend_fixed: false });
    expect((await call('POST', '/api/settings', { chat_backend: 'gateway', gateway_base_url: 'http://127.0.0.1:9/' })).status).toBe(200);
    // Another isolate over the same database sees it.
    const again = app(dbs[1]!, {});
    expect(await again.deps.agent.backend.current()).toEqual({ backend: 'gateway', gatewayBaseUrl: 'http://127.0.0.1:9' });
    expect((await again.call('GET', '/api/onboarding/status')).body).toMatchObject({ backend: 'gateway', backend_fixed: false });
  });
});
