import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { stdioFixtureScript } from '../fixtures/mcp-servers.js';

let script: string;
beforeAll(async () => {
  script = await stdioFixtureScript();
});

let t: TestApp;
afterEach(async () => t?.close());

const configPath = () => join(t.hermesHome, 'config.yaml');
const readConfig = () => readFile(configPath(), 'utf8');

describe('GET /api/mcp/servers', () => {
  it('lists nothing for a config without mcp_servers, in the incumbent shape', async () => {
    t = await makeTestApp();
    const r = await t.call('GET', '/api/mcp/servers');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ servers: [], toggle_supported: true, reload_required: false });
    expect(await t.call('GET', '/api/mcp/tools')).toMatchObject({
      status: 200,
      body: { tools: [], total: 0, source: 'none', inventory_scope: 'already_known_runtime_only', unavailable_servers: [] },
    });
  });

  it('shows the tool-call timeout the agent applies: the entry, else timeouts.mcp.tool_call, else 300 s', async () => {
    t = await makeTestApp({
      configYaml: [
        'timeouts:',
        '  mcp:',
        '    tool_call: 45',
        'mcp_servers:',
        '  own:',
        '    command: a',
        '    timeout: 30',
        '  inherited:',
        '    command: b',
        '',
      ].join('\n'),
    });
    const by = Object.fromEntries((await t.call('GET', '/api/mcp/servers')).body.servers.map((s: any) => [s.name, s.timeout]));
    expect(by).toEqual({ own: 30, inherited: 45 });
    const set = (await t.call('GET', '/api/mcp/servers')).body.servers.map((s: any) => s.timeout_set);
    expect(set).toEqual([true, false]);
  });

  it('shows each entry as written, credentials masked, and never starts a server', async () => {
    const marker = join('/tmp', `mcp-marker-${process.pid}-${Date.now()}`);
    t = await makeTestApp({
      configYaml: [
        'mcp_servers:',
        '  searxng:',
        '    command: node',
        `    args: ["-e", "require('fs').writeFileSync('${marker}', 'started')"]`,
        '    env:',
        '      API_KEY: ${SEARX_KEY}',
        '      REGION: eu',
        '    timeout: 30',
        '  web-reader:',
        '    url: http://127.0.0.1:9/mcp',
        '    headers:',
        '      Authorization: Bearer secret123',
        '      X-Trace: on',
        '  off:',
        '    command: thing',
        '    enabled: 0',
        '  broken: not-a-mapping',
        '  neither:',
        '    timeout: 5',
        '',
      ].join('\n'),
      agentEnv: { SEARX_KEY: 'k-123' },
    });
    const { body } = await t.call('GET', '/api/mcp/servers');
    const by = Object.fromEntries(body.servers.map((s: any) => [s.name, s]));
    expect(Object.keys(by)).toEqual(['searxng', 'web-reader', 'off', 'broken', 'neither']);
    expect(by.searxng).toEqual({
      name: 'searxng',
      transport: 'stdio',
      command: 'node',
      args: ['-e', `require('fs').writeFileSync('${marker}', 'started')`],
      env: { API_KEY: '••••••', REGION: 'eu' },
      timeout: 30,
      timeout_set: true,
      connect_timeout: 60,
      enabled: true,
      active: false,
      status: 'configured',
      tool_count: null,
    });
    expect(by['web-reader']).toMatchObject({
      transport: 'http',
      url: 'http://127.0.0.1:9/mcp',
      headers: { Authorization: '••••••', 'X-Trace': 'on' },
      timeout: 300,
    });
    expect(by.off).toMatchObject({ enabled: false, active: false, status: 'disabled' });
    expect(by.broken).toMatchObject({ transport: 'invalid', status: 'invalid_config', enabled: false });
    expect(by.neither).toMatchObject({ transport: 'invalid', status: 'invalid_config' });
    expect((await t.call('GET', '/api/mcp/tools')).body.unavailable_servers).toEqual(['searxng', 'web-reader']);
    // Neither read started the stdio server.
    await new Promise((r) => setTimeout(r, 300));
    expect(existsSync(marker)).toBe(false);
  });

  it('reads a malformed config.yaml as no servers rather than failing', async () => {
    t = await makeTestApp({ configYaml: 'mcp_servers: [unclosed\n' });
    expect((await t.call('GET', '/api/mcp/servers')).body.servers).toEqual([]);
  });
});

