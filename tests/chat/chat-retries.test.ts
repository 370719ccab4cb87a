import { afterEach, describe, expect, it } from 'vitest';
import { makeChatApp, isTitleRequest, TITLE, type ChatHarness } from '../helpers/chat.js';
import { makeTestApp } from '../helpers/app.js';
import { startScriptedAnthropic } from '../fixtures/scripted-anthropic.js';
import { readStream, type Frame } from '../helpers/sse.js';

// Pinned jitter: the n-th computed wait is round(base·2^(n−1)·1.25), i.e. 6, 13, 25 ms.
const BACKOFF = { baseDelayMs: 5, maxDelayMs: 1000, random: () => 0.5 };

const retrying = (frames: Frame[]) => frames.filter((f) => f.event === 'retrying').map((f) => f.data);
const names = (frames: Frame[]) => frames.map((f) => f.event);

describe('chat: model calls are retried before the answer starts', () => {
  let t: ChatHarness;
  afterEach(async () => t?.close());

  async function turn(message = 'hello') {
    const sid = await t.newSession();
    const { stream_id } = (await t.start(sid, message)).body;
    return { sid, stream_id, frames: await t.stream(stream_id) };
  }

  it('429 with Retry-After: 0 is asked again at once; the stream says so before the tokens', async () => {
    t = await makeChatApp({ backoff: BACKOFF });
    t.model.enqueue({ status: 429, headers: { 'Retry-After': '0' }, body: { error: { message: 'Rate limit reached' } } }, [
      { text: 'Hello ' },
      { text: 'again' },
    ]);
    const { sid, frames } = await turn();
    // The computed backoff would be 6 ms: 0 is the provider's Retry-After.
    expect(retrying(frames)).toEqual([{ attempt: 1, max: 3, reason: 'rate limited (429)', delay_ms: 0 }]);
    const order = names(frames);
    expect(order.indexOf('retrying')).toBeLessThan(order.indexOf('token'));
    expect(
      frames
        .filter((f) => f.event === 'token')
        .map((f) => f.data.text)
        .join(''),
    ).toBe('Hello again');
    expect(order.at(-1)).toBe('stream_end');
    expect(t.turnRequests()).toHaveLength(2);
    const s = (await t.call('GET', `/api/session?session_id=${sid}`)).body.session;
    expect(s.messages.map((m: any) => [m.role, m.content])).toEqual([
      ['user', 'hello'],
      ['assistant', 'Hello again'],
    ]);
  });

  it('Retry-After in seconds sets the wait (delay_ms 1000 for "1")', async () => {
    t = await makeChatApp({ backoff: BACKOFF });
    t.model.enqueue({ status: 429, headers: { 'Retry-After': '1' } }, [{ text: 'waited' }]);
    const { frames } = await turn();
    expect(retrying(frames)).toEqual([{ attempt: 1, max: 3, reason: 'rate limited (429)', delay_ms: 1000 }]);
    expect(names(frames).at(-1)).toBe('stream_end');
  });

  it('503, then 503, then an answer: two retries with growing backoff', async () => {
    t = await makeChatApp({ backoff: BACKOFF });
    t.model.enqueue({ status: 503 }, { status: 503 }, [{ text: 'up again' }]);
    const { frames } = await turn();
    expect(retrying(frames)).toEqual([
      { attempt: 1, max: 3, reason: 'server error (503)', delay_ms: 6 },
      { attempt: 2, max: 3, reason: 'server error (503)', delay_ms: 13 },
    ]);
    expect(frames.find((f) => f.event === 'done')!.data.session.messages.at(-1).content).toBe('up again');
    expect(t.turnRequests()).toHaveLength(3);
  });

  it('a connection reset before any byte, then an answer', async () => {
    t = await makeChatApp({ backoff: BACKOFF });
    t.model.enqueue({ reset: true }, [{ text: 'reconnected' }]);
    const { frames } = await turn();
    expect(retrying(frames)).toEqual([{ attempt: 1, max: 3, reason: 'connection reset', delay_ms: 6 }]);
    expect(
      frames
        .filter((f) => f.event === 'token')
        .map((f) => f.data.text)
        .join(''),
    ).toBe('reconnected');
    expect(t.turnRequests()).toHaveLength(2);
  });

  it('retries exhausted: exactly max+1 requests, then the apperror and stored notice as without retries', async () => {
    t = await makeChatApp({ backoff: BACKOFF });
    // Every request fails, so a fifth one would be counted too.
    t.model.setFallback(() => ({ status: 503, body: { error: { message: 'upstream overloaded' } } }));
    const { sid, frames } = await turn();
    expect(retrying(frames).map((r) => [r.attempt, r.max, r.delay_ms])).toEqual([
      [1, 3, 6],
      [2, 3, 13],
      [3, 3, 25],
    ]);
    expect(t.turnRequests()).toHaveLength(4);
    const last = frames.at(-1)!;
    expect(last.event).toBe('apperror');
    expect(last.data).toMatchObject({ type: 'error' });
    expect(last.data.message).toContain('HTTP 503: upstream overloaded');
    expect(names(frames).slice(-2)).toEqual(['retrying', 'apperror']);
    const s = (await t.call('GET', `/api/session?session_id=${sid}`)).body.session;
    expect(s.active_stream_id).toBeNull();
    expect(s.messages.at(-1)).toMatchObject({ role: 'assistant', _error: true, error_type: 'error' });
    expect(t.turnRequests()).toHaveLength(4);
  });

  it('agent.api_max_retries sets the count: 1 → two requests, and max 1 in the event', async () => {
    t = await makeChatApp({ backoff: BACKOFF, extraYaml: 'agent:\n  api_max_retries: 1\n' });
    t.model.setFallback(() => ({ status: 500 }));
    const { frames } = await turn();
    expect(retrying(frames)).toEqual([{ attempt: 1, max: 1, reason: 'server error (500)', delay_ms: 6 }]);
    expect(t.turnRequests()).toHaveLength(2);
    expect(frames.at(-1)!.event).toBe('apperror');
  });

  it('agent.api_max_retries: 0 → one request, no retrying event', async () => {
    t = await makeChatApp({ backoff: BACKOFF, extraYaml: 'agent:\n  api_max_retries: 0\n' });
    t.model.enqueue({ status: 503 });
    // A retry would have found this answer.
    t.model.setFallback(() => [{ text: 'should not be asked for' }]);
    const { frames } = await turn();
    expect(retrying(frames)).toEqual([]);
    expect(frames.at(-1)).toMatchObject({ event: 'apperror', data: { type: 'error' } });
    expect(t.turnRequests()).toHaveLength(1);
  });

  it('a failure after the first token is not retried: one request, the partial answer lost as today', async () => {
    t = await makeChatApp({ backoff: BACKOFF });
    t.model.enqueue([{ text: 'Half an ans' }, { drop: true }]);
    t.model.setFallback(() => [{ text: 'should not be asked for' }]);
    const { frames } = await turn();
    expect(retrying(frames)).toEqual([]);
    expect(frames.at(-1)).toMatchObject({ event: 'apperror', data: { type: 'no_response' } });
    expect(t.turnRequests()).toHaveLength(1);
  });

  it('4xx other than 429 and 408 is not retried', async () => {
    t = await makeChatApp({ backoff: BACKOFF });
    t.model.enqueue({ status: 400, body: { error: { message: 'messages: too long' } } });
    t.model.setFallback(() => [{ text: 'should not be asked for' }]);
    const { frames } = await turn();
    expect(retrying(frames)).toEqual([]);
    expect(frames.at(-1)!.data.message).toContain('messages: too long');
    expect(t.turnRequests()).toHaveLength(1);
  });

  it('a Retry-After past the 60 s cap is not waited for: the 429 is reported at once', async () => {
    t = await makeChatApp({ backoff: BACKOFF });
    t.model.enqueue({ status: 429, headers: { 'Retry-After': '3600' }, body: { error: { message: 'daily quota used up' } } });
    t.model.setFallback(() => [{ text: 'should not be asked for' }]);
    const { frames } = await turn();
    expect(retrying(frames)).toEqual([]);
    expect(frames.at(-1)).toMatchObject({ event: 'apperror', data: { type: 'rate_limit' } });
    expect(frames.at(-1)!.data.hint).toContain('retry after 3600 s');
    expect(t.turnRequests()).toHaveLength(1);
  });

  it('cancel during the wait ends the turn at once, with no further request', async () => {
    t = await makeChatApp({ backoff: BACKOFF });
    // 30 s: well inside the cap, far beyond the test's patience.
    t.model.enqueue({ status: 429, headers: { 'Retry-After': '30' } });
    t.model.setFallback(() => [{ text: 'should not be asked for' }]);
    const sid = await t.newSession();
    const { stream_id } = (await t.start(sid, 'hello')).body;
    const frames = await t.stream(stream_id, {
      onFrame: async (f) => {
        if (f.event === 'retrying') expect((await t.call('POST', '/api/chat/cancel', { stream_id })).body).toMatchObject({ cancelled: true });
      },
    });
    expect(retrying(frames)).toEqual([{ attempt: 1, max: 3, reason: 'rate limited (429)', delay_ms: 30000 }]);
    expect(frames.at(-1)!.event).toBe('cancel');
    expect(t.turnRequests()).toHaveLength(1);
    const s = (await t.call('GET', `/api/session?session_id=${sid}`)).body.session;
    expect(s.active_stream_id).toBeNull();
    expect(s.messages.filter((m: any) => m._partial)).toEqual([]);
  });

  it('a failed title request is not retried (the provisional title stays)', async () => {
    t = await makeChatApp({ backoff: BACKOFF });
    t.model.setRouter((req) => (isTitleRequest(req) ? { status: 503 } : undefined));
    t.model.enqueue([{ text: 'answer' }]);
    const { sid, frames } = await turn('name this chat');
    expect(names(frames).at(-1)).toBe('stream_end');
    expect(names(frames)).not.toContain('title');
    expect(retrying(frames)).toEqual([]);
    expect(t.model.requests.filter(isTitleRequest)).toHaveLength(1);
    const s = (await t.call('GET', `/api/session?session_id=${sid}`)).body.session;
    expect(s.llm_title_generated).not.toBe(true);
    expect(s.title).not.toBe(TITLE);
  });
});

