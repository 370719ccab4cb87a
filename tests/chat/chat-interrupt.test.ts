import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';

/**
 * The busy composer's interrupt: cancel the running turn, then send the new message as soon as
 * the session is free. What the turn had produced stays in the transcript and reaches the model
 * with the next message.
 */
describe('chat: interrupt (cancel, then send)', () => {
  let t: ChatHarness;
  beforeEach(async () => {
    t = await makeChatApp();
  });
  afterEach(async () => t.close());

  const session = async (sid: string) => (await t.call('GET', `/api/session?session_id=${sid}`)).body.session;

  it('keeps the partial answer, and the next message’s model request carries it', async () => {
    const sid = await t.newSession();
    t.model.enqueue([{ text: 'The first half ' }, { text: 'of an answer' }, { delayMs: 5000 }, { text: ' never streamed' }]);
    const { stream_id } = (await t.start(sid, 'explain it')).body;
    const frames = await t.stream(stream_id, {
      onFrame: async (f) => {
        if (f.event === 'token' && f.data.text === 'of an answer') await t.call('POST', '/api/chat/cancel', { stream_id });
      },
    });
    expect(frames.at(-1)!.event).toBe('cancel');
    // The cancel event's session (what the browser settles on) already holds the partial text.
    expect(frames.at(-1)!.data.session.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'The first half of an answer', _partial: true });

    t.model.enqueue([{ text: 'Doing that instead.' }]);
    const next = await t.start(sid, 'stop, do this instead');
    expect(next.status).toBe(200);
    await t.stream(next.body.stream_id);
    const s = await session(sid);
    expect(s.messages.map((m: any) => [m.role, m.content, !!m._partial])).toEqual([
      ['user', 'explain it', false],
      ['assistant', 'The first half of an answer', true],
      ['user', 'stop, do this instead', false],
      ['assistant', 'Doing that instead.', false],
    ]);
    const sent = t.turnRequests().at(-1).messages.slice(1);
    expect(sent.map((m: any) => [m.role, m.content])).toEqual([
      ['user', 'explain it'],
      ['assistant', 'The first half of an answer'],
      ['user', 'stop, do this instead'],
    ]);
  });

  it('while a tool runs: the text before the call is kept, the call reads as interrupted, and the next turn is well formed', async () => {
    const sid = await t.newSession();
    t.model.enqueue([{ text: 'Let me wait on it.' }, { toolCall: { id: 'slow', name: 'terminal', args: { command: 'sleep 20' } } }]);
    const { stream_id } = (await t.start(sid, 'run the slow thing')).body;
    const started = Date.now();
    const frames = await t.stream(stream_id, {
      onFrame: async (f) => {
        if (f.event === 'tool' && f.data.tool_call_id === 'slow') await t.call('POST', '/api/chat/cancel', { stream_id });
      },
    });
    expect(frames.at(-1)!.event).toBe('cancel');
    // The command was stopped, not waited for.
    expect(Date.now() - started).toBeLessThan(15_000);
    const stored = (await session(sid)).messages;
    expect(stored.map((m: any) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(stored[1]).toMatchObject({ content: 'Let me wait on it.' });
    expect(stored[1].tool_calls.map((c: any) => c.id)).toEqual(['slow']);
    expect(stored[2]).toMatchObject({ tool_call_id: 'slow' });
    expect(stored[2].content).toContain('interrupted');

    t.model.enqueue([{ text: 'Skipped it.' }]);
    const next = await t.start(sid, 'never mind that');
    await t.stream(next.body.stream_id);
    const sent = t.turnRequests().at(-1).messages.slice(1);
    // The unfinished call gets its result (the provider refuses a call without one).
    expect(sent.map((m: any) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(sent[1]).toMatchObject({ content: 'Let me wait on it.' });
    expect(sent[2]).toMatchObject({ tool_call_id: 'slow' });
    expect(sent[2].content).toContain('interrupted');
    expect(sent[3]).toMatchObject({ content: 'never mind that' });
  });
});