describe('PUT /api/mcp/servers/<name>', () => {
  const original = [
    '# Hermes config — hand written',
    'model:',
    '  default: gpt-x # keep this comment',
    'templates:',
    '  base: &base',
    '    command: npx',
    '    env: &shared',
    '      GITHUB_TOKEN: ${GITHUB_TOKEN}',
    'mcp_servers:',
    '  # the github server',
    '  github:',
    '    command: npx',
    '    args: [-y, "@modelcontextprotocol/server-github"]',
    '    env:',
    '      GITHUB_TOKEN: ${GITHUB_TOKEN} # from .env',
    '      PLAIN_SECRET: hunter2',
    '    tools:',
    '      include: [search_repositories]',
    '  linked: *base',
    '  merged:',
    '    <<: *base',
    '    args: [x]',
    '  remote:',
    '    url: https://mcp.example.com/mcp',
    '    headers:',
    '      Authorization: Bearer real-token',
    'unrelated:',
    '  keep: [1, 2]',
    '',
  ].join('\n');

  it('adds a stdio server and an http server, keeping comments and unrelated keys', async () => {
    t = await makeTestApp({ configYaml: original });
    const a = await t.call('PUT', '/api/mcp/servers/files', { command: ' npx ', args: ['-y', 'server-fs'], env: { ROOT: '/data' }, timeout: '45' });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({
      ok: true,
      server: { name: 'files', transport: 'stdio', command: 'npx', args: ['-y', 'server-fs'], timeout: 45, status: 'configured' },
    });
    const b = await t.call('PUT', '/api/mcp/servers/web%20reader', { url: 'http://localhost:3001/mcp', headers: { 'X-Key': 'v' } });
    expect(b.body.server).toMatchObject({ name: 'web reader', transport: 'http', headers: { 'X-Key': '••••••' } });
    const text = await readConfig();
    // Everything before mcp_servers is byte for byte what it was.
    expect(text.split('mcp_servers:')[0]).toBe(original.split('mcp_servers:')[0]);
    expect(text).toContain('# the github server');
    expect(text).toContain('# keep this comment');
    expect(text).toContain('GITHUB_TOKEN: ${GITHUB_TOKEN} # from .env');
    const doc = parseYaml(text, { merge: true });
    expect(doc.unrelated).toEqual({ keep: [1, 2] });
    expect(doc.mcp_servers.files).toEqual({ command: 'npx', args: ['-y', 'server-fs'], env: { ROOT: '/data' }, timeout: 45 });
    expect(doc.mcp_servers['web reader']).toEqual({ url: 'http://localhost:3001/mcp', headers: { 'X-Key': 'v' } });
  });

  it('keeps masked values and ${VAR} references as stored, and keys the form does not send', async () => {
    t = await makeTestApp({ configYaml: original });
    // What the panel sends back after the list masked the secrets.
    const listed = (await t.call('GET', '/api/mcp/servers')).body.servers.find((s: any) => s.name === 'github');
    expect(listed.env).toEqual({ GITHUB_TOKEN: '••••••', PLAIN_SECRET: '••••••' });
    const r = await t.call('PUT', '/api/mcp/servers/github', { command: 'npx', args: listed.args, env: { ...listed.env, EXTRA: 'x' }, timeout: 90 });
    expect(r.status).toBe(200);
    const text = await readConfig();
    expect(text).toContain('GITHUB_TOKEN: ${GITHUB_TOKEN} # from .env');
    expect(text).toContain('PLAIN_SECRET: hunter2');
    const doc = parseYaml(text, { merge: true });
    expect(doc.mcp_servers.github).toEqual({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github'],
      env: { GITHUB_TOKEN: '${GITHUB_TOKEN}', PLAIN_SECRET: 'hunter2', EXTRA: 'x' },
      tools: { include: ['search_repositories'] },
      timeout: 90,
    });
    // Headers too; an env key the form dropped is removed.
    await t.call('PUT', '/api/mcp/servers/remote', { url: 'https://mcp.example.com/v2', headers: { Authorization: '••••••' } });
    expect(parseYaml(await readConfig()).mcp_servers.remote).toEqual({ url: 'https://mcp.example.com/v2', headers: { Authorization: 'Bearer real-token' } });
    await t.call('PUT', '/api/mcp/servers/github', { command: 'npx', env: { GITHUB_TOKEN: '••••••' } });
    expect(parseYaml(await readConfig()).mcp_servers.github.env).toEqual({ GITHUB_TOKEN: '${GITHUB_TOKEN}' });
  });

  it('detaches YAML aliases before a change, so a template and its siblings keep their values', async () => {
    t = await makeTestApp({ configYaml: original });
    expect((await t.call('PATCH', '/api/mcp/servers/linked', { enabled: false })).status).toBe(200);
    expect((await t.call('PUT', '/api/mcp/servers/merged', { command: 'uvx', env: { GITHUB_TOKEN: '••••••', MORE: '1' } })).status).toBe(200);
    const doc = parseYaml(await readConfig(), { merge: true });
    expect(doc.templates.base).toEqual({ command: 'npx', env: { GITHUB_TOKEN: '${GITHUB_TOKEN}' } });
    expect(doc.mcp_servers.linked).toEqual({ command: 'npx', env: { GITHUB_TOKEN: '${GITHUB_TOKEN}' }, enabled: false });
    expect(doc.mcp_servers.merged).toEqual({ command: 'uvx', args: ['x'], env: { GITHUB_TOKEN: '${GITHUB_TOKEN}', MORE: '1' } });
  });

  it('edits an anchored entry without changing the entries that alias it', async () => {
    t = await makeTestApp({ configYaml: 'mcp_servers:\n  first: &tpl\n    command: one\n  second: *tpl\n' });
    await t.call('PUT', '/api/mcp/servers/first', { command: 'changed' });
    expect(parseYaml(await readConfig()).mcp_servers).toEqual({ first: { command: 'changed' }, second: { command: 'one' } });
    await t.call('DELETE', '/api/mcp/servers/first');
    expect(parseYaml(await readConfig()).mcp_servers).toEqual({ second: { command: 'one' } });
  });

  it('never rewrites a malformed config.yaml', async () => {
    const bad = 'model: [unclosed\nmcp_servers:\n  a: {command: x}\n';
    t = await makeTestApp({ configYaml: bad });
    for (const [method, path, body] of [
      ['PUT', '/api/mcp/servers/a', { command: 'y' }],
      ['PATCH', '/api/mcp/servers/a', { enabled: false }],
      ['DELETE', '/api/mcp/servers/a', undefined],
    ] as const) {
      const r = await t.call(method, path, body);
      expect(r.status).toBe(409);
      expect(r.body.error).toMatch(/config\.yaml is not valid YAML at line \d+, column \d+/);
    }
    await writeFile(join(t.hermesHome, 'other.yaml'), '');
    expect(await readConfig()).toBe(bad);
    await writeFile(configPath(), 'mcp_servers: [1, 2]\n');
    expect((await t.call('PUT', '/api/mcp/servers/a', { command: 'y' })).status).toBe(409);
    expect(await readConfig()).toBe('mcp_servers: [1, 2]\n');
  });

  it('creates config.yaml when there is none', async () => {
    t = await makeTestApp();
    expect((await t.call('PUT', '/api/mcp/servers/new', { url: 'https://x.example/mcp' })).status).toBe(200);
    expect(parseYaml(await readConfig())).toEqual({ mcp_servers: { new: { url: 'https://x.example/mcp' } } });
  });

  it('serialises concurrent writes: none is lost', async () => {
    t = await makeTestApp({ configYaml: 'mcp_servers: {}\n' });
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => t.call('PUT', `/api/mcp/servers/s${i}`, { command: `cmd${i}` })));
    expect(results.every((r) => r.status === 200)).toBe(true);
    expect(Object.keys(parseYaml(await readConfig()).mcp_servers).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `s${i}`).sort());
  });

  it('refuses bad input with 400 {"error"} and leaves the file alone', async () => {
    t = await makeTestApp({ configYaml: original });
    const cases: Array<[string, unknown, RegExp]> = [
      ['/api/mcp/servers/x', { timeout: 30 }, /url or command is required/],
      ['/api/mcp/servers/x', { url: 'ftp://host/mcp' }, /http\(s\) URL/],
      ['/api/mcp/servers/x', { url: 'not a url' }, /http\(s\) URL/],
      ['/api/mcp/servers/x', { command: 'a', env: { 'BAD-NAME': 'v' } }, /environment names/],
      ['/api/mcp/servers/x', { url: 'http://h/mcp', headers: { 'X-A': 'line\r\nbreak' } }, /line breaks/],
      ['/api/mcp/servers/x', { command: 'a', timeout: -1 }, /timeout/],
      ['/api/mcp/servers/x', { command: 'a', args: [1, 2] }, /args/],
      ['/api/mcp/servers/x', '[1,2]', /JSON object/],
      ['/api/mcp/servers/x', '{bad', /not valid JSON/],
      [`/api/mcp/servers/${'n'.repeat(129)}`, { command: 'a' }, /at most 128/],
      ['/api/mcp/servers/a%0Ab', { command: 'a' }, /control characters/],
      ['/api/mcp/servers/%E0%A4%A', { command: 'a' }, /percent-encoding/],
      ['/api/mcp/servers/x?profile=..%2Fetc', { command: 'a' }, /profile/],
    ];
    for (const [path, body, message] of cases) {
      const r = await t.call('PUT', path, body);
      expect(r.status, path).toBe(400);
      expect(r.body.error, path).toMatch(message);
    }
    expect(await readConfig()).toBe(original);
  });
});

