import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';
import { makeTestApp } from '../helpers/app.js';
import { readStream } from '../helpers/sse.js';

describe('chat: provider failures end the turn with apperror and a stored notice', () => {
  let t: ChatHarness;
  beforeEach(async () => {
    // One request per turn: this is how each failure is reported; chat-retries.test.ts covers asking again.
    t = await makeChatApp({ extraYaml: 'agent:\n  api_max_retries: 0\n' });
  });
  afterEach(async () => t.close());

  const cases: Array<[string, any, string]> = [
    ['401', { status: 401, body: { error: { message: 'Incorrect API key provided' } } }, 'auth_mismatch'],
    ['429', { status: 429, headers: { 'Retry-After': '20' }, body: { error: { message: 'Rate limit reached' } } }, 'rate_limit'],
    ['404', { status: 404, body: { error: { message: 'The model `test-model` does not exist' } } }, 'model_not_found'],
    ['500', { status: 500, body: { error: { message: 'upstream exploded' } } }, 'error'],
    ['a dropped connection', [{ text: 'Half an ans' }, { drop: true }], 'no_response'],
    ['a malformed stream', [{ text: 'ok' }, { raw: 'data: {not json' }], 'error'],
    ['a stream that stops without finishing', [{ text: 'trailing' }, { end: true }], 'no_response'],
  ];

  for (const [label, script, type] of cases) {
    it(`${label} → apperror ${type}`, async () => {
      const sid = await t.newSession();
      t.model.enqueue(script);
      const { stream_id } = (await t.start(sid, 'hello')).body;
      const frames = await t.stream(stream_id);
      const last = frames.at(-1)!;
      expect(last.event).toBe('apperror');
      expect(last.data.type).toBe(type);
      expect(typeof last.data.hint).toBe('string');
      expect(last.data.hint.length).toBeGreaterThan(5);
      expect(frames.map((f) => f.event)).not.toContain('stream_end');
      const s = (await t.call('GET', `/api/session?session_id=${sid}`)).body.session;
      expect(s.active_stream_id).toBeNull();
      const notice = s.messages.at(-1);
      expect(notice).toMatchObject({ role: 'assistant', _error: true, error_type: last.data.type });
      expect(s.messages[0]).toMatchObject({ role: 'user', content: 'hello' });
      // The session is usable again, and the notice is not sent to the model as conversation.
      t.model.enqueue([{ text: 'recovered' }]);
      await t.stream((await t.start(sid, 'again')).body.stream_id);
      const req = t.turnRequests().at(-1);
      expect(req.messages.slice(1).map((m: any) => m.content)).toEqual(['hello', 'again']);
    });
  }

  it('the classified types are exact for HTTP failures', async () => {
    for (const [status, type] of [
      [401, 'auth_mismatch'],
      [429, 'rate_limit'],
      [404, 'model_not_found'],
    ] as const) {
      const sid = await t.newSession();
      t.model.enqueue({ status, body: { error: { message: `status ${status}` } } });
      const frames = await t.stream((await t.start(sid, 'x')).body.stream_id);
      expect(frames.at(-1)!.data.type).toBe(type);
    }
  });
});

describe('chat: unreachable provider', () => {
  it('connection refused → apperror no_response with a hint naming the URL', async () => {
    const t = await makeTestApp({ configYaml: 'model:\n  default: m\n  provider: custom\n  base_url: http://127.0.0.1:9/v1\n' });
    try {
      const sid = await t.newSession();
      const start = await t.call('POST', '/api/chat/start', { session_id: sid, message: 'hi' });
      expect(start.status).toBe(200);
      const res = await t.app.request(`/api/chat/stream?stream_id=${start.body.stream_id}`);
      const frames = await readStream(res);
      expect(frames.at(-1)).toMatchObject({ event: 'apperror', data: { type: 'no_response' } });
      expect(frames.at(-1)!.data.hint).toContain('127.0.0.1:9');
    } finally {
      await t.close();
    }
  });
});

describe('chat: context compression', () => {
  it('summarises the middle with the model when the prompt passes the threshold, keeping head and tail', async () => {
    const t = await makeChatApp({ extraYaml: '  context_length: 1000\ncompression:\n  threshold: 0.5\n  protect_last_n: 2\n  protect_first_n: 1\n' });
    try {
      const sid = await t.newSession();
      for (let i = 1; i <= 3; i++) {
        t.model.enqueue([{ text: `answer ${i}` }, { usage: { inputTokens: 100 * i, outputTokens: 5 } }]);
        await t.stream((await t.start(sid, `question ${i}`)).body.stream_id);
      }
      // Force the next turn over the trigger (850 for a 1,000-token window): the last call reported 900 prompt tokens.
      t.model.enqueue([{ text: 'x' }, { usage: { inputTokens: 900, outputTokens: 1 } }]);
      await t.stream((await t.start(sid, 'question 4')).body.stream_id);
      t.model.enqueue([{ text: 'SUMMARY: the user asked questions 1-3.' }], [{ text: 'answer 5' }]);
      const frames = await t.stream((await t.start(sid, 'question 5')).body.stream_id);
      const names = frames.map((f) => f.event);
      expect(names.indexOf('compressing')).toBeGreaterThanOrEqual(0);
      expect(names.indexOf('compressed')).toBeGreaterThan(names.indexOf('compressing'));
      expect(names.indexOf('compressed')).toBeLessThan(names.indexOf('token'));
      const [summaryReq, turnReq] = t.turnRequests().slice(-2);
      expect(summaryReq.messages[0].content).toMatch(/summar/i);
      expect(summaryReq.messages[1].content).toContain('answer 2');
      const contents = turnReq.messages.slice(1).map((m: any) => m.content);
      // Head (the first question), the summary, then the kept tail.
      expect(contents[0]).toBe('question 1');
      expect(contents[1]).toContain('SUMMARY: the user asked questions 1-3.');
      expect(contents.at(-1)).toBe('question 5');
      expect(contents).not.toContain('answer 2');
      // The transcript the user sees is whole.
      const s = (await t.call('GET', `/api/session?session_id=${sid}`)).body.session;
      expect(s.messages.filter((m: any) => m.role === 'user')).toHaveLength(5);
      expect(s.compression_anchor_summary).toContain('SUMMARY');
    } finally {
      await t.close();
    }
  });
});
