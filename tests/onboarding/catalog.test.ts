import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelCatalogService, type CatalogCache } from '../../src/agent/catalog/catalog.js';
import { parseAgentConfig } from '../../src/agent/config.js';
import { startScriptedOpenAI, type ScriptedServer } from '../fixtures/scripted-openai.js';

/** A server that accepts connections and never answers. */
async function startHanging(): Promise<{ url: string; hits: () => number; close(): Promise<void> }> {
  let hits = 0;
  const server: Server = createServer(() => void hits++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    hits: () => hits,
    close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

function memoryCache(): CatalogCache & { value: unknown; writes: number } {
  const c = {
    value: null as unknown,
    writes: 0,
    read: async () => c.value,
    write: async (v: unknown) => void ((c.value = JSON.parse(JSON.stringify(v))), c.writes++),
  };
  return c;
}

const configFor = (active: string, custom: string) =>
  parseAgentConfig({
    configYaml: `model:\n  provider: custom\n  default: chosen-model\n  base_url: ${active}\ncustom_providers:\n  - name: lab\n    base_url: ${custom}\n    models: {pinned: {}}\n`,
    dotenv: null,
    env: {},
  });

describe('model catalog under a time budget', () => {
  let live: ScriptedServer;
  let dead: Awaited<ReturnType<typeof startHanging>>;
  beforeAll(async () => {
    live = await startScriptedOpenAI();
    live.setModels(['live-a', { id: 'live-b', context_length: 32768 }]);
    dead = await startHanging();
  });
  afterAll(async () => {
    await live.close();
    await dead.close();
  });

  it('returns the live endpoint within the budget although another endpoint is dead', async () => {
    const cache = memoryCache();
    const catalog = new ModelCatalogService({ cache, now: () => Date.now() / 1000, budgetMs: 400, probeTimeoutMs: 6000 });
    const started = performance.now();
    const result = await catalog.get(configFor(dead.url, live.url));
    const elapsed = performance.now() - started;
    // The caller's wait ends with the budget, long before the dead endpoint's 6 s probe cap
    // (a behavioural bound with wide slack; the speed itself is measured in bench/).
    expect(elapsed).toBeLessThan(3000);
    const [active, lab] = result.groups;
    expect(active).toMatchObject({
      provider: 'custom',
      source: 'config',
      models: [{ id: 'chosen-model', label: 'chosen-model' }],
      error: 'Still asking this provider for its models',
    });
    expect(lab).toMatchObject({ provider: 'custom:lab', source: 'live' });
    expect(lab!.models.map((m) => m.id)).toEqual(['custom:lab:pinned', 'custom:lab:live-a', 'custom:lab:live-b']);
    expect(lab!.models.find((m) => m.id === 'custom:lab:live-b')?.context_length).toBe(32768);
    expect(result.stale).toBe(true);
    // The live list is on "disk" for the next start.
    expect(JSON.stringify(cache.value)).toContain('live-a');
  });

  it('does not make a later caller wait a whole budget again for a dead endpoint, nor retry it within a minute', async () => {
    let t = 1_800_000_000;
    const hits = dead.hits();
    const catalog = new ModelCatalogService({ cache: memoryCache(), now: () => t, budgetMs: 2000, probeTimeoutMs: 2500 });
    const config = configFor(dead.url, live.url);
    await catalog.get(config);
    // Arriving while the dead probe (started by the first caller) still runs: it is not waited for again.
    const started = performance.now();
    await catalog.get(config);
    // (Its budget is spent: a behavioural bound far below the 2 s budget, not a speed measurement.)
    expect(performance.now() - started).toBeLessThan(1000);
    expect(dead.hits() - hits).toBe(1);
    // Once it has failed, the next callers get its error at once, without asking it again...
    await new Promise((r) => setTimeout(r, 800));
    const after = await catalog.get(config);
    expect(after.groups[0]!.error).toMatch(/timed out/);
    expect(dead.hits() - hits).toBe(1);
    // ...until a minute has passed: then it is asked again in the background, its error served meanwhile.
    t += 61;
    const retried = await catalog.get(config);
    expect(retried.groups[0]!.error).toMatch(/timed out/);
    await expect.poll(() => dead.hits() - hits).toBe(2);
  });

  it('probes each endpoint once per rebuild, however many callers ask at once', async () => {
    const catalog = new ModelCatalogService({ cache: memoryCache(), now: () => Date.now() / 1000, budgetMs: 2000 });
    const before = live.modelListRequests();
    const config = parseAgentConfig({
      configYaml: `model:\n  provider: custom\n  default: m\n  base_url: ${live.url}\ncustom_providers:\n  - name: same\n    base_url: ${live.url}\n`,
      dotenv: null,
      env: {},
    });
    await Promise.all(Array.from({ length: 5 }, () => catalog.get(config)));
    // Two targets on one URL with the same key: one probe, shared.
    expect(live.modelListRequests() - before).toBe(1);
    // Fresh lists are served from the cache without asking again; refresh asks again.
    await catalog.get(config);
    expect(live.modelListRequests() - before).toBe(1);
    await catalog.get(config, { refresh: true });
    expect(live.modelListRequests() - before).toBe(2);
  });

  it('past the budget serves the last cached list, and the late answer lands for the next caller', async () => {
    let t = 1_800_000_000;
    const cache = memoryCache();
    cache.value = {
      version: 1,
      endpoints: { [`openai ${live.url} nokey`]: { fetched_at: t - 10_000, models: [{ id: 'cached-model', label: 'cached-model' }] } },
    };
    // A slow live endpoint: answers after 600 ms.
    const slow = createServer((_req, res) =>
      setTimeout(() => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [{ id: 'fresh-model' }] })), 600),
    );
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    const slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/v1`;
    cache.value = {
      version: 1,
      endpoints: { [`openai ${slowUrl} nokey`]: { fetched_at: t - 10_000, models: [{ id: 'cached-model', label: 'cached-model' }] } },
    };
    try {
      const catalog = new ModelCatalogService({ cache, now: () => t, budgetMs: 150 });
      const config = parseAgentConfig({ configYaml: `model:\n  provider: custom\n  default: m\n  base_url: ${slowUrl}\n`, dotenv: null, env: {} });
      const first = await catalog.get(config);
      expect(first.groups[0]).toMatchObject({ source: 'cache' });
      expect(first.groups[0]!.models.map((m) => m.id)).toEqual(['m', 'cached-model']);
      expect(first.stale).toBe(true);
      await new Promise((r) => setTimeout(r, 800));
      t += 1;
      const second = await catalog.get(config);
      expect(second.groups[0]).toMatchObject({ source: 'cache' });
      expect(second.groups[0]!.models.map((m) => m.id)).toEqual(['m', 'fresh-model']);
      expect(second.stale).toBe(false);
    } finally {
      await new Promise<void>((r) => (slow.closeAllConnections(), slow.close(() => r())));
    }
  });

  it('names a failed endpoint and falls back to its configured and well-known models', async () => {
    const closed = await startHanging();
    const closedUrl = closed.url;
    await closed.close();
    const catalog = new ModelCatalogService({ cache: memoryCache(), now: () => Date.now() / 1000, budgetMs: 2000 });
    const config = parseAgentConfig({
      configYaml: `model:\n  provider: openrouter\n  default: my/pick\n  base_url: ${closedUrl}\n`,
      dotenv: null,
      env: { OPENROUTER_API_KEY: 'sk-or-v1-x' },
    });
    const result = await catalog.get(config);
    expect(result.active_provider).toBe('openrouter');
    expect(result.groups[0]!.source).toBe('config');
    expect(result.groups[0]!.error).toMatch(/connection refused/);
    expect(result.groups[0]!.models[0]!.id).toBe('my/pick');
    expect(result.groups[0]!.models.length).toBeGreaterThan(1);
    expect(catalog.lastStatus().get('openrouter')).toMatchObject({ ok: false });
  });
});