describe('PATCH and DELETE /api/mcp/servers/<name>', () => {
  it('toggles enabled and removes a server, in the incumbent shapes', async () => {
    t = await makeTestApp({ configYaml: 'mcp_servers:\n  # note\n  a:\n    command: x # c\n  b: {url: "http://h/mcp"}\n  odd: text\n' });
    expect(await t.call('PATCH', '/api/mcp/servers/a', { enabled: false })).toMatchObject({ status: 200, body: { ok: true, name: 'a', enabled: false } });
    expect((await t.call('GET', '/api/mcp/servers')).body.servers[0]).toMatchObject({ name: 'a', enabled: false, status: 'disabled' });
    expect(await t.call('PATCH', '/api/mcp/servers/a', { enabled: true })).toMatchObject({ status: 200 });
    expect(await readConfig()).toContain('command: x # c');
    expect(await t.call('PATCH', '/api/mcp/servers/a', {})).toMatchObject({ status: 400, body: { error: 'enabled field is required' } });
    expect(await t.call('PATCH', '/api/mcp/servers/a', { enabled: 'yes' })).toMatchObject({ status: 400 });
    expect(await t.call('PATCH', '/api/mcp/servers/ghost', { enabled: true })).toMatchObject({ status: 404, body: { error: "MCP server 'ghost' not found" } });
    expect(await t.call('PATCH', '/api/mcp/servers/odd', { enabled: true })).toMatchObject({
      status: 400,
      body: { error: "MCP server 'odd' has invalid config" },
    });
    expect(await t.call('DELETE', '/api/mcp/servers/b')).toMatchObject({ status: 200, body: { ok: true, deleted: 'b' } });
    expect(await t.call('DELETE', '/api/mcp/servers/b')).toMatchObject({ status: 404 });
    const doc = parseYaml(await readConfig());
    expect(Object.keys(doc.mcp_servers)).toEqual(['a', 'odd']);
    expect(await readConfig()).toContain('# note');
  });
});

