import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeChatApp, TITLE, type ChatHarness } from '../helpers/chat.js';
import { makeTestApp } from '../helpers/app.js';

describe('chat: a plain answer', () => {
  let t: ChatHarness;
  beforeEach(async () => {
    t = await makeChatApp();
  });
  afterEach(async () => t.close());

  it('streams tokens and reasoning, stores the turn, sums usage, then titles the session', async () => {
    const sid = await t.newSession();
    t.model.enqueue([
      { reasoning: 'The user greets me.' },
      { text: 'Hello' },
      { text: ', world' },
      { usage: { inputTokens: 120, outputTokens: 7, cost: 0.002 } },
    ]);
    const start = await t.start(sid, '  Say hello to the world please  ');
    expect(start.status).toBe(200);
    expect(start.body).toMatchObject({ session_id: sid, title: 'Say hello to the world please' });
    expect(start.body.stream_id).toMatch(/^[0-9a-f]{32}$/);

    const frames = await t.stream(start.body.stream_id);
    const names = frames.map((f) => f.event);
    expect(names.filter((n) => n === 'token')).toHaveLength(2);
    expect(names.indexOf('reasoning')).toBeLessThan(names.indexOf('token'));
    expect(names.slice(-3)).toEqual(['done', 'title', 'stream_end']);
    expect(
      frames
        .filter((f) => f.event === 'token')
        .map((f) => f.data.text)
        .join(''),
    ).toBe('Hello, world');
    // Every frame carries id <stream_id>:<seq>, seq counting from 1 with no gaps.
    expect(frames.map((f) => f.id)).toEqual(frames.map((_, i) => `${start.body.stream_id}:${i + 1}`));

    const done = frames.find((f) => f.event === 'done')!.data;
    expect(done.usage).toEqual({ input_tokens: 120, output_tokens: 7, estimated_cost: 0.002 });
    expect(done.session.messages.map((m: any) => [m.role, m.content])).toEqual([
      ['user', 'Say hello to the world please'],
      ['assistant', 'Hello, world'],
    ]);
    expect(done.session.messages[1].reasoning).toBe('The user greets me.');
    expect(done.session.active_stream_id).toBeNull();
    expect(frames.find((f) => f.event === 'title')!.data).toEqual({ session_id: sid, title: TITLE });

    const stored = (await t.call('GET', `/api/session?session_id=${sid}`)).body.session;
    expect(stored).toMatchObject({ title: TITLE, input_tokens: 120, output_tokens: 7, estimated_cost: 0.002, llm_title_generated: true, message_count: 2 });
    // The model saw the system prompt and the user's message, and our stream options.
    const req = t.turnRequests()[0];
    expect(req.model).toBe('test-model');
    expect(req.stream).toBe(true);
    expect(req.messages[0].role).toBe('system');
    expect(req.messages.at(-1)).toEqual({ role: 'user', content: 'Say hello to the world please' });
  });

  it('a second turn sends the whole conversation and keeps the title', async () => {
    const sid = await t.newSession();
    t.model.enqueue([{ text: 'First answer' }], [{ text: 'Second answer' }]);
    await t.stream((await t.start(sid, 'first')).body.stream_id);
    const frames = await t.stream((await t.start(sid, 'second')).body.stream_id);
    expect(frames.map((f) => f.event)).not.toContain('title');
    const req = t.turnRequests()[1];
    expect(req.messages.slice(1).map((m: any) => [m.role, m.content])).toEqual([
      ['user', 'first'],
      ['assistant', 'First answer'],
      ['user', 'second'],
    ]);
    expect((await t.call('GET', `/api/session?session_id=${sid}`)).body.session.title).toBe(TITLE);
  });

  it('refuses a second turn while one runs (409 with the active stream id)', async () => {
    const sid = await t.newSession();
    t.model.enqueue([{ text: 'slow' }, { delayMs: 300 }, { text: ' answer' }]);
    const first = await t.start(sid, 'one');
    const second = await t.start(sid, 'two');
    expect(second.status).toBe(409);
    expect(second.body).toEqual({ error: 'session already has an active stream', active_stream_id: first.body.stream_id });
    await t.stream(first.body.stream_id);
    t.model.enqueue([{ text: 'ok' }]);
    expect((await t.start(sid, 'three')).status).toBe(200);
  });

  it('bad input: unknown session 404, empty message 400, unknown stream 404, bad stream id 400', async () => {
    expect((await t.start('abcdefabcdef', 'hi')).status).toBe(404);
    const sid = await t.newSession();
    const empty = await t.start(sid, '   ');
    expect(empty).toEqual({ status: 400, body: { error: 'message is required' } });
    expect((await t.call('POST', '/api/chat/start', { session_id: sid })).body).toEqual({ error: 'message is required' });
    expect((await t.call('GET', '/api/chat/stream?stream_id=ffffffffffffffff')).status).toBe(404);
    expect((await t.call('GET', '/api/chat/stream?stream_id=../../x')).status).toBe(400);
    expect((await t.call('GET', '/api/chat/stream')).body).toEqual({ error: 'stream_id is required' });
  });

  it('status tells whether a stream is live and replayable', async () => {
    const sid = await t.newSession();
    t.model.enqueue([{ text: 'a' }, { delayMs: 200 }, { text: 'b' }]);
    const { stream_id } = (await t.start(sid, 'hi')).body;
    const live = await t.call('GET', `/api/chat/stream/status?stream_id=${stream_id}`);
    expect(live.body).toMatchObject({ active: true, stream_id, session_id: sid, replay_available: true });
    await t.stream(stream_id);
    const after = await t.call('GET', `/api/chat/stream/status?stream_id=${stream_id}`);
    expect(after.body).toMatchObject({ active: false, replay_available: true });
    const unknown = await t.call('GET', '/api/chat/stream/status?stream_id=0000');
    expect(unknown.body).toEqual({ active: false, stream_id: '0000', replay_available: false });
  });

  it('health counts the active run', async () => {
    const sid = await t.newSession();
    t.model.enqueue([{ text: 'a' }, { delayMs: 300 }, { text: 'b' }]);
    const { stream_id } = (await t.start(sid, 'hi')).body;
    const health = (await t.call('GET', '/health')).body;
    expect(health.active_runs).toBe(1);
    expect(health.runs[0]).toMatchObject({ stream_id, session_id: sid });
    await t.stream(stream_id);
    expect((await t.call('GET', '/health')).body).toMatchObject({ active_runs: 0 });
  });
});

