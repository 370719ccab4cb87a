import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { startScriptedOpenAI, type ScriptedServer } from '../fixtures/scripted-openai.js';

let t: TestApp;
let model: ScriptedServer;
const servers: Server[] = [];
beforeAll(async () => {
  model = await startScriptedOpenAI();
});
afterAll(async () => {
  await model.close();
  for (const s of servers) s.closeAllConnections(), s.close();
});
afterEach(async () => t?.close());

async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

describe('onboarding status', () => {
  it('asks for the wizard on a fresh HERMES_HOME, and says what the server sees', async () => {
    t = await makeTestApp();
    const s = await t.call('GET', '/api/onboarding/status');
    expect(s.status).toBe(200);
    expect(s.body).toMatchObject({
      needed: true,
      completed: false,
      skip: false,
      may_setup: true,
      config_exists: false,
      config_error: null,
      agent_runtime: 'builtin',
      provider: { usable: false },
      password_enabled: false,
      default_workspace: t.workspace,
    });
    expect(s.body.config_path).toBe(join(t.hermesHome, 'config.yaml'));
    expect(s.body.providers.map((p: any) => [p.id, p.group])).toEqual([
      ['openrouter', 'easy'],
      ['anthropic', 'easy'],
      ['openai', 'easy'],
      ['ollama', 'local'],
      ['lmstudio', 'local'],
      ['custom', 'local'],
      // HERMES_WEBUI_CHAT_BACKEND unset: a Hermes Agent of one's own is a choice too.
      ['gateway', 'agent'],
    ]);
  });

  it('is not needed when a model works, when skipped by the environment, or once completed', async () => {
    t = await makeTestApp({ configYaml: `model:\n  provider: custom\n  default: scripted-model\n  base_url: ${model.url}\n` });
    expect((await t.call('GET', '/api/onboarding/status')).body).toMatchObject({ needed: false, completed: true, provider: { usable: true, id: 'custom' } });
    await t.close();
    t = await makeTestApp({ onboarding: { skip: true } });
    expect((await t.call('GET', '/api/onboarding/status')).body).toMatchObject({ needed: false, skip: true });
    await t.close();
    t = await makeTestApp();
    // Answered with the status, as the incumbent does.
    expect((await t.call('POST', '/api/onboarding/complete')).body).toMatchObject({ ok: true, completed: true, onboarding_completed: true });
    expect((await t.call('GET', '/api/onboarding/status')).body).toMatchObject({ needed: false, onboarding_completed: true });
  });

  it('reports a malformed config.yaml with where it breaks, and setup leaves it untouched', async () => {
    const bad = '# mine\nmodel:\n  default: x\n  provider: [oops\n';
    t = await makeTestApp({ configYaml: bad });
    const s = await t.call('GET', '/api/onboarding/status');
    expect(s.body.config_error).toMatch(/not valid YAML at line \d+, column \d+/);
    expect(s.body.needed).toBe(true);
    const r = await t.call('POST', '/api/onboarding/setup', { provider: 'custom', model: 'm', base_url: model.url });
    expect(r.status).toBe(409);
    expect(r.body.error).toMatch(/not valid YAML.*it was not changed/);
    expect(await readFile(join(t.hermesHome, 'config.yaml'), 'utf8')).toBe(bad);
  });
});

