import { mkdtemp, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../helpers/server.js';
import { startScriptedOpenAI, type ScriptStep, type ScriptedServer } from '../fixtures/scripted-openai.js';
import { isTitleRequest } from '../helpers/chat.js';
import { readStream } from '../helpers/sse.js';

/**
 * kill -9 of the real server in the middle of turns, with resuming off (HERMES_WEBUI_RESUME_RUNS=0):
 * nothing corrupted, the turn marked interrupted. Resuming is tests/e2e/chat-resume.test.ts.
 */
describe('end to end: a crash mid-turn', () => {
  let home: string;
  let model: ScriptedServer;
  let server: RunningServer;
  const env = () => ({ HOME: home, HERMES_HOME: join(home, '.hermes'), HERMES_WEBUI_RESUME_RUNS: '0' });
  const sessionsDir = () => join(home, '.hermes', 'webui', 'sessions');
  const post = async (path: string, body: unknown) => {
    const res = await fetch(server.url + path, { method: 'POST', body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };
  const get = async (path: string) => (await (await fetch(server.url + path)).json()) as any;
  let titleScript: ScriptStep[] = [{ text: 'T' }];
  const seqOf = (id: string | undefined) => Number(id!.split(':')[1]);

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'hermes-crash-'));
    model = await startScriptedOpenAI();
    model.setRouter((req) => (isTitleRequest(req) ? titleScript : undefined));
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

  /** Every session file parses, and none is left claiming a running turn. */
  async function checkIntegrity() {
    const files = (await readdir(sessionsDir())).filter((f) => f.endsWith('.json'));
    for (const f of files) {
      const text = await readFile(join(sessionsDir(), f), 'utf8');
      expect(() => JSON.parse(text), f).not.toThrow();
    }
    return files.length;
  }

  it('keeps the user message, marks the turn interrupted, and replays the journal to a clean end', async () => {
    const sid = (await post('/api/session/new', {})).body.session.session_id;
    model.enqueue(Array.from({ length: 200 }, (_, i) => [{ text: `w${i} ` }, { delayMs: 10 }]).flat());
    const start = await post('/api/chat/start', { session_id: sid, message: 'write a long essay' });
    expect(start.status).toBe(200);
    const res = await fetch(`${server.url}/api/chat/stream?stream_id=${start.body.stream_id}`);
    let tokens = 0;
    // ~400 ms of streaming: longer than the journal's batching window.
    const seen = await readStream(res, { until: (f) => f.event === 'token' && ++tokens >= 40 });

    await server.stop('SIGKILL');
    await checkIntegrity();
    const raw = JSON.parse(await readFile(join(sessionsDir(), `${sid}.json`), 'utf8'));
    expect(raw.messages.map((m: any) => m.content)).toEqual(['write a long essay']);
    expect(raw.active_stream_id).toBe(start.body.stream_id);

    server = await startServer(env());
    const s = (await get(`/api/session?session_id=${sid}`)).session;
    expect(s.active_stream_id).toBeNull();
    expect(s.messages[0]).toMatchObject({ role: 'user', content: 'write a long essay' });
    expect(s.messages).toHaveLength(2);
    expect(s.messages[1]).toMatchObject({ role: 'assistant', _interrupted: true, _error: true, error_type: 'interrupted' });
    expect(s.messages[1].content).not.toMatch(/w\d/);

    // The journal replays what it had written (at most its batching window behind what the
    // client saw), exactly as sent, then a closing apperror.
    const replay = await readStream(await fetch(`${server.url}/api/chat/stream?stream_id=${start.body.stream_id}`));
    const replayed = replay.filter((f) => f.event === 'token');
    expect(replayed.length).toBeGreaterThan(0);
    expect(replayed.map((f) => [f.id, f.data])).toEqual(
      seen
        .filter((f) => f.event === 'token')
        .slice(0, replayed.length)
        .map((f) => [f.id, f.data]),
    );
    expect(replay.at(-1)).toMatchObject({ event: 'apperror', data: { type: 'interrupted' } });
    expect(Number(replay.at(-1)!.id!.split(':')[1])).toBe(Number(replay.at(-2)!.id!.split(':')[1]) + 1);
    const status = await get(`/api/chat/stream/status?stream_id=${start.body.stream_id}`);
    expect(status).toMatchObject({ active: false, replay_available: true });

    // The session takes a new turn normally.
    model.enqueue([{ text: 'back again' }]);
    const again = await post('/api/chat/start', { session_id: sid, message: 'are you there?' });
    const frames = await readStream(await fetch(`${server.url}/api/chat/stream?stream_id=${again.body.stream_id}`));
    expect(frames.at(-1)!.event).toBe('stream_end');
  });

  it('resuming with the last id a client saw before the crash gets only what came after it, then the closing event under a new id', async () => {
    const sid = (await post('/api/session/new', {})).body.session.session_id;
    model.enqueue(Array.from({ length: 300 }, (_, i) => [{ text: `v${i} ` }, { delayMs: 5 }]).flat());
    const start = await post('/api/chat/start', { session_id: sid, message: 'stream then crash' });
    const streamId = start.body.stream_id;
    let tokens = 0;
    // Well inside the journal's old 200 ms batching window after the last event received.
    const seen = await readStream(await fetch(`${server.url}/api/chat/stream?stream_id=${streamId}`), { until: (f) => f.event === 'token' && ++tokens >= 30 });
    const last = seen.at(-1)!;
    await server.stop('SIGKILL');
    server = await startServer(env());

    const resumed = await readStream(await fetch(`${server.url}/api/chat/stream?stream_id=${streamId}`, { headers: { 'Last-Event-ID': last.id! } }));
    // Events the server journaled while the client was still reading (and before the kill) come
    // first, each after the last id seen; then the one closing event, under an id of its own.
    const closing = resumed.at(-1)!;
    expect(closing.event).toBe('apperror');
    expect(closing.data).toMatchObject({ type: 'interrupted' });
    expect(resumed.slice(0, -1).filter((f) => ['apperror', 'done', 'cancel', 'stream_end'].includes(f.event))).toEqual([]);
    const seqs = resumed.map((f) => seqOf(f.id));
    expect(seqs[0]).toBe(seqOf(last.id) + 1);
    expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i));

    // No id ever names two events: every id the client saw replays as the same event.
    const replay = await readStream(await fetch(`${server.url}/api/chat/stream?stream_id=${streamId}`));
    const byId = new Map(replay.map((f) => [f.id, f]));
    expect(byId.size).toBe(replay.length);
    for (const f of seen) expect(byId.get(f.id), f.id).toEqual(f);
    expect(replay.at(-1)).toEqual(closing);
    expect(replay.slice(-resumed.length)).toEqual(resumed);
  });

  it('closes a journal the crash left open after done (a first turn killed while its title is requested)', async () => {
    const sid = (await post('/api/session/new', {})).body.session.session_id;
    // The title request never answers: the turn sits between done and stream_end.
    titleScript = [{ delayMs: 60_000 }, { text: 'late' }];
    try {
      model.enqueue([{ text: 'the answer' }]);
      const start = await post('/api/chat/start', { session_id: sid, message: 'first turn' });
      const streamId = start.body.stream_id;
      const seen = await readStream(await fetch(`${server.url}/api/chat/stream?stream_id=${streamId}`), { until: (f) => f.event === 'done' });
      expect(seen.at(-1)!.event).toBe('done');
      await server.stop('SIGKILL');
      server = await startServer(env());

      const status = await get(`/api/chat/stream/status?stream_id=${streamId}`);
      expect(status.journal.terminal_state).not.toBeNull();
      const replay = await readStream(await fetch(`${server.url}/api/chat/stream?stream_id=${streamId}`, { headers: { 'Last-Event-ID': seen.at(-1)!.id! } }));
      expect(replay.map((f) => f.event)).toEqual(['stream_end']);
      expect(seqOf(replay[0]!.id)).toBe(seqOf(seen.at(-1)!.id) + 1);
      // The turn had finished: its answer stands, with no interruption notice.
      const s = (await get(`/api/session?session_id=${sid}`)).session;
      expect(s.active_stream_id).toBeNull();
      expect(s.messages.map((m: any) => m.content)).toEqual(['first turn', 'the answer']);
    } finally {
      titleScript = [{ text: 'T' }];
    }
  });

  it('removes temp files a crash left in sessions/, never a session file', async () => {
    const sid = (await post('/api/session/new', {})).body.session.session_id;
    await post('/api/session/rename', { session_id: sid, title: 'kept' });
    await server.stop('SIGKILL');
    const dir = sessionsDir();
    // What writeFileAtomic names its temp files: <target>.tmp.<pid>.<n>, here of a pid that is no process.
    const stale = [`${sid}.json.tmp.99999999.3`, `_index.json.tmp.99999999.7`, `${sid}.json.bak.tmp.99999999.1`];
    for (const name of stale) await writeFile(join(dir, name), '{"half": ');
    // Not this writer's names: left alone.
    const foreign = [`${sid}.json.tmp`, `${sid}.json.tmp.abc`, 'notes.tmp.1.2.txt'];
    for (const name of foreign) await writeFile(join(dir, name), 'x');
    server = await startServer(env());
    const names = await readdir(dir);
    for (const name of stale) expect(names, name).not.toContain(name);
    for (const name of foreign) expect(names, name).toContain(name);
    expect(names).toContain(`${sid}.json`);
    expect((await get(`/api/session?session_id=${sid}`)).session.title).toBe('kept');
    for (const name of foreign) await rm(join(dir, name));
  });

  it('kill -9 at random moments of busy turns never corrupts a session file', async () => {
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const sids: string[] = [];
    for (let round = 0; round < 6; round++) {
      const sid = (await post('/api/session/new', {})).body.session.session_id;
      sids.push(sid);
      model.enqueue(
        [{ text: 'step ' }, { toolCall: { id: `c${round}`, name: 'write_file', args: { path: `f${round}.txt`, content: 'x'.repeat(5000) } } }],
        Array.from({ length: 30 }, (_, i) => [{ text: `t${i} ` }, { delayMs: 3 }]).flat(),
      );
      const start = await post('/api/chat/start', { session_id: sid, message: `round ${round}` });
      expect(start.status).toBe(200);
      await new Promise((r) => setTimeout(r, Math.floor(random() * 150)));
      await server.stop('SIGKILL');
      await checkIntegrity();
      server = await startServer(env());
      const s = (await get(`/api/session?session_id=${sid}`)).session;
      expect(s.active_stream_id).toBeNull();
      expect(s.messages[0]).toMatchObject({ role: 'user', content: `round ${round}` });
      // Whatever was stored is a valid conversation: every tool result follows its call.
      const calls = new Set(s.messages.flatMap((m: any) => (m.tool_calls ?? []).map((c: any) => c.id)));
      for (const m of s.messages.filter((x: any) => x.role === 'tool')) expect(calls.has(m.tool_call_id)).toBe(true);
      // Scripts the killed turn never reached must not answer the next round.
      model.clear();
    }
    const list = await get('/api/sessions');
    for (const sid of sids) expect(list.sessions.some((r: any) => r.session_id === sid)).toBe(true);
  });
});
