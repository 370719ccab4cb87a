import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../helpers/server.js';
import { startScriptedOpenAI, type ScriptStep, type ScriptedServer } from '../fixtures/scripted-openai.js';
import { isTitleRequest } from '../helpers/chat.js';
import { readStream, type Frame } from '../helpers/sse.js';
import { CONTINUE_AFTER_RESTART } from '../../src/agent/builtin/loop.js';
import { INTERRUPTED_TOOL_RESULT } from '../../src/runs/run-resume.js';

/** kill -9 of the real server mid-turn, then a restart: the built-in turn carries on (HERMES_WEBUI_RESUME_RUNS default on). */
describe('end to end: a turn carries on after kill -9', () => {
  let home: string;
  let model: ScriptedServer;
  let server: RunningServer;
  const env = () => ({ HOME: home, HERMES_HOME: join(home, '.hermes') });
  const post = async (path: string, body: unknown) => {
    const res = await fetch(server.url + path, { method: 'POST', body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };
  const get = async (path: string) => (await (await fetch(server.url + path)).json()) as any;
  const seqOf = (id: string | undefined) => Number(id!.split(':')[1]);
  const slow = (prefix: string, n: number): ScriptStep[] => Array.from({ length: n }, (_, i) => [{ text: `${prefix}${i} ` }, { delayMs: 10 }]).flat();
  const watch = (streamId: string, o: { lastEventId?: string; until?: (f: Frame) => boolean } = {}) =>
    fetch(`${server.url}/api/chat/stream?stream_id=${streamId}`, { headers: o.lastEventId ? { 'Last-Event-ID': o.lastEventId } : {} }).then((res) =>
      readStream(res, { until: o.until }),
    );
  const turnRequests = () => model.requests.filter((r) => !isTitleRequest(r)).map((r) => r.body as any);

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'hermes-resume-'));
    model = await startScriptedOpenAI();
    model.setRouter((req) => (isTitleRequest(req) ? [{ text: 'T' }] : undefined));
    model.setFallback(() => ({ status: 500, body: 'no script queued' }));
    await mkdir(join(home, '.hermes'), { recursive: true });
    await writeFile(join(home, '.hermes', 'config.yaml'), `model:\n  default: m\n  provider: custom\n  base_url: ${model.url}\n`);
    server = await startServer(env());
  });
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await model?.close();
    await rm(home, { recursive: true, force: true });
  });

  /** The whole journal again: every id once, every frame a client saw before the crash replayed as it was. */
  async function checkReplay(streamId: string, seen: Frame[]) {
    const replay = await watch(streamId);
    const byId = new Map(replay.map((f) => [f.id, f]));
    expect(byId.size).toBe(replay.length);
    expect(replay.map((f) => seqOf(f.id))).toEqual(replay.map((_, i) => i + 1));
    for (const f of seen) expect(byId.get(f.id), f.id).toEqual(f);
    return replay;
  }

  it('killed mid-answer: the text streamed stays, the model continues it, and the reconnect sees no gap and no duplicate', async () => {
    const sid = (await post('/api/session/new', {})).body.session.session_id;
    model.enqueue(slow('w', 200));
    const start = await post('/api/chat/start', { session_id: sid, message: 'write a long essay' });
    const streamId = start.body.stream_id;
    let tokens = 0;
    const seen = await watch(streamId, { until: (f) => f.event === 'token' && ++tokens >= 40 });
    await server.stop('SIGKILL');

    model.enqueue([{ text: 'The end.' }]);
    server = await startServer(env());
    // Reconnecting with the last id seen: exactly what followed, numbered on, to the end.
    const after = await watch(streamId, { lastEventId: seen.at(-1)!.id! });
    expect(after.map((f) => seqOf(f.id))).toEqual(after.map((_, i) => seqOf(seen.at(-1)!.id) + 1 + i));
    const resumedAt = after.findIndex((f) => f.event === 'resumed');
    expect(after[resumedAt]!.data).toMatchObject({ attempt: 1, partial: true, interrupted_tools: [] });
    // Before it, at most what the journal had committed and the client had not yet been sent.
    expect(after.slice(0, resumedAt).every((f) => f.event === 'token')).toBe(true);
    expect(
      after
        .slice(resumedAt + 1)
        .filter((f) => f.event === 'token')
        .map((f) => f.data.text),
    ).toEqual(['The end.']);
    expect(after.at(-1)!.event).toBe('stream_end');

    const replay = await checkReplay(streamId, seen);
    const before = replay
      .slice(
        0,
        replay.findIndex((f) => f.event === 'resumed'),
      )
      .filter((f) => f.event === 'token')
      .map((f) => f.data.text)
      .join('');
    const s = (await get(`/api/session?session_id=${sid}`)).session;
    expect(s.active_stream_id).toBeNull();
    expect(s.messages.map((m: any) => [m.role, m.content, m._partial ?? false, m._resume_attempt ?? 0])).toEqual([
      ['user', 'write a long essay', false, 0],
      ['assistant', before, true, 0],
      ['assistant', 'The end.', false, 1],
    ]);
    expect(turnRequests().at(-1).messages.slice(-2)).toMatchObject([
      { role: 'assistant', content: before },
      { role: 'user', content: CONTINUE_AFTER_RESTART },
    ]);
  });

  it('killed while a tool ran: its result is recorded as interrupted (never re-run) and the model decides', async () => {
    const sid = (await post('/api/session/new', {})).body.session.session_id;
    model.enqueue([{ text: 'Running it. ' }, { toolCall: { id: 'slow1', name: 'terminal', args: { command: 'sleep 2; echo finished' } } }]);
    const start = await post('/api/chat/start', { session_id: sid, message: 'run the slow thing' });
    const streamId = start.body.stream_id;
    const seen = await watch(streamId, { until: (f) => f.event === 'tool' });
    await server.stop('SIGKILL');

    model.enqueue([{ text: 'It was cut short by a restart; I will not run it again.' }]);
    server = await startServer(env());
    const after = await watch(streamId, { lastEventId: seen.at(-1)!.id! });
    expect(after.map((f) => seqOf(f.id))).toEqual(after.map((_, i) => seqOf(seen.at(-1)!.id) + 1 + i));
    expect(after.slice(0, 2)).toMatchObject([
      { event: 'resumed', data: { attempt: 1, partial: false, interrupted_tools: [{ tool_call_id: 'slow1', name: 'terminal' }] } },
      { event: 'tool_complete', data: { tool_call_id: 'slow1', is_error: true } },
    ]);
    expect(after.at(-1)!.event).toBe('stream_end');
    await checkReplay(streamId, seen);
    expect(turnRequests().at(-1).messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'slow1', content: INTERRUPTED_TOOL_RESULT });
    const s = (await get(`/api/session?session_id=${sid}`)).session;
    expect(s.messages.map((m: any) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(s.messages[1].tool_calls[0].id).toBe('slow1');
    expect(s.messages.at(-1)).toMatchObject({ _resume_attempt: 1 });
    // Nothing ran it again: its one result is the interruption, not the command's output.
    expect(s.messages[2].content).toBe(INTERRUPTED_TOOL_RESULT);
  });

  it('stopped by SIGTERM (a deploy): the stream is let go without a closing event and the turn carries on at the next start', async () => {
    const sid = (await post('/api/session/new', {})).body.session.session_id;
    model.enqueue(slow('d', 300));
    const start = await post('/api/chat/start', { session_id: sid, message: 'deploy mid-answer' });
    const streamId = start.body.stream_id;
    const res = await fetch(`${server.url}/api/chat/stream?stream_id=${streamId}`);
    let tokens = 0;
    const reading = readStream(res, { onFrame: (f) => void (f.event === 'token' && tokens++) });
    while (tokens < 20) await new Promise((r) => setTimeout(r, 10));
    const exit = await server.stop('SIGTERM');
    const seen = await reading;
    expect(exit).toBe(0);
    expect(seen.some((f) => f.event === 'apperror' || f.event === 'stream_end')).toBe(false);

    model.enqueue([{ text: 'Finished after the deploy.' }]);
    server = await startServer(env());
    const after = await watch(streamId, { lastEventId: seen.at(-1)!.id! });
    expect(after.map((f) => seqOf(f.id))).toEqual(after.map((_, i) => seqOf(seen.at(-1)!.id) + 1 + i));
    expect(after.find((f) => f.event === 'resumed')!.data).toMatchObject({ attempt: 1, partial: true });
    expect(after.at(-1)!.event).toBe('stream_end');
    await checkReplay(streamId, seen);
    const s = (await get(`/api/session?session_id=${sid}`)).session;
    expect(s.messages.map((m: any) => [m.role, m._partial ?? false, m._resume_attempt ?? 0])).toEqual([
      ['user', false, 0],
      ['assistant', true, 0],
      ['assistant', false, 1],
    ]);
    expect(s.messages.some((m: any) => m._interrupted)).toBe(false);
  });

  it('a turn killed once more than it may be resumed (2) ends with a clear resume_failed error', async () => {
    const sid = (await post('/api/session/new', {})).body.session.session_id;
    model.enqueue(slow('a', 300));
    const start = await post('/api/chat/start', { session_id: sid, message: 'keep dying' });
    const streamId = start.body.stream_id;
    let last = (await watch(streamId, { until: (f) => f.event === 'token' && seqOf(f.id) >= 5 })).at(-1)!;
    for (let attempt = 1; attempt <= 2; attempt++) {
      await server.stop('SIGKILL');
      model.clear();
      model.enqueue(slow(`r${attempt}-`, 300));
      server = await startServer(env());
      let sinceResume = 0;
      const more = await watch(streamId, { lastEventId: last.id!, until: (f) => (f.event === 'resumed' || sinceResume > 0) && ++sinceResume > 5 });
      expect(more.find((f) => f.event === 'resumed')!.data.attempt).toBe(attempt);
      last = more.at(-1)!;
    }
    await server.stop('SIGKILL');
    model.clear();
    const requests = model.requests.length;
    server = await startServer(env());
    const end = await watch(streamId, { lastEventId: last.id! });
    expect(end.at(-1)).toMatchObject({ event: 'apperror', data: { type: 'resume_failed' } });
    expect(end.some((f) => f.event === 'resumed')).toBe(false);
    expect(model.requests.length).toBe(requests);
    const s = (await get(`/api/session?session_id=${sid}`)).session;
    expect(s.active_stream_id).toBeNull();
    expect(s.messages.at(-1)).toMatchObject({ role: 'assistant', _error: true, error_type: 'resume_failed' });
    expect(s.messages.filter((m: any) => m._partial)).toHaveLength(3);
  });
});
