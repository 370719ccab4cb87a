import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';
import type { Frame } from '../helpers/sse.js';

/** The tool results a model request carried, in order. */
const toolContents = (req: any): string[] => req.messages.filter((m: any) => m.role === 'tool').map((m: any) => String(m.content));

describe('POST /api/chat/steer: the route', () => {
  let t: ChatHarness;
  beforeEach(async () => {
    t = await makeChatApp();
  });
  afterEach(async () => t.close());

  it('refuses malformed bodies with 400 {"error"}', async () => {
    const sid = await t.newSession();
    for (const body of [{}, { session_id: sid }, { session_id: sid, text: 5 }, { session_id: sid, text: '   ' }, { session_id: '../x', text: 'hi' }]) {
      const r = await t.call('POST', '/api/chat/steer', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(typeof r.body.error).toBe('string');
    }
  });

  it('answers the incumbent fallbacks: unknown session, idle session, a stream that died', async () => {
    const unknown = await t.call('POST', '/api/chat/steer', { session_id: 'nope_0000', text: 'hi' });
    expect(unknown.status).toBe(200);
    expect(unknown.body).toEqual({ accepted: false, fallback: 'session_not_found', stream_id: null });

    const sid = await t.newSession();
    const idle = await t.call('POST', '/api/chat/steer', { session_id: sid, text: 'hi' });
    expect(idle.body).toEqual({ accepted: false, fallback: 'not_running', stream_id: null });

    // The session names a stream no run owns (the server restarted mid-turn).
    await t.deps.sessions.update(sid, { active_stream_id: 'deadbeef' });
    const dead = await t.call('POST', '/api/chat/steer', { session_id: sid, text: 'hi' });
    expect(dead.body).toEqual({ accepted: false, fallback: 'stream_dead', stream_id: null });
  });
});

describe('steer in the builtin agent', () => {
  let t: ChatHarness;
  beforeEach(async () => {
    t = await makeChatApp();
  });
  afterEach(async () => t.close());

  it('text steered during a slow tool reaches the NEXT model call in its last tool result, is stored there and shown live', async () => {
    const sid = await t.newSession();
    t.model.enqueue(
      [{ text: 'Listing first.' }, { toolCall: { id: 'slow', name: 'terminal', args: { command: 'sleep 1.5 && echo slept' } } }],
      [{ toolCall: { id: 'next', name: 'terminal', args: { command: 'echo second' } } }],
      [{ text: 'Done, in French.' }],
    );
    const { stream_id } = (await t.start(sid, 'run it')).body;
    let answer: any = null;
    const frames = await t.stream(stream_id, {
      onFrame: async (f: Frame) => {
        if (f.event === 'tool' && f.data.tool_call_id === 'slow') {
          answer = (await t.call('POST', '/api/chat/steer', { session_id: sid, text: 'answer in French' })).body;
        }
      },
    });
    expect(answer).toEqual({ accepted: true, fallback: null, stream_id });

    const reqs = t.turnRequests();
    expect(reqs).toHaveLength(3);
    // Not before the boundary: the call in flight when it was typed had no tool result yet.
    expect(JSON.stringify(reqs[0])).not.toContain('answer in French');
    // Hermes' shape: appended to the batch's last tool result, behind "User guidance:".
    expect(toolContents(reqs[1])).toEqual(['{"output":"slept","exit_code":0,"error":null}\n\nUser guidance: answer in French']);
    // Once: the next batch's result carries nothing new.
    expect(toolContents(reqs[2])[1]).not.toContain('User guidance');
    expect(reqs[1].messages.filter((m: any) => m.role === 'user')).toHaveLength(1);

    const applied = frames.filter((f) => f.event === 'steer_applied');
    expect(applied.map((f) => f.data)).toEqual([{ session_id: sid, text: 'answer in French', tool_call_id: 'slow' }]);
    expect(frames.some((f) => f.event === 'pending_steer_leftover')).toBe(false);

    // Stored where it entered, also for a reload.
    const stored = (await t.call('GET', `/api/session?session_id=${sid}`)).body.session;
    const tool = stored.messages.find((m: any) => m.role === 'tool' && m.tool_call_id === 'slow');
    expect(tool._steer).toBe('answer in French');
    expect(tool.content).toMatch(/User guidance: answer in French$/);
  });

  it('a steer the turn never reaches a boundary for comes back as pending_steer_leftover before done', async () => {
    const sid = await t.newSession();
    t.model.enqueue([{ text: 'Thinking ' }, { delayMs: 1000 }, { text: 'out loud.' }]);
    const { stream_id } = (await t.start(sid, 'talk')).body;
    const answers: any[] = [];
    const frames = await t.stream(stream_id, {
      onFrame: async (f: Frame) => {
        if (f.event === 'token' && answers.length === 0) {
          answers.push((await t.call('POST', '/api/chat/steer', { session_id: sid, text: 'first' })).body);
          answers.push((await t.call('POST', '/api/chat/steer', { session_id: sid, text: 'second' })).body);
        }
      },
    });
    expect(answers.map((a) => a.accepted)).toEqual([true, true]);
    const events = frames.map((f) => f.event);
    const leftover = frames.filter((f) => f.event === 'pending_steer_leftover');
    // Two steers join as Hermes joins them, one per line.
    expect(leftover.map((f) => f.data)).toEqual([{ session_id: sid, text: 'first\nsecond' }]);
    expect(events.indexOf('pending_steer_leftover')).toBeLessThan(events.indexOf('done'));
    const stored = (await t.call('GET', `/api/session?session_id=${sid}`)).body.session;
    expect(JSON.stringify(stored.messages)).not.toContain('first\\nsecond');
    // After the turn, nothing takes steers.
    expect((await t.call('POST', '/api/chat/steer', { session_id: sid, text: 'late' })).body.fallback).toBe('not_running');
  });

  it('a cancelled turn hands its unused steer back too', async () => {
    const sid = await t.newSession();
    t.model.enqueue([{ text: 'Long ' }, { delayMs: 5000 }, { text: 'never' }]);
    const { stream_id } = (await t.start(sid, 'long')).body;
    const frames = await t.stream(stream_id, {
      onFrame: async (f: Frame) => {
        if (f.event === 'token') {
          await t.call('POST', '/api/chat/steer', { session_id: sid, text: 'keep me' });
          await t.call('POST', '/api/chat/cancel', { stream_id });
        }
      },
    });
    expect(frames.at(-1)!.event).toBe('cancel');
    expect(frames.find((f) => f.event === 'pending_steer_leftover')?.data.text).toBe('keep me');
  });
});