describe('chat: retries over the Anthropic Messages API', () => {
  it('529 overloaded, a reset, and an overloaded_error event before any text are each asked again', async () => {
    const model = await startScriptedAnthropic();
    const isTitle = (req: { body: any }) => String(req.body?.system ?? '').startsWith('Write a title');
    model.setRouter((req) => (isTitle(req) ? [{ text: 'Anthropic title' }] : undefined));
    model.setFallback(() => ({ status: 500, body: 'no script queued' }));
    const t = await makeTestApp({
      configYaml: `model:\n  default: claude-test\n  provider: anthropic\n  base_url: ${model.url}\n`,
      agentEnv: { ANTHROPIC_API_KEY: 'sk-ant-test' },
      backoff: BACKOFF,
    });
    try {
      const sid = await t.newSession();
      model.enqueue({ status: 529 }, { reset: true }, [{ streamError: { type: 'overloaded_error', message: 'Overloaded' } }], [{ text: 'finally' }]);
      const start = await t.call('POST', '/api/chat/start', { session_id: sid, message: 'hi' });
      const frames = await readStream(await t.app.request(`/api/chat/stream?stream_id=${start.body.stream_id}`));
      expect(retrying(frames).map((r) => r.reason)).toEqual(['server error (529)', 'connection reset', 'server error (529)']);
      expect(
        frames
          .filter((f) => f.event === 'token')
          .map((f) => f.data.text)
          .join(''),
      ).toBe('finally');
      expect(model.requests.filter((r) => !isTitle(r))).toHaveLength(4);
    } finally {
      await t.close();
      await model.close();
    }
  });
});
