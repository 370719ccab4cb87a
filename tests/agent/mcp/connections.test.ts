import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeMcpConnector } from '../../../src/adapters/mcp/node-mcp-connector.js';
import { readServer } from '../../../src/agent/mcp/config.js';
import { McpConnections } from '../../../src/agent/mcp/connections.js';
import { serverTools } from '../../../src/agent/mcp/tools.js';
import { memoryLogger } from '../../helpers/app.js';
import { trackedEnv } from '../../helpers/processes.js';
import { startHttpMcpServer, stdioFixtureScript, type HttpMcpFixture } from '../../fixtures/mcp-servers.js';
import type { ToolContext } from '../../../src/agent/tools/types.js';

const signal = new AbortController().signal;
const ctx = { signal } as unknown as ToolContext;

let script: string;
let http: HttpMcpFixture;
const logger = memoryLogger();
const connections = new McpConnections({ connector: new NodeMcpConnector(logger, trackedEnv()), logger, reconnectBaseMs: 20, connectCooldownMs: 20 });

beforeAll(async () => {
  script = await stdioFixtureScript();
  http = await startHttpMcpServer({ requireAuth: 'Bearer s3cret' });
});
afterAll(async () => {
  await connections.shutdown();
  await http?.close();
});

const stdio = (name: string, extra: Record<string, unknown> = {}) =>
  readServer(name, { command: process.execPath, args: [script], env: { FIXTURE_TOKEN: 'tok-1', FIXTURE_LABEL: name }, ...extra });

