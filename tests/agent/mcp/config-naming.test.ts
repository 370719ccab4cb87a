import { describe, expect, it } from 'vitest';
import { boolish, coerceArgs, readMcpServers, readServer } from '../../../src/agent/mcp/config.js';
import { matchesNameFilter, mcpToolName, normalizeInputSchema, sanitizeMcpName, toolPassesFilter } from '../../../src/agent/mcp/naming.js';
import { maskSecrets, schemaSummary } from '../../../src/agent/mcp/summary.js';
import { formatMcpResult, sanitizeMcpError } from '../../../src/agent/mcp/tools.js';

describe('Hermes MCP naming', () => {
  it.each([
    ['github', 'search_repositories', 'mcp__github__search_repositories'],
    ['my-server', 'list-devices', 'mcp__my_server__list_devices'],
    ['a.b c', 'tool/with:odd@chars', 'mcp__a_b_c__tool_with_odd_chars'],
    ['ünï', 'x', 'mcp___n___x'],
  ])('%s / %s → %s', (server, tool, name) => {
    expect(mcpToolName(server, tool)).toBe(name);
  });

  it('sanitises every character outside [A-Za-z0-9_] (hyphens too)', () => {
    expect(sanitizeMcpName('a-b.c_d9')).toBe('a_b_c_d9');
  });

  it.each([
    ['read_file', ['read_file'], true],
    ['read_file', ['read_*'], true],
    ['write_file', ['read_*'], false],
    ['tool_a', ['tool_?'], true],
    ['tool_ab', ['tool_?'], false],
    ['tool_b', ['tool_[abc]'], true],
    ['tool_d', ['tool_[!abc]'], true],
    ['Read_file', ['read_*'], false],
    ['a.b', ['a.b'], true],
    ['axb', ['a.b'], false],
  ])('filter %s against %j → %s', (name, patterns, hit) => {
    expect(matchesNameFilter(name, patterns)).toBe(hit);
  });

  it('include wins over exclude; include [] registers nothing', () => {
    expect(toolPassesFilter('a', { include: ['a'], exclude: ['a'] })).toBe(true);
    expect(toolPassesFilter('b', { include: ['a'], exclude: [] })).toBe(false);
    expect(toolPassesFilter('a', { include: [], exclude: [] })).toBe(false);
    expect(toolPassesFilter('a', { include: null, exclude: ['a'] })).toBe(false);
    expect(toolPassesFilter('a', { include: null, exclude: [] })).toBe(true);
  });

  it('normalises input schemas for every provider', () => {
    expect(normalizeInputSchema(undefined)).toEqual({ type: 'object', properties: {} });
    expect(normalizeInputSchema({ type: 'object' })).toEqual({ type: 'object', properties: {} });
    expect(
      normalizeInputSchema({
        properties: { definitions: { $ref: '#/definitions/X' }, list: { type: 'array' } },
        required: ['definitions', 'missing'],
        definitions: { X: { required: ['y'] } },
      }),
    ).toEqual({
      type: 'object',
      properties: { definitions: { $ref: '#/$defs/X' }, list: { type: 'array', items: {} } },
      required: ['definitions'],
      $defs: { X: { type: 'object', properties: {} } },
    });
  });
});

