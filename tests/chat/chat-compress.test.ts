import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';

/** Runs `n` plain exchanges ("question i" → "answer i"). */
async function exchanges(t: ChatHarness, sid: string, n: number) {
  for (let i = 1; i <= n; i++) {
    t.model.enqueue([{ text: `answer ${i}` }]);
    await t.stream((await t.start(sid, `question ${i}`)).body.stream_id);
  }
}

async function poll(t: ChatHarness, sid: string) {
  for (let i = 0; i < 200; i++) {
    const r = await t.call('GET', `/api/session/compress/status?session_id=${sid}`);
    if (r.body.status !== 'running') return r;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('compression job never finished');
}

describe('manual compression routes', () => {
  let t: ChatHarness;
  beforeEach(async () => {
    t = await makeChatApp({ extraYaml: 'compression:\n  protect_first_n: 1\n  protect_last_n: 20\n' });
  });
  afterEach(async () => t.close());

  it('refuses bad bodies, unknown sessions and fewer than 4 messages', async () => {
    expect((await t.call('POST', '/api/session/compress', {})).status).toBe(400);
    expect((await t.call('POST', '/api/session/compress', { session_id: 'x', focus_topic: 5 })).status).toBe(400);
    expect((await t.call('POST', '/api/session/compress', { session_id: 'nope_0000' })).status).toBe(404);
    const bad = await t.call('GET', '/api/session/compress/status');
    expect(bad.status).toBe(400);
    expect(typeof bad.body.error).toBe('string');
    const sid = await t.newSession();
    await exchanges(t, sid, 1);
    const short = await t.call('POST', '/api/session/compress', { session_id: sid });
    expect(short.status).toBe(400);
    expect(short.body.error).toMatch(/at least 4 messages/);
    expect((await t.call('POST', '/api/session/compress/start', { session_id: sid })).status).toBe(400);
  });

  it('answers 409 while the session streams', async () => {
    const sid = await t.newSession();
    await exchanges(t, sid, 2);
    t.model.enqueue([{ text: 'slow' }, { delayMs: 400 }, { text: ' end' }]);
    const { stream_id } = (await t.start(sid, 'question 3')).body;
    const busy = await t.call('POST', '/api/session/compress', { session_id: sid });
    expect(busy.status).toBe(409);
    expect(busy.body.error).toMatch(/streaming/);
    expect((await t.call('POST', '/api/session/compress/start', { session_id: sid })).status).toBe(409);
    await t.stream(stream_id);
  });

  it('compresses a session shorter than protect_last_n: everything before the last exchange, and the next request carries the summary only', async () => {
    const sid = await t.newSession();
    await exchanges(t, sid, 3);
    t.model.enqueue([{ text: 'SUMMARY: questions one and two were answered.' }]);
    const r = await t.call('POST', '/api/session/compress', { session_id: sid, focus_topic: 'the database schema' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: true, focus_topic: 'the database schema' });
    expect(r.body.summary.headline).toMatch(/Compressed/);
    expect(r.body.summary.reference_message).toContain('SUMMARY');
    // protect_first_n: 1 keeps "question 1"; the last exchange (question 3, answer 3) stays: index 4.
    expect(r.body.session.compression_anchor_visible_idx).toBe(4);
    const summaryReq = t.turnRequests().at(-1);
    expect(summaryReq.messages[0].content).toContain('the database schema');
    expect(summaryReq.messages[1].content).toContain('answer 2');
    expect(summaryReq.messages[1].content).not.toContain('question 3');

    t.model.enqueue([{ text: 'answer 4' }]);
    await t.stream((await t.start(sid, 'question 4')).body.stream_id);
    const contents = t
      .turnRequests()
      .at(-1)
      .messages.slice(1)
      .map((m: any) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));
    expect(contents[0]).toBe('question 1');
    expect(contents[1]).toContain('SUMMARY: questions one and two were answered.');
    expect(contents).not.toContain('answer 1');
    expect(contents).not.toContain('question 2');
    expect(contents).not.toContain('answer 2');
    expect(contents.slice(-3)).toEqual(['question 3', 'answer 3', 'question 4']);
    // The transcript people read stays whole.
    const s = (await t.call('GET', `/api/session?session_id=${sid}`)).body.session;
    expect(s.messages.filter((m: any) => m.role === 'user')).toHaveLength(4);
  });

  it('a 4-message session with a long protected head summarises its whole first exchange', async () => {
    await t.close();
    t = await makeChatApp({ extraYaml: 'compression:\n  protect_first_n: 3\n' });
    const sid = await t.newSession();
    await exchanges(t, sid, 2);
    t.model.enqueue([{ text: 'SUMMARY: one question answered.' }]);
    const r = await t.call('POST', '/api/session/compress', { session_id: sid });
    expect(r.status).toBe(200);
    expect(r.body.session.compression_anchor_visible_idx).toBe(2);
    // Nothing left before the last exchange: a second compression has nothing to do.
    const again = await t.call('POST', '/api/session/compress', { session_id: sid });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/Nothing to compress/);
    t.model.enqueue([{ text: 'answer 3' }]);
    await t.stream((await t.start(sid, 'question 3')).body.stream_id);
    const contents = t
      .turnRequests()
      .at(-1)
      .messages.slice(1)
      .map((m: any) => m.content);
    // No head: the summary opens the conversation, folded into the first kept user message.
    expect(contents).toHaveLength(3);
    expect(contents[0]).toContain('SUMMARY: one question answered.');
    expect(contents[0].endsWith('question 2')).toBe(true);
    expect(contents.join('\n')).not.toContain('question 1');
    expect(contents.slice(1)).toEqual(['answer 2', 'question 3']);
  });

  it('start + status: running, then done with the result; idle for a session without a job', async () => {
    const sid = await t.newSession();
    const idle = await t.call('GET', `/api/session/compress/status?session_id=${sid}`);
    expect(idle.body).toEqual({ ok: true, status: 'idle', session_id: sid });
    await exchanges(t, sid, 2);
    t.model.enqueue([{ delayMs: 100 }, { text: 'SUMMARY: async.' }]);
    const start = await t.call('POST', '/api/session/compress/start', { session_id: sid, topic: 'tests' });
    expect(start.status).toBe(200);
    expect(start.body).toMatchObject({ ok: true, status: 'running', session_id: sid, focus_topic: 'tests' });
    const again = await t.call('POST', '/api/session/compress/start', { session_id: sid });
    expect(again.body.status).toBe('running');
    const done = await poll(t, sid);
    expect(done.body).toMatchObject({ ok: true, status: 'done', session_id: sid, focus_topic: 'tests' });
    expect(done.body.session.compression_anchor_summary).toBe('SUMMARY: async.');
    // Still readable by a second tab.
    expect((await t.call('GET', `/api/session/compress/status?session_id=${sid}`)).body.status).toBe('done');
  });

  it('a failing summary model reports the job as an error with its status', async () => {
    await t.close();
    t = await makeChatApp({ extraYaml: 'agent:\n  api_max_retries: 0\ncompression:\n  abort_on_summary_failure: true\n' });
    const sid = await t.newSession();
    await exchanges(t, sid, 2);
    t.model.enqueue({ status: 500, body: { error: { message: 'boom' } } });
    await t.call('POST', '/api/session/compress/start', { session_id: sid });
    const done = await poll(t, sid);
    expect(done.body).toMatchObject({ ok: false, status: 'error', session_id: sid });
    expect(done.body.error_status).toBe(502);
    expect(done.body.error).toMatch(/summary/i);
    const s = (await t.call('GET', `/api/session?session_id=${sid}`)).body.session;
    expect(s.compression_anchor_visible_idx ?? null).toBeNull();
  });
});
