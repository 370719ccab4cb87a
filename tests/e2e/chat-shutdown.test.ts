import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../helpers/server.js';
import { startScriptedOpenAI, type ScriptedServer } from '../fixtures/scripted-openai.js';
import { isTitleRequest } from '../helpers/chat.js';
import { readStream, type Frame } from '../helpers/sse.js';

/** SIGTERM to the real server while turns run and browsers watch them: a clean, quick, recoverable stop. */
describe('end to end: SIGTERM with open streams and running turns', () => {
  let home: string;
  let model: ScriptedServer;
  let server: RunningServer;
  // Resuming off: a stop closes its turns (with it on they carry on: tests/e2e/chat-resume.test.ts).
  const env = () => ({ HOME: home, HERMES_HOME: join(home, '.hermes'), HERMES_WEBUI_RESUME_RUNS: '0' });
  const post = async (path: string, body: unknown) => {
    const res = await fetch(server.url + path, { method: 'POST', body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };
  const get = async (path: string) => (await (await fetch(server.url + path)).json()) as any;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'hermes-shutdown-'));
    model = await startScriptedOpenAI();
    model.setRouter((req) => (isTitleRequest(req) ? [{ text: 'T' }] : undefined));
    model.setFallback(() => [{ text: 'fallback answer' }]);
    await mkdir(join(home, '.hermes'), { recursive: true });
    await writeFile(join(home, '.hermes', 'config.yaml'), `model:\n  default: m\n  provider: custom\n  base_url: ${model.url}\n`);
    server = await startServer(env());
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await model?.close();
    await rm(home, { recursive: true, force: true });
  });

  it('closes every stream with an interrupted apperror, stores the turn as interrupted, exits 0 within 5 s, and the next start agrees', async () => {
    // One turn streams slowly; the other's model never sends a byte.
    const slow = (await post('/api/session/new', {})).body.session.session_id;
    const hung = (await post('/api/session/new', {})).body.session.session_id;
    model.enqueue(Array.from({ length: 400 }, (_, i) => [{ text: `s${i} ` }, { delayMs: 50 }]).flat());
    const slowStart = await post('/api/chat/start', { session_id: slow, message: 'stream slowly' });
    model.enqueue([{ delayMs: 120_000 }, { text: 'never' }]);
    const hungStart = await post('/api/chat/start', { session_id: hung, message: 'hang' });
    expect([slowStart.status, hungStart.status]).toEqual([200, 200]);

    const open = (streamId: string, headers: Record<string, string> = {}) => fetch(`${server.url}/api/chat/stream?stream_id=${streamId}`, { headers });
    // Two watchers on the streaming turn (two tabs), one on the hung one.
    const tabs = [await open(slowStart.body.stream_id), await open(slowStart.body.stream_id), await open(hungStart.body.stream_id)];
    const seen: Frame[][] = [[], [], []];
    let tokens = 0;
    let firstTokens!: () => void;
    const gotTokens = new Promise<void>((resolve) => (firstTokens = resolve));
    const reading = tabs.map((res, i) =>
      readStream(res, {
        timeoutMs: 20_000,
        onFrame: (f) => {
          seen[i]!.push(f);
          if (i === 0 && f.event === 'token' && ++tokens === 5) firstTokens();
        },
      }),
    );
    await gotTokens;
    // A client stuck mid-request (headers sent, body promised, never sent) must not hold the stop.
    const stuck = connect({ host: '127.0.0.1', port: Number(new URL(server.url).port) });
    await new Promise<void>((resolve) => stuck.once('connect', () => resolve()));
    stuck.on('error', () => {});
    stuck.write('POST /api/session/new HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a":');

    const t0 = Date.now();
    const exited = server.stop('SIGTERM');
    const streams = await Promise.all(reading);
    const code = await exited;
    const elapsed = Date.now() - t0;
    stuck.destroy();
    expect(code).toBe(0);
    expect(elapsed).toBeLessThan(5000);
    expect(server.output()).not.toMatch(/unhandled|"level":"error"/);

    for (const [i, frames] of streams.entries()) {
      const last = frames.at(-1)!;
      expect(last.event, `tab ${i}: ${frames.map((f) => f.event).join(',')}`).toBe('apperror');
      expect(last.data).toMatchObject({ type: 'interrupted' });
      // The stored session rides along, so the page settles on what the next start will show.
      expect(last.data.session.active_stream_id).toBeNull();
      expect(last.data.session.messages.at(-1)).toMatchObject({ role: 'assistant', _interrupted: true, error_type: 'interrupted' });
    }
    const [tabA, tabB, tabHung] = streams as [Frame[], Frame[], Frame[]];
    expect(tabA.map((f) => f.id)).toEqual(tabB.map((f) => f.id));

    server = await startServer(env());
    for (const [sid, message, frames] of [
      [slow, 'stream slowly', tabA],
      [hung, 'hang', tabHung],
    ] as const) {
      const s = (await get(`/api/session?session_id=${sid}`)).session;
      expect(s.active_stream_id).toBeNull();
      // One notice, stored by the stop, not a second one from recovery; text that streamed before
      // the stop stays as a partial answer.
      expect(s.messages[0]).toMatchObject({ role: 'user', content: message });
      expect(s.messages.at(-1)).toMatchObject({ role: 'assistant', _interrupted: true, error_type: 'interrupted' });
      expect(s.messages.filter((m: any) => m._interrupted)).toHaveLength(1);
      expect(s.messages.slice(1, -1).every((m: any) => m._partial)).toBe(true);
      expect(s.messages.length).toBe(sid === slow ? 3 : 2);
      const streamId = sid === slow ? slowStart.body.stream_id : hungStart.body.stream_id;
      const status = await get(`/api/chat/stream/status?stream_id=${streamId}`);
      expect(status.journal.terminal_state).toBe('apperror');
      // The journal holds exactly what the tab saw; resuming from its last id gives nothing more.
      const replay = await readStream(await fetch(`${server.url}/api/chat/stream?stream_id=${streamId}`));
      expect(replay).toEqual(frames);
      expect(await readStream(await open(streamId, { 'Last-Event-ID': frames.at(-1)!.id! }))).toEqual([]);
    }
    // The session takes a new turn.
    model.clear();
    model.enqueue([{ text: 'back' }]);
    const again = await post('/api/chat/start', { session_id: slow, message: 'again' });
    expect((await readStream(await open(again.body.stream_id))).at(-1)!.event).toBe('stream_end');
  });
});