describe('MCP connections over the real SDK', () => {
  it('connects a stdio server, lists its tools under Hermes names and calls one', async () => {
    const config = stdio('local-fs');
    const [live] = await connections.ensure('/home/a', [config]);
    expect(live?.conn.tools.map((t) => t.name).sort()).toEqual(['add', 'echo', 'fail', 'list-items', 'whoami', 'write_note']);
    const tools = serverTools(config, live!.conn, { connections, home: '/home/a' });
    expect(tools.map((t) => t.spec.name)).toContain('mcp__local_fs__list_items');
    expect(tools[0]!.mcp).toEqual({ server: 'local-fs', parallelSafe: false });
    const add = tools.find((t) => t.spec.name === 'mcp__local_fs__add')!;
    expect(add.spec.parameters).toMatchObject({ type: 'object', properties: { a: { type: 'number' } }, required: ['a', 'b'] });
    expect(JSON.parse(await add.run({ a: 2, b: 3 }, ctx))).toEqual({ result: '5' });
    const who = JSON.parse(JSON.parse(await tools.find((t) => t.spec.name === 'mcp__local_fs__whoami')!.run({}, ctx)).result);
    expect(who.token).toBe('tok-1');
    // A tool's own error comes back as {"error"}, with credentials masked.
    expect(JSON.parse(await tools.find((t) => t.spec.name === 'mcp__local_fs__fail')!.run({}, ctx))).toEqual({ error: 'it broke, [REDACTED] leaked' });
    expect(connections.state('/home/a', config)).toMatchObject({ state: 'connected' });
  });

  it('connects a streamable HTTP server with the configured headers', async () => {
    const config = readServer('remote', { url: http.url, headers: { Authorization: 'Bearer s3cret' } });
    const [live] = await connections.ensure('/home/a', [config]);
    const echo = serverTools(config, live!.conn, { connections, home: '/home/a' }).find((t) => t.spec.name === 'mcp__remote__echo')!;
    expect(JSON.parse(await echo.run({ text: 'hi' }, ctx))).toEqual({ result: 'http echo: hi' });
    expect(http.authorizations.every((a) => a === 'Bearer s3cret')).toBe(true);
  });

  it('honours tools.include / tools.exclude (globs included)', async () => {
    const config = stdio('filtered', { tools: { exclude: ['w*', 'fail'] } });
    const [live] = await connections.ensure('/home/f', [config]);
    expect(
      serverTools(config, live!.conn, { connections, home: '/home/f' })
        .map((t) => t.spec.name)
        .sort(),
    ).toEqual(['mcp__filtered__add', 'mcp__filtered__echo', 'mcp__filtered__list_items']);
    const only = readServer('filtered', { ...config, tools: { include: [] } });
    expect(serverTools({ ...only, fingerprint: config.fingerprint }, live!.conn, { connections, home: '/home/f' })).toEqual([]);
    await connections.sync('/home/f', []);
  });

  it('reconnects a stdio server whose process died, by itself and on the next call', async () => {
    const config = stdio('phoenix');
    const [live] = await connections.ensure('/home/r', [config]);
    const whoami = () => serverTools(config, live!.conn, { connections, home: '/home/r' }).find((t) => t.spec.name === 'mcp__phoenix__whoami')!;
    const first = JSON.parse(JSON.parse(await whoami().run({}, ctx)).result).pid as number;
    process.kill(first, 'SIGKILL');
    await expect.poll(() => connections.state('/home/r', config).state).not.toBe('connected');
    // Within the backoff it comes back with a new process; the call then reaches it.
    await expect.poll(() => connections.state('/home/r', config).state).toBe('connected');
    const second = JSON.parse(JSON.parse(await whoami().run({}, ctx)).result).pid as number;
    expect(second).not.toBe(first);
    process.kill(second, 'SIGKILL');
    await expect.poll(() => connections.state('/home/r', config).state).not.toBe('connected');
    // A call that finds it gone connects again at once rather than failing.
    const third = JSON.parse(JSON.parse(await whoami().run({}, ctx)).result).pid as number;
    expect(third).not.toBe(second);
  });

  it('reconnects an HTTP server that went away and came back', async () => {
    const server = await startHttpMcpServer({ label: 'flaky' });
    const config = readServer('flaky', { url: server.url });
    const [live] = await connections.ensure('/home/h', [config]);
    const echo = () => serverTools(config, live!.conn, { connections, home: '/home/h' }).find((t) => t.spec.name === 'mcp__flaky__echo')!;
    expect(JSON.parse(await echo().run({ text: 'one' }, ctx))).toEqual({ result: 'flaky echo: one' });
    await server.close();
    const back = await startHttpMcpServer({ label: 'flaky', port: server.port });
    try {
      // The old session is unknown to the new process: the read-only call reconnects and is asked again.
      expect(JSON.parse(await echo().run({ text: 'two' }, ctx))).toEqual({ result: 'flaky echo: two' });
    } finally {
      await connections.sync('/home/h', []);
      await back.close();
    }
  });

  it('keeps profiles apart: the same server name in two homes is two connections', async () => {
    const a = stdio('shared', { env: { FIXTURE_TOKEN: 'from-a' } });
    const b = stdio('shared', { env: { FIXTURE_TOKEN: 'from-b' } });
    await connections.ensure('/profiles/a', [a]);
    expect(connections.state('/profiles/b', b).state).toBe('idle');
    const [liveB] = await connections.ensure('/profiles/b', [b]);
    const who = serverTools(b, liveB!.conn, { connections, home: '/profiles/b' }).find((t) => t.spec.name === 'mcp__shared__whoami')!;
    expect(JSON.parse(JSON.parse(await who.run({}, ctx)).result).token).toBe('from-b');
    // Removing it from one profile leaves the other's running.
    await connections.sync('/profiles/a', []);
    expect(connections.state('/profiles/a', a).state).toBe('idle');
    expect(connections.state('/profiles/b', b).state).toBe('connected');
  });

  it('records a server that cannot start as failed, and tries again only after its cooldown', async () => {
    let now = 1_000_000;
    let attempts = 0;
    const counting = new McpConnections({
      connector: { connect: async () => (attempts++, Promise.reject(new Error('spawn /nonexistent ENOENT'))) },
      logger,
      nowMs: () => now,
      connectCooldownMs: 30_000,
    });
    const config = readServer('broken', { command: '/nonexistent/mcp-server' });
    expect(await counting.ensure('/home/x', [config])).toEqual([]);
    expect(counting.state('/home/x', config)).toEqual({ state: 'failed', tools: [], error: 'spawn /nonexistent ENOENT' });
    await counting.ensure('/home/x', [config]);
    expect(attempts).toBe(1);
    now += 30_001;
    await counting.ensure('/home/x', [config]);
    expect(attempts).toBe(2);
    // The second failure doubles the wait.
    now += 30_001;
    await counting.ensure('/home/x', [config]);
    expect(attempts).toBe(2);
    await counting.shutdown();
  });

  it('stops every child on shutdown', async () => {
    const own = new McpConnections({ connector: new NodeMcpConnector(logger, trackedEnv()), logger });
    const config = stdio('short-lived');
    const [live] = await own.ensure('/home/s', [config]);
    const pid = JSON.parse(
      JSON.parse(
        await serverTools(config, live!.conn, { connections: own, home: '/home/s' })
          .find((t) => t.spec.name === 'mcp__short_lived__whoami')!
          .run({}, ctx),
      ).result,
    ).pid as number;
    await own.shutdown();
    await expect
      .poll(() => {
        try {
          process.kill(pid, 0);
          return 'alive';
        } catch {
          return 'gone';
        }
      })
      .toBe('gone');
    expect(await own.ensure('/home/s', [config])).toEqual([]);
  });
});