describe('profiles and live status', () => {
  it('a profile has its own config.yaml, servers and connections', async () => {
    t = await makeTestApp({ configYaml: `mcp_servers:\n  fx:\n    command: ${process.execPath}\n    args: [${JSON.stringify(script)}]\n` });
    // Hermes creates profiles; the routes only use existing ones.
    expect(await t.call('PUT', '/api/mcp/servers/x?profile=work', { url: 'http://127.0.0.1:9/mcp' })).toMatchObject({
      status: 404,
      body: { error: "Profile 'work' not found" },
    });
    expect(existsSync(join(t.hermesHome, 'profiles'))).toBe(false);
    await mkdir(join(t.hermesHome, 'profiles', 'work'), { recursive: true });
    expect((await t.call('PUT', '/api/mcp/servers/only-work?profile=work', { url: 'http://127.0.0.1:9/mcp' })).status).toBe(200);
    expect(parseYaml(await readFile(join(t.hermesHome, 'profiles', 'work', 'config.yaml'), 'utf8'))).toEqual({
      mcp_servers: { 'only-work': { url: 'http://127.0.0.1:9/mcp' } },
    });
    expect((await t.call('GET', '/api/mcp/servers')).body.servers.map((s: any) => s.name)).toEqual(['fx']);
    expect((await t.call('GET', '/api/mcp/servers?profile=work')).body.servers.map((s: any) => s.name)).toEqual(['only-work']);

    // A turn of the default profile connects its server: status and tools show it there only.
    const tools = await t.deps.mcp!.toolsForTurn('default');
    expect(tools.map((x) => x.spec.name)).toContain('mcp__fx__echo');
    const fx = (await t.call('GET', '/api/mcp/servers')).body.servers[0];
    expect(fx).toMatchObject({ status: 'active', active: true, tool_count: 6 });
    const inventory = (await t.call('GET', '/api/mcp/tools')).body;
    expect(inventory).toMatchObject({ total: 6, source: 'mcp_runtime_status', unavailable_servers: [] });
    expect(inventory.tools.find((x: any) => x.name === 'add')).toEqual({
      name: 'add',
      tool_name: 'mcp__fx__add',
      server: 'fx',
      description: 'Adds two numbers',
      active: true,
      enabled: true,
      status: 'active',
      schema_summary: [
        { name: 'a', type: 'number', required: true, description: '' },
        { name: 'b', type: 'number', required: true, description: '' },
      ],
    });
    expect((await t.call('GET', '/api/mcp/tools?profile=work')).body).toMatchObject({ tools: [], total: 0, unavailable_servers: ['only-work'] });

    // Disabling it stops the connection at once.
    await t.call('PATCH', '/api/mcp/servers/fx', { enabled: false });
    expect((await t.call('GET', '/api/mcp/servers')).body.servers[0]).toMatchObject({ status: 'disabled', tool_count: null });
    expect((await t.call('GET', '/api/mcp/tools')).body.total).toBe(0);
  });
});
