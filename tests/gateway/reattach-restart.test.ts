import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHermesGateway, type FakeGateway, type GatewayStep } from '../fixtures/hermes-gateway.js';
import { startServer, type RunningServer } from '../helpers/server.js';
import { readStream, type Frame } from '../helpers/sse.js';
import { events, text } from './harness.js';

/**
 * Gateway turns (HERMES_WEBUI_CHAT_BACKEND=gateway, the runs API) across a kill -9 of the real
 * built server: Hermes' run goes on in Hermes, and the restarted server reattaches to it (the
 * run id and Hermes' last event id come from the journal's checkpoint) instead of starting again.
 */
describe('gateway turns across a restart', () => {
  let home: string;
  let gw: FakeGateway | undefined;
  let servers: RunningServer[] = [];
  afterEach(async () => {
    for (const s of servers) await s.stop('SIGKILL');
    servers = [];
    await gw?.close();
    gw = undefined;
    if (home) await rm(home, { recursive: true, force: true });
  });

  async function boot(port = '0'): Promise<RunningServer> {
    const server = await startServer({
      HOME: home,
      HERMES_HOME: join(home, '.hermes'),
      HERMES_WEBUI_CHAT_BACKEND: 'gateway',
      HERMES_WEBUI_GATEWAY_BASE_URL: gw!.url,
      HERMES_WEBUI_PORT: port,
    });
    servers.push(server);
    return server;
  }

  const post = async (url: string, path: string, body: unknown) => {
    const res = await fetch(url + path, { method: 'POST', body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } });
    return { status: res.status, body: (await res.json()) as any };
  };
  const stream = async (url: string, streamId: string, o: { lastId?: string; until?: (f: Frame) => boolean } = {}) => {
    const res = await fetch(`${url}/api/chat/stream?stream_id=${streamId}`, { headers: o.lastId ? { 'Last-Event-ID': o.lastId } : {} });
    expect(res.status).toBe(200);
    return readStream(res, { timeoutMs: 20_000, ...(o.until ? { until: o.until } : {}) });
  };

  /** Starts a turn, reads it until `w<cut>` streamed, and kills the server there. */
  async function startAndKill(steps: GatewayStep[], cut: number, eventIds = true) {
    home = await mkdtemp(join(tmpdir(), 'hermes-gw-restart-'));
    await mkdir(join(home, '.hermes', 'webui'), { recursive: true });
    gw = await startHermesGateway({ eventIds });
    gw.enqueue({ steps });
    const first = await boot();
    const sid = (await post(first.url, '/api/session/new', {})).body.session.session_id as string;
    const started = await post(first.url, '/api/chat/start', { session_id: sid, message: 'count' });
    expect(started.status).toBe(200);
    const streamId = started.body.stream_id as string;
    const before = await stream(first.url, streamId, { until: (f) => f.event === 'token' && f.data.text === `w${cut} ` });
    await first.stop('SIGKILL');
    return { sid, streamId, before, port: new URL(first.url).port };
  }

  const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i} `);

  it('reattaches to the running run: the rest is relayed once, no new run, and the transcript holds it all once', async () => {
    const rest = words(30);
    const answer = `Let me look. ${rest.join('')}`;
    const { sid, streamId, before, port } = await startAndKill(
      [{ delta: 'Let me look. ' }, { tool: 'terminal', preview: 'ls' }, ...rest.flatMap((w): GatewayStep[] => [{ delta: w }, { delayMs: 60 }])],
      4,
    );
    const again = await boot(port);
    const after = await stream(again.url, streamId, { lastId: before.at(-1)!.id! });
    expect(after.map((f) => f.event)).toContain('resumed');
    expect(after.at(-1)!.event).toBe('stream_end');
    // No event twice, none missing: the ids go on, and the text joins up exactly.
    const ids = [...before, ...after].map((f) => Number(f.id!.split(':').pop()));
    expect(ids).toEqual(ids.map((_, i) => ids[0]! + i));
    expect(text(before) + text(after)).toBe(answer);
    expect(events(after, 'tool')).toEqual([]);
    expect(events(after, 'resumed')[0]).toMatchObject({ session_id: sid, attempt: 1, partial: true, interrupted_tools: [] });
    // Hermes was asked for the events after the last one the checkpoint named (the tool's end), never for a new run.
    expect(gw!.runBodies).toHaveLength(1);
    const reads = gw!.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/events'));
    expect(reads.at(-1)!.headers['last-event-id']).toBe('3');

    const session = (await (await fetch(`${again.url}/api/session?session_id=${sid}`)).json()).session;
    expect(session.active_stream_id).toBeNull();
    const assistants = session.messages.filter((m: any) => m.role === 'assistant');
    expect(assistants.map((m: any) => m.content).join('')).toBe(answer);
    expect(session.messages.filter((m: any) => m.role === 'tool')).toHaveLength(1);
    const cutShort = assistants.find((m: any) => m._partial);
    expect(cutShort.content.startsWith('w0 w1 w2 w3 w4 ')).toBe(true);
    expect(cutShort._resume_attempt).toBeUndefined();
    expect(assistants.at(-1)._resume_attempt).toBe(1);
  }, 60_000);

  it('a run that ended while the server was down is closed from its status: the rest of its output, once', async () => {
    const rest = words(40);
    const answer = rest.join('');
    const { sid, streamId, before, port } = await startAndKill(
      rest.flatMap((w): GatewayStep[] => [{ delta: w }, { delayMs: 80 }]),
      3,
    );
    // Hermes finished meanwhile (nobody listening).
    const run = [...gw!.runs.values()][0]!;
    Object.assign(run, { status: 'completed', output: answer, usage: { input_tokens: 9, output_tokens: 40 }, stopped: true });
    const reads = () => gw!.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/events')).length;
    const readsBefore = reads();
    const again = await boot(port);
    const after = await stream(again.url, streamId, { lastId: before.at(-1)!.id! });
    expect(after.map((f) => f.event)).toEqual(expect.arrayContaining(['resumed', 'done', 'stream_end']));
    expect(reads()).toBe(readsBefore);
    const session = (await (await fetch(`${again.url}/api/session?session_id=${sid}`)).json()).session;
    const assistants = session.messages.filter((m: any) => m.role === 'assistant');
    expect(assistants.map((m: any) => m.content).join('')).toBe(answer);
    expect(session.output_tokens).toBe(40);
  }, 60_000);

  it('an older Hermes (no event ids, no replay): the run is followed live again, and its output fills in what streamed meanwhile', async () => {
    const rest = words(30);
    const answer = rest.join('');
    const { sid, streamId, before, port } = await startAndKill(
      rest.flatMap((w): GatewayStep[] => [{ delta: w }, { delayMs: 60 }]),
      4,
      false,
    );
    const again = await boot(port);
    const after = await stream(again.url, streamId, { lastId: before.at(-1)!.id! });
    expect(after.map((f) => f.event)).toEqual(expect.arrayContaining(['resumed', 'done', 'stream_end']));
    expect(gw!.runBodies).toHaveLength(1);
    // Live text carries on from where Hermes is now: nothing streamed before comes again.
    expect(text(after).startsWith('w0 ')).toBe(false);
    const session = (await (await fetch(`${again.url}/api/session?session_id=${sid}`)).json()).session;
    const assistants = session.messages.filter((m: any) => m.role === 'assistant');
    expect(assistants.map((m: any) => m.content).join('')).toBe(answer);
  }, 60_000);
});