describe('onboarding probe', () => {
  it('lists the models of a live OpenAI-compatible server', async () => {
    t = await makeTestApp();
    const r = await t.call('POST', '/api/onboarding/probe', { provider: 'custom', base_url: model.url + '/' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      ok: true,
      base_url: model.url,
      models: [
        { id: 'scripted-model', label: 'scripted-model' },
        { id: 'scripted-model-large', label: 'scripted-model-large', context_length: 200000 },
      ],
    });
  });

  it('names each failure kind', async () => {
    t = await makeTestApp();
    const closed = await serve(() => {});
    servers.pop()!.close();
    await new Promise((r) => setTimeout(r, 50));
    const unauthorized = await serve((_, res) => res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"bad key"}'));
    const broken = await serve((_, res) => res.writeHead(503).end('down'));
    const html = await serve((_, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Welcome</body></html>'));
    const wrongJson = await serve((_, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"hello":"world"}'));
    const probe = async (base_url: string, provider = 'custom') => (await t.call('POST', '/api/onboarding/probe', { provider, base_url })).body;
    expect(await probe('not a url')).toMatchObject({ ok: false, error: 'invalid_url' });
    expect(await probe('ftp://127.0.0.1/v1')).toMatchObject({ ok: false, error: 'invalid_url' });
    expect(await probe(closed)).toMatchObject({ ok: false, error: 'connect_refused', detail: expect.stringMatching(/connection refused/) });
    expect(await probe('http://no-such-host.invalid/v1')).toMatchObject({ ok: false, error: expect.stringMatching(/^(dns|unreachable)$/) });
    expect(await probe(unauthorized)).toMatchObject({ ok: false, error: 'http_4xx', status: 401, detail: expect.stringMatching(/key was refused/) });
    expect(await probe(broken)).toMatchObject({ ok: false, error: 'http_5xx', status: 503 });
    expect(await probe(html)).toMatchObject({ ok: false, error: 'parse', detail: expect.stringMatching(/not with JSON/) });
    expect(await probe(wrongJson)).toMatchObject({ ok: false, error: 'parse' });
    // Hosted providers need a key before anything is sent.
    expect(await probe('', 'openrouter')).toMatchObject({ ok: false, error: 'http_4xx', detail: 'OpenRouter needs an API key' });
  });

  it('times out a server that never answers (5 s)', async () => {
    t = await makeTestApp();
    const slow = await serve(() => {});
    const r = await t.call('POST', '/api/onboarding/probe', { provider: 'custom', base_url: slow });
    expect(r.body).toMatchObject({ ok: false, error: 'timeout' });
  }, 15_000);

  it('answers bad bodies with 400', async () => {
    t = await makeTestApp();
    expect((await t.call('POST', '/api/onboarding/probe', {})).status).toBe(400);
    expect((await t.call('POST', '/api/onboarding/probe', { provider: 'nope', base_url: 'http://x' })).status).toBe(400);
    expect((await t.call('POST', '/api/onboarding/setup', { provider: 'custom' })).status).toBe(400);
    expect((await t.call('POST', '/api/onboarding/setup', { provider: 'other', model: 'm' })).status).toBe(400);
    expect((await t.call('POST', '/api/onboarding/setup', { provider: 'openrouter', model: 'm' })).body.error).toMatch(/api_key is required/);
    expect((await t.call('POST', '/api/onboarding/setup', { provider: 'custom', model: 'm', base_url: 'http://u:p@host/v1' })).status).toBe(400);
  });
});

describe('onboarding setup', () => {
  it('writes config.yaml (comments kept) and .env (0600), then a chat works', async () => {
    t = await makeTestApp({ configYaml: '# my settings\nagent:\n  max_turns: 12 # keep this\n' });
    await writeFile(join(t.hermesHome, '.env'), 'OTHER=1\n');
    const r = await t.call('POST', '/api/onboarding/setup', {
      provider: 'custom',
      model: 'scripted-model',
      base_url: model.url,
      api_key: 'local-secret-key-123',
      workspace: t.workspace,
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ needed: false, provider: { usable: true }, default_model: 'scripted-model' });
    const yaml = await readFile(join(t.hermesHome, 'config.yaml'), 'utf8');
    expect(yaml).toContain('# my settings');
    expect(yaml).toContain('max_turns: 12 # keep this');
    expect(parse(yaml).model).toEqual({ provider: 'custom', default: 'scripted-model', base_url: model.url, api_key: '${CUSTOM_API_KEY}' });
    expect(await readFile(join(t.hermesHome, '.env'), 'utf8')).toBe('OTHER=1\nCUSTOM_API_KEY=local-secret-key-123\n');
    expect((await stat(join(t.hermesHome, '.env'))).mode & 0o777).toBe(0o600);
    // Nothing returned carries the key.
    expect(JSON.stringify(r.body)).not.toContain('local-secret-key-123');

    model.enqueue([{ text: 'Hello from the wizard' }]);
    model.setRouter((req) => (JSON.stringify(req.body).includes('title') ? [{ text: 'Title' }] : undefined));
    const sid = await t.newSession();
    const start = await t.call('POST', '/api/chat/start', { session_id: sid, message: 'hi' });
    expect(start.status).toBe(200);
    await expect.poll(async () => (await t.call('GET', `/api/session?session_id=${sid}`)).body.session.messages.at(-1)?.content).toBe('Hello from the wizard');
    expect(model.requests.at(-1)?.headers.authorization ?? model.requests.find((q) => q.headers.authorization)?.headers.authorization).toBe(
      'Bearer local-secret-key-123',
    );
    model.setRouter(null);
  });

  it('saves a hosted provider key in .env and sets an optional first password (signed in at once)', async () => {
    t = await makeTestApp();
    const r = await t.call('POST', '/api/onboarding/setup', {
      provider: 'openrouter',
      model: 'anthropic/claude-sonnet-4.6',
      api_key: 'sk-or-v1-0123456789abcdef',
      password: 'a long password',
    });
    expect(r.status).toBe(200);
    expect(r.body.password_enabled).toBe(true);
    const cookie = r.res.headers.get('Set-Cookie')!;
    expect(cookie).toMatch(/^hermes_session=.*HttpOnly/);
    expect(await readFile(join(t.hermesHome, '.env'), 'utf8')).toBe('OPENROUTER_API_KEY=sk-or-v1-0123456789abcdef\n');
    expect(parse(await readFile(join(t.hermesHome, 'config.yaml'), 'utf8')).model).toEqual({ provider: 'openrouter', default: 'anthropic/claude-sonnet-4.6' });
    expect((await t.call('GET', '/api/sessions')).status).toBe(401);
    expect((await t.call('GET', '/api/sessions', undefined, { Cookie: cookie.split(';')[0]! })).status).toBe(200);
    // A second setup cannot replace the password.
    const again = await t.call(
      'POST',
      '/api/onboarding/setup',
      { provider: 'openrouter', model: 'x', password: 'another password' },
      { Cookie: cookie.split(';')[0]! },
    );
    expect(again.status).toBe(409);
  });

  it('is refused from another machine while no password is set (HERMES_WEBUI_ONBOARDING_OPEN lifts it)', async () => {
    t = await makeTestApp({ clientAddress: '192.168.1.20' });
    for (const [path, body] of [
      ['/api/onboarding/probe', { provider: 'custom', base_url: model.url }],
      ['/api/onboarding/setup', { provider: 'custom', model: 'm', base_url: model.url }],
      ['/api/onboarding/complete', {}],
      ['/api/providers', { provider: 'openai', api_key: 'sk-x' }],
      ['/api/providers/self-hosted', { name: 'x', base_url: model.url }],
      ['/api/providers/delete', { provider: 'openai' }],
    ] as const) {
      const r = await t.call('POST', path, body);
      expect(r.status, path).toBe(403);
      expect(r.body.error).toMatch(/machine Hermes runs on/);
    }
    expect((await t.call('GET', '/api/onboarding/status')).body.may_setup).toBe(false);
    await t.close();
    t = await makeTestApp({ clientAddress: '192.168.1.20', onboarding: { open: true } });
    expect((await t.call('POST', '/api/onboarding/complete', {})).status).toBe(200);
  });
});

describe('providers', () => {
  it('lists configured providers with masked keys, adds and removes keys and custom endpoints', async () => {
    t = await makeTestApp({ configYaml: `# keep me\nmodel:\n  provider: openrouter\n  default: a/b\n  base_url: ${model.url}\n` });
    await writeFile(join(t.hermesHome, '.env'), 'OPENROUTER_API_KEY=sk-or-v1-secretsecretsecret9876\n');
    let list = await t.call('GET', '/api/providers');
    expect(list.body.active_provider).toBe('openrouter');
    expect(list.body.providers).toEqual([
      expect.objectContaining({ id: 'openrouter', kind: 'hosted', key_set: true, key_masked: 'sk-or-…9876', active: true }),
    ]);
    expect(JSON.stringify(list.body)).not.toContain('secretsecret');

    const saved = await t.call('POST', '/api/providers', { provider: 'anthropic', api_key: 'sk-ant-api03-abcdefghijklmnop' });
    expect(saved.body).toMatchObject({
      ok: true,
      provider: 'anthropic',
      action: 'updated',
      row: { id: 'anthropic', key_set: true, has_key: true, key_masked: 'sk-ant…mnop', active: false },
    });
    expect(JSON.stringify(saved.body)).not.toContain('abcdefghij');

    const custom = await t.call('POST', '/api/providers/self-hosted', {
      name: 'lab',
      base_url: model.url,
      api_key: 'lab-key-0123456789',
      models: ['scripted-model'],
    });
    expect(custom.body).toMatchObject({
      ok: true,
      provider: { id: 'custom:lab', kind: 'custom', key_env: 'CUSTOM_LAB_API_KEY', key_set: true, base_url: model.url },
    });
    expect(await readFile(join(t.hermesHome, '.env'), 'utf8')).toBe(
      'OPENROUTER_API_KEY=sk-or-v1-secretsecretsecret9876\nANTHROPIC_API_KEY=sk-ant-api03-abcdefghijklmnop\nCUSTOM_LAB_API_KEY=lab-key-0123456789\n',
    );
    const yaml = await readFile(join(t.hermesHome, 'config.yaml'), 'utf8');
    expect(yaml).toContain('# keep me');
    expect(parse(yaml).custom_providers).toEqual([{ name: 'lab', base_url: model.url, key_env: 'CUSTOM_LAB_API_KEY', models: { 'scripted-model': {} } }]);

    // The catalog probes the endpoints (listing the providers above already asked openrouter: cached); the list shows how that went.
    const catalog = await t.call('GET', '/api/models');
    expect(catalog.body.groups.map((g: any) => [g.provider, g.source])).toEqual([
      ['openrouter', 'cache'],
      ['custom:lab', 'live'],
    ]);
    list = await t.call('GET', '/api/providers');
    expect(list.body.providers.find((p: any) => p.id === 'custom:lab')).toMatchObject({ status: 'ok', models_count: 2 });

    expect((await t.call('POST', '/api/providers/delete', { provider: 'custom:lab' })).status).toBe(200);
    expect((await t.call('POST', '/api/providers/delete', { provider: 'anthropic' })).status).toBe(200);
    expect(await readFile(join(t.hermesHome, '.env'), 'utf8')).toBe('OPENROUTER_API_KEY=sk-or-v1-secretsecretsecret9876\n');
    expect(parse(await readFile(join(t.hermesHome, 'config.yaml'), 'utf8')).custom_providers).toEqual([]);
    expect((await t.call('POST', '/api/providers/delete', { provider: 'custom:nope' })).status).toBe(404);
    expect((await t.call('POST', '/api/providers', { provider: 'nope', api_key: 'x' })).status).toBe(400);
    expect((await t.call('POST', '/api/providers/self-hosted', { name: 'Bad Name', base_url: model.url })).status).toBe(400);
  });

  it('POST /api/models/refresh probes again', async () => {
    t = await makeTestApp({ configYaml: `model:\n  provider: custom\n  default: scripted-model\n  base_url: ${model.url}\n` });
    const before = model.modelListRequests();
    const first = await t.call('GET', '/api/models');
    expect(first.body.groups[0].models.map((m: any) => m.id)).toEqual(['scripted-model', 'scripted-model-large']);
    await t.call('GET', '/api/models');
    expect(model.modelListRequests() - before).toBe(1);
    const refreshed = await t.call('POST', '/api/models/refresh');
    expect(refreshed.status).toBe(200);
    expect(model.modelListRequests() - before).toBe(2);
  });
});
