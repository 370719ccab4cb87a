import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../helpers/server.js';
import { startScriptedOpenAI, type ScriptedServer } from '../fixtures/scripted-openai.js';
import { isTitleRequest } from '../helpers/chat.js';
import { readStream } from '../helpers/sse.js';
import { stdioFixtureScript } from '../fixtures/mcp-servers.js';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The real server starts a stdio MCP server for a turn and stops it when it is itself stopped. */
describe('end to end: MCP children and SIGTERM', () => {
  let home: string;
  let model: ScriptedServer;
  let server: RunningServer;
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'hermes-mcp-stop-'));
    model = await startScriptedOpenAI();
    model.setRouter((req) => (isTitleRequest(req) ? [{ text: 'T' }] : undefined));
    const script = await stdioFixtureScript();
    await mkdir(join(home, '.hermes'), { recursive: true });
    await writeFile(
      join(home, '.hermes', 'config.yaml'),
      `model:\n  default: m\n  provider: custom\n  base_url: ${model.url}\nmcp_servers:\n  fx:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(script)}]\n`,
    );
    server = await startServer({ HOME: home, HERMES_HOME: join(home, '.hermes') });
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await model?.close();
    await rm(home, { recursive: true, force: true });
  });

  it('a turn calls the MCP tool; SIGTERM stops the server and its MCP child', async () => {
    const post = async (path: string, body: unknown) => (await (await fetch(server.url + path, { method: 'POST', body: JSON.stringify(body) })).json()) as any;
    const sid = (await post('/api/session/new', {})).session.session_id;
    model.enqueue([{ toolCall: { id: 'w1', name: 'mcp__fx__whoami', args: {} } }], [{ text: 'done' }]);
    const start = await post('/api/chat/start', { session_id: sid, message: 'who are you' });
    await readStream(await fetch(`${server.url}/api/chat/stream?stream_id=${start.stream_id}`), { timeoutMs: 20_000 });
    const toolMessage = model.requests
      .filter((r) => !isTitleRequest(r))
      .at(-1)!
      .body.messages.findLast((m: any) => m.role === 'tool');
    const pid = JSON.parse(JSON.parse(toolMessage.content).result).pid as number;
    expect(alive(pid)).toBe(true);
    expect(await (await fetch(`${server.url}/api/mcp/servers`)).json()).toMatchObject({ servers: [{ name: 'fx', status: 'active', tool_count: 6 }] });

    const started = Date.now();
    // Signalled here, not through stop(): that helper also kills what the server leaves behind.
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(5000);
    // Gone by the time the server has exited (a stdio child stops with its closed stdin).
    expect(alive(pid)).toBe(false);
  });
});
