import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';

/**
 * The incumbent's chat endpoints with the bodies its composer sends (inventory §1.5,
 * api/routes.py): start, stream, stream status and cancel (a GET there).
 */
let t: ChatHarness;
beforeAll(async () => {
  t = await makeChatApp();
});
afterAll(async () => t.close());

/** What the incumbent's composer posts, fields this server does not use included. */
const startBody = (session_id: string, message: string) => ({
  session_id,
  message,
  attachments: [],
  workspace: null,
  model: 'test-model',
  model_provider: 'custom',
  explicit_model_pick: false,
  profile: 'default',
  moa_config: null,
  client_turn_nonce: 'abc',
});

describe('POST /api/chat/start', () => {
  it('answers {stream_id, session_id, pending_started_at, turn_id, title, effective_model, effective_model_provider}', async () => {
    const sid = await t.newSession();
    t.model.enqueue([{ text: 'Hi there' }]);
    const r = await t.call('POST', '/api/chat/start', startBody(sid, 'Hello'));
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ session_id: sid, title: 'Hello', effective_model: 'test-model', effective_model_provider: 'custom' });
    expect(r.body.turn_id).toBe(r.body.stream_id);
    expect(typeof r.body.pending_started_at).toBe('number');
    const frames = await t.stream(r.body.stream_id);
    expect(frames.map((f) => f.event)).toContain('done');
  });

  it('400 "message is required", 404 "Session not found", 409 with active_stream_id while a turn runs', async () => {
    const sid = await t.newSession();
    expect(await t.call('POST', '/api/chat/start', { session_id: sid, message: '   ' })).toMatchObject({ status: 400, body: { error: 'message is required' } });
    expect(await t.call('POST', '/api/chat/start', startBody('000000000000', 'x'))).toMatchObject({ status: 404, body: { error: 'Session not found' } });
    t.model.enqueue([{ text: 'slow' }, { delayMs: 400 }, { text: ' end' }]);
    const first = await t.call('POST', '/api/chat/start', startBody(sid, 'one'));
    const second = await t.call('POST', '/api/chat/start', startBody(sid, 'two'));
    expect(second).toMatchObject({ status: 409, body: { error: 'session already has an active stream', active_stream_id: first.body.stream_id } });
    await t.stream(first.body.stream_id);
  });
});

describe('stream status and cancel', () => {
  it('stream/status: {active, stream_id, replay_available, journal}; no id or an unknown one is inactive (200)', async () => {
    const sid = await t.newSession();
    t.model.enqueue([{ text: 'done' }]);
    const { stream_id } = (await t.call('POST', '/api/chat/start', startBody(sid, 'q'))).body;
    await t.stream(stream_id);
    const st = await t.call('GET', `/api/chat/stream/status?stream_id=${stream_id}`);
    expect(st.status).toBe(200);
    expect(st.body).toMatchObject({ active: false, stream_id, replay_available: true, journal: { terminal_state: expect.any(String) } });
    expect(await t.call('GET', '/api/chat/stream/status')).toMatchObject({ status: 200, body: { active: false, stream_id: '', replay_available: false } });
    expect(await t.call('GET', '/api/chat/stream/status?stream_id=nosuchstream')).toMatchObject({
      status: 200,
      body: { active: false, stream_id: 'nosuchstream', replay_available: false },
    });
  });

  it('GET /api/chat/cancel?stream_id= → {ok, cancelled, stream_id}; an ended or unknown stream is cancelled:false; no id is 400', async () => {
    const sid = await t.newSession();
    t.model.enqueue([{ text: 'Partial' }, { delayMs: 5000 }, { text: ' never' }]);
    const { stream_id } = (await t.call('POST', '/api/chat/start', startBody(sid, 'long'))).body;
    const frames = await t.stream(stream_id, {
      onFrame: async (f) => {
        if (f.event === 'token')
          expect((await t.call('GET', `/api/chat/cancel?stream_id=${stream_id}`)).body).toEqual({ ok: true, cancelled: true, stream_id });
      },
    });
    expect(frames.at(-1)!.event).toBe('cancel');
    expect(await t.call('GET', '/api/chat/cancel?stream_id=nosuchstream')).toMatchObject({
      status: 200,
      body: { ok: true, cancelled: false, stream_id: 'nosuchstream' },
    });
    expect((await t.call('GET', '/api/chat/cancel')).status).toBe(400);
  });

  it('GET /api/chat/stream: 404 "stream not found" for an unknown stream', async () => {
    expect(await t.call('GET', '/api/chat/stream?stream_id=nosuchstream')).toMatchObject({ status: 404, body: { error: 'stream not found' } });
  });
});