describe('chat: no model configured', () => {
  it('answers 400 saying how to configure one, and stores nothing', async () => {
    const t = await makeTestApp();
    try {
      const sid = await t.newSession();
      const r = await t.call('POST', '/api/chat/start', { session_id: sid, message: 'hello' });
      expect(r.status).toBe(400);
      expect(r.body.error).toContain('config.yaml');
      expect(r.body.error).toMatch(/model/);
      const s = (await t.call('GET', `/api/session?session_id=${sid}`)).body.session;
      expect(s.messages).toEqual([]);
      expect(s.active_stream_id ?? null).toBeNull();
    } finally {
      await t.close();
    }
  });

  it('a broken config.yaml is a 400 that names the problem', async () => {
    const t = await makeTestApp({ configYaml: 'model: [unclosed' });
    try {
      const sid = await t.newSession();
      const r = await t.call('POST', '/api/chat/start', { session_id: sid, message: 'hello' });
      expect(r.status).toBe(400);
      expect(r.body.error).toMatch(/config\.yaml/);
    } finally {
      await t.close();
    }
  });
});

describe('chat: fs storage', () => {
  it('persists the user message before the run and journals the run for replay', async () => {
    const t = await makeChatApp({ storage: 'fs' });
    try {
      const sid = await t.newSession();
      t.model.enqueue([{ delayMs: 150 }, { text: 'done' }]);
      const { stream_id } = (await t.start(sid, 'persist me')).body;
      const onDisk = JSON.parse(await readFile(join(t.stateDir, 'sessions', `${sid}.json`), 'utf8'));
      expect(onDisk.messages.map((m: any) => m.content)).toEqual(['persist me']);
      expect(onDisk.active_stream_id).toBe(stream_id);
      const frames = await t.stream(stream_id);
      const journal = (await readFile(join(t.stateDir, 'sessions', '_run_journal', sid, `${stream_id}.jsonl`), 'utf8')).trim().split('\n');
      expect(journal.map((l) => JSON.parse(l).event)).toEqual(frames.map((f) => f.event));
    } finally {
      await t.close();
    }
  });
});