describe('mcp_servers as Hermes reads them', () => {
  it.each([
    [undefined, true],
    [null, true],
    [0, false],
    [1, true],
    ['off', false],
    ['YES', true],
    ['maybe', true],
    [false, false],
  ])('enabled: %j → %s', (value, expected) => {
    expect(boolish(value, true)).toBe(expected);
  });

  it.each([
    [
      ['-y', 'pkg'],
      ['-y', 'pkg'],
    ],
    ['["-y", "pkg"]', ['-y', 'pkg']],
    ["-y 'pkg with spaces' --flag", ['-y', 'pkg with spaces', '--flag']],
    [42, ['42']],
    [null, []],
    ['', []],
  ])('args %j → %j', (value, argv) => {
    expect(coerceArgs(value)).toEqual(argv);
  });

  it('reads transports, defaults, filters, trust and ${VAR} from .env over the environment', () => {
    const { servers } = readMcpServers(
      [
        'mcp_servers:',
        '  gh:',
        '    command: npx',
        '    args: [-y, server-github]',
        '    env: {GITHUB_TOKEN: "${GH}", PLAIN: "${env:UNSET}"}',
        '    tools: {include: search_*}',
        '  web:',
        '    url: " https://h/mcp "',
        '    headers: {Authorization: "Bearer ${API}"}',
        '    timeout: "45"',
        '    connect_timeout: -3',
        '    trust: Untrusted',
        '  odd: [1]',
        '',
      ].join('\n'),
      'GH=from-dotenv\n',
      { GH: 'from-process', API: 'k1' },
    );
    const [gh, web, odd] = servers;
    expect(gh).toMatchObject({
      transport: 'stdio',
      command: 'npx',
      args: ['-y', 'server-github'],
      env: { GITHUB_TOKEN: 'from-dotenv', PLAIN: '' },
      include: ['search_*'],
      timeoutSeconds: 300,
      connectTimeoutSeconds: 60,
      trust: 'full',
      enabled: true,
    });
    expect(web).toMatchObject({
      transport: 'http',
      url: 'https://h/mcp',
      headers: { Authorization: 'Bearer k1' },
      timeoutSeconds: 45,
      connectTimeoutSeconds: 60,
      trust: 'untrusted',
    });
    expect(odd).toMatchObject({ transport: 'invalid', enabled: false });
    // Parallel calls only for a server that opted in.
    expect(gh!.parallelSafe).toBe(false);
    expect(readServer('p', { command: 'x', supports_parallel_tool_calls: 'yes' }).parallelSafe).toBe(true);
    // Everything that decides the connection is in the fingerprint; timeouts and filters are not.
    expect(readServer('gh', { command: 'npx', timeout: 5 }).fingerprint).toBe(
      readServer('gh', { command: 'npx', timeout: 9, tools: { exclude: ['x'] } }).fingerprint,
    );
    expect(readServer('gh', { command: 'npx' }).fingerprint).not.toBe(readServer('gh', { command: 'npx', env: { A: '1' } }).fingerprint);
  });

  it('takes timeouts.mcp.tool_call when a server names no timeout', () => {
    const { servers } = readMcpServers('timeouts:\n  mcp: {tool_call: 42}\nmcp_servers:\n  a: {command: x}\n  b: {command: x, timeout: 7}\n', null, {});
    expect(servers.map((s) => s.timeoutSeconds)).toEqual([42, 7]);
  });

  it('honours mcp.client and mcp.stdio_servers', () => {
    const yaml = (mcp: string) => `${mcp}\nmcp_servers:\n  local: {command: x}\n  remote: {url: "http://h/mcp"}\n`;
    expect(readMcpServers(yaml('mcp: {stdio_servers: false}'), null, {}).servers.map((s) => s.enabled)).toEqual([false, true]);
    expect(readMcpServers(yaml('mcp: {client: off}'), null, {}).servers.map((s) => s.enabled)).toEqual([false, false]);
    expect(readMcpServers(yaml(''), null, {}).servers.map((s) => s.enabled)).toEqual([true, true]);
  });

  it('reads a malformed file or a non-mapping mcp_servers as none', () => {
    expect(readMcpServers('mcp_servers: [', null, {}).servers).toEqual([]);
    expect(readMcpServers('mcp_servers: [a, b]\n', null, {}).servers).toEqual([]);
    expect(readMcpServers(null, null, {}).servers).toEqual([]);
  });
});

describe('what leaves the layer', () => {
  it('masks credential-named values as the incumbent does', () => {
    expect(maskSecrets({ Authorization: 'Bearer x', 'X-Api-Key': 'k', Accept: 'json', nested: { password: 'p', n: 1 } })).toEqual({
      Authorization: '••••••',
      'X-Api-Key': '••••••',
      Accept: 'json',
      nested: { password: '••••••', n: 1 },
    });
  });

  it('summarises schemas without defaults or enums', () => {
    expect(
      schemaSummary({
        type: 'object',
        properties: { q: { type: 'string', description: 'Query', default: 'secret' }, n: { anyOf: [{ type: 'number' }] } },
        required: ['q'],
      }),
    ).toEqual([
      { name: 'q', type: 'string', required: true, description: 'Query' },
      { name: 'n', type: 'anyOf', required: false, description: '' },
    ]);
  });

  it('formats results as {"result"} / {"error"} with credentials masked', () => {
    expect(
      formatMcpResult({
        content: [
          { type: 'text', text: 'a' },
          { type: 'image', data: 'x' },
          { type: 'text', text: 'b' },
        ],
        isError: false,
      }),
    ).toBe(JSON.stringify({ result: 'a\n[image content]\nb' }));
    expect(formatMcpResult({ content: [], isError: false, structuredContent: { n: 1 } })).toBe(JSON.stringify({ result: '{"n":1}' }));
    expect(formatMcpResult({ content: [], isError: true })).toBe(JSON.stringify({ error: 'MCP tool returned an error' }));
    expect(sanitizeMcpError('failed with Bearer abc.def and ghp_123 and key=zzz')).toBe('failed with [REDACTED] and [REDACTED] and [REDACTED]');
  });
});
