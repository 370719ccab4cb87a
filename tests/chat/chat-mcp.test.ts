import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';
import { startHttpMcpServer, stdioFixtureScript, type HttpMcpFixture } from '../fixtures/mcp-servers.js';

/** The newest tool result the model received for `callId` in a request. */
function toolResult(req: any, callId: string): string {
  return req.messages.findLast((m: any) => m.role === 'tool' && m.tool_call_id === callId)?.content;
}

let script: string;
let http: HttpMcpFixture;
beforeAll(async () => {
  script = await stdioFixtureScript();
  http = await startHttpMcpServer({ requireAuth: 'Bearer tok', label: 'remote' });
});
afterAll(async () => http?.close());

describe('chat: MCP tools in the builtin agent', () => {
  let t: ChatHarness;
  afterEach(async () => t?.close());

  const servers = () =>
    [
      'mcp_servers:',
      '  local-fx:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(script)}]`,
      '    env: {FIXTURE_LABEL: local, FIXTURE_TOKEN: "${FX_TOKEN}"}',
      '    tools: {exclude: [fail]}',
      '  remote:',
      `    url: ${http.url}`,
      '    headers: {Authorization: "Bearer tok"}',
      '  careful:',
      `    command: ${JSON.stringify(process.execPath)}`,
      `    args: [${JSON.stringify(script)}]`,
      '    trust: untrusted',
      '  switched-off:',
      '    command: /nonexistent',
      '    enabled: false',
      '',
    ].join('\n');

  it('offers the servers’ tools under Hermes names and calls them over stdio and HTTP', async () => {
    t = await makeChatApp({ extraYaml: servers() });
    await writeFile(join(t.hermesHome, '.env'), 'FX_TOKEN=from-dotenv\n');
    const sid = await t.newSession();
    t.model.enqueue(
      [
        { toolCall: { id: 'c1', name: 'mcp__local_fx__echo', args: { text: 'hello' } } },
        { toolCall: { id: 'c2', name: 'mcp__remote__add', args: { a: 20, b: 22 } } },
        { toolCall: { id: 'c3', name: 'mcp__local_fx__whoami', args: {} } },
      ],
      [{ text: 'All done.' }],
    );
    const frames = await t.stream((await t.start(sid, 'use the mcp tools')).body.stream_id);
    const offered = t.turnRequests()[0].tools.map((x: any) => x.function.name);
    expect(offered).toEqual(
      expect.arrayContaining(['terminal', 'mcp__local_fx__echo', 'mcp__local_fx__list_items', 'mcp__remote__add', 'mcp__careful__write_note']),
    );
    expect(offered).not.toContain('mcp__local_fx__fail');
    expect(offered.some((n: string) => n.startsWith('mcp__switched_off__'))).toBe(false);
    const echoSpec = t.turnRequests()[0].tools.find((x: any) => x.function.name === 'mcp__local_fx__echo').function;
    expect(echoSpec).toMatchObject({
      description: 'Echoes the text back',
      parameters: { type: 'object', properties: { text: { type: 'string', description: 'What to echo' } }, required: ['text'] },
    });

    const second = t.turnRequests()[1];
    expect(JSON.parse(toolResult(second, 'c1'))).toEqual({ result: 'local echo: hello' });
    expect(JSON.parse(toolResult(second, 'c2'))).toEqual({ result: '42' });
    expect(JSON.parse(JSON.parse(toolResult(second, 'c3')).result).token).toBe('from-dotenv');
    const complete = frames.filter((f) => f.event === 'tool_complete');
    // The three ran side by side; each finished without error.
    expect(complete.map((f) => [f.data.name, f.data.is_error]).sort()).toEqual([
      ['mcp__local_fx__echo', false],
      ['mcp__local_fx__whoami', false],
      ['mcp__remote__add', false],
    ]);
    const stored = frames.find((f) => f.event === 'done')!.data.session.messages;
    expect(stored.filter((m: any) => m.role === 'tool').map((m: any) => m.tool_call_id)).toEqual(['c1', 'c2', 'c3']);
    // The list now shows what the turn connected.
    const listed = Object.fromEntries((await t.call('GET', '/api/mcp/servers')).body.servers.map((s: any) => [s.name, [s.status, s.tool_count]]));
    expect(listed).toEqual({ 'local-fx': ['active', 6], remote: ['active', 6], careful: ['active', 6], 'switched-off': ['disabled', null] });
  });

  it('asks before a write-capable tool of an untrusted server; read-only tools run at once', async () => {
    t = await makeChatApp({ extraYaml: servers() });
    const sid = await t.newSession();
    t.model.enqueue(
      [{ toolCall: { id: 'r1', name: 'mcp__careful__echo', args: { text: 'safe' } } }],
      [{ toolCall: { id: 'w1', name: 'mcp__careful__write_note', args: { note: 'n1' } } }],
      [{ toolCall: { id: 'w2', name: 'mcp__careful__write_note', args: { note: 'n2' } } }],
      [{ toolCall: { id: 'l1', name: 'mcp__careful__list_items', args: {} } }],
      [{ text: 'ok' }],
    );
    const approvals: any[] = [];
    const frames = await t.stream((await t.start(sid, 'write notes')).body.stream_id, {
      onFrame: async (f) => {
        if (f.event !== 'approval') return;
        approvals.push(f.data);
        // The first write is refused, the second allowed.
        const choice = approvals.length === 1 ? 'deny' : 'once';
        await t.call('POST', '/api/approval/respond', { session_id: sid, choice, approval_id: f.data.approval_id });
      },
    });
    expect(approvals).toHaveLength(2);
    expect(approvals[0]).toMatchObject({ tool: 'mcp__careful__write_note', pattern_keys: ['mcp-trust/careful/write_note'] });
    expect(approvals[0].command).toContain('"note":"n1"');
    expect(approvals[0].description).toContain("UNTRUSTED server 'careful'");
    const reqs = t.turnRequests();
    expect(JSON.parse(toolResult(reqs[1], 'r1'))).toEqual({ result: 'stdio echo: safe' });
    expect(JSON.parse(toolResult(reqs[2], 'w1')).error).toMatch(/did not approve running write-capable MCP tool 'write_note'/);
    expect(JSON.parse(toolResult(reqs[3], 'w2'))).toEqual({ result: 'saved n2' });
    // Only the approved write reached the server.
    expect(JSON.parse(toolResult(reqs[4], 'l1'))).toEqual({ result: 'n2' });
    expect(frames.at(-1)!.event).toBe('stream_end');
  });

  it('a session of another profile sees only that profile’s servers', async () => {
    t = await makeChatApp({ extraYaml: servers() });
    const work = join(t.hermesHome, 'profiles', 'work');
    await mkdir(work, { recursive: true });
    // The work profile is a whole Hermes home: its own model, and its own servers.
    await writeFile(
      join(work, 'config.yaml'),
      `model:\n  default: test-model\n  provider: custom\n  base_url: ${t.model.url}\nmcp_servers:\n  work-only:\n    url: ${http.url}\n    headers: {Authorization: "Bearer tok"}\n`,
    );
    // The session is made in the browser's profile (the cookie); its turns keep that profile.
    const made = await t.call('POST', '/api/session/new', {}, { Cookie: 'hermes_profile=work' });
    const sid = made.body.session.session_id;
    t.model.enqueue([{ text: 'hi' }]);
    await t.stream((await t.start(sid, 'hello')).body.stream_id);
    const offered = t
      .turnRequests()[0]
      .tools.map((x: any) => x.function.name)
      .filter((n: string) => n.startsWith('mcp__'));
    expect(offered.sort()).toEqual([
      'mcp__work_only__add',
      'mcp__work_only__echo',
      'mcp__work_only__fail',
      'mcp__work_only__list_items',
      'mcp__work_only__whoami',
      'mcp__work_only__write_note',
    ]);
    // The default profile's servers were not started by that turn.
    expect((await t.call('GET', '/api/mcp/servers')).body.servers.map((s: any) => s.status)).toEqual(['configured', 'configured', 'configured', 'disabled']);
    expect((await t.call('GET', '/api/mcp/servers?profile=work')).body.servers).toMatchObject([{ name: 'work-only', status: 'active', tool_count: 6 }]);
  });

  it('a server that cannot start costs only its own tools', async () => {
    t = await makeChatApp({ extraYaml: 'mcp_servers:\n  ghost:\n    command: /nonexistent/mcp\n' });
    const sid = await t.newSession();
    t.model.enqueue([{ text: 'still here' }]);
    const frames = await t.stream((await t.start(sid, 'hello')).body.stream_id);
    expect(frames.find((f) => f.event === 'done')!.data.session.messages.at(-1).content).toBe('still here');
    expect((await t.call('GET', '/api/mcp/servers')).body.servers[0]).toMatchObject({ name: 'ghost', status: 'failed' });
    expect((await t.call('GET', '/api/mcp/servers')).body.servers[0].error).toMatch(/ENOENT|not found|spawn/i);
  });
});
