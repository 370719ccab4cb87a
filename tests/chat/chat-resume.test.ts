import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';
import { journalEvent as ev, plantInterruptedTurn } from '../helpers/resume.js';
import { CONTINUE_AFTER_RESTART } from '../../src/agent/builtin/loop.js';
import { INTERRUPTED_TOOL_RESULT } from '../../src/runs/run-resume.js';

/**
 * A built-in turn carries on after a restart (deps.agent.resumeTurn, as recovery calls it at
 * start): over the app's real stores, journal, driver and the scripted model server.
 */
describe('resuming an interrupted built-in turn', () => {
  let t: ChatHarness;
  beforeAll(async () => {
    t = await makeChatApp({ extraYaml: 'approvals:\n  mode: manual\n', clarifyTimeoutMs: 5000 });
  });
  afterAll(async () => t?.close());
  const seqOf = (id: string | undefined) => Number(id!.split(':')[1]);
  const session = async (sid: string) => (await t.call('GET', `/api/session?session_id=${sid}`)).body.session;

  it('keeps the text streamed before, asks the model to continue it, and continues the event sequence', async () => {
    const { sid, streamId } = await plantInterruptedTurn(t, {
      message: 'greet the world',
      events: [ev(1, 'reasoning', { text: 'Greeting.' }), ev(2, 'token', { text: 'Hello ' }), ev(3, 'token', { text: 'wor' })],
    });
    t.model.enqueue([{ text: 'ld!' }]);
    expect(await t.deps.agent.resumeTurn!(sid, streamId)).toBe('resumed');
    // A watcher that saw up to seq 3 gets exactly what follows, numbered on.
    const frames = await t.stream(streamId, { lastEventId: `${streamId}:3` });
    expect(frames[0]).toMatchObject({ event: 'resumed', data: { attempt: 1, partial: true, interrupted_tools: [] } });
    expect(frames.map((f) => seqOf(f.id))).toEqual(frames.map((_, i) => 4 + i));
    expect(frames.filter((f) => f.event === 'token').map((f) => f.data.text)).toEqual(['ld!']);
    expect(frames.at(-1)!.event).toBe('stream_end');

    const request = t.turnRequests().at(-1);
    expect(request.messages.slice(-3)).toMatchObject([
      { role: 'user', content: 'greet the world' },
      { role: 'assistant', content: 'Hello wor' },
      { role: 'user', content: CONTINUE_AFTER_RESTART },
    ]);
    const s = await session(sid);
    expect(s.active_stream_id).toBeNull();
    expect(s.messages.map((m: any) => [m.role, m.content, m._partial ?? false, m._resume_attempt ?? 0])).toEqual([
      ['user', 'greet the world', false, 0],
      ['assistant', 'Hello wor', true, 0],
      ['assistant', 'ld!', false, 1],
    ]);
    expect(s.messages[1].reasoning).toBe('Greeting.');
  });

  it('records a tool call that was running as interrupted, closes its row, and lets the model decide', async () => {
    const call = { id: 'run1', type: 'function', function: { name: 'terminal', arguments: '{"command":"sleep 600"}' } };
    const assistant = { role: 'assistant', content: '', tool_calls: [call], timestamp: 2 };
    const row = { name: 'terminal', preview: 'terminal sleep 600', args: { command: 'sleep 600' }, tool_call_id: 'run1' };
    const { sid, streamId } = await plantInterruptedTurn(t, {
      events: [ev(1, 'tool', { event_type: 'tool.started', ...row })],
      checkpoint: { seq: 0, step: { assistant, results: [] } },
    });
    t.model.enqueue([{ text: 'The sleep was cut short by a restart; not running it again.' }]);
    expect(await t.deps.agent.resumeTurn!(sid, streamId)).toBe('resumed');
    const frames = await t.stream(streamId, { lastEventId: `${streamId}:1` });
    expect(frames.slice(0, 2)).toMatchObject([
      { event: 'resumed', data: { attempt: 1, partial: false, interrupted_tools: [{ tool_call_id: 'run1', name: 'terminal' }] } },
      { event: 'tool_complete', data: { ...row, is_error: true } },
    ]);
    expect(t.turnRequests().at(-1).messages.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'run1', content: INTERRUPTED_TOOL_RESULT });
    const s = await session(sid);
    expect(s.messages.map((m: any) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(s.messages[3]).toMatchObject({ _resume_attempt: 1 });
  });

  it('asks a pending approval again, and runs the command only once it is approved', async () => {
    const call = { id: 'ap1', type: 'function', function: { name: 'terminal', arguments: '{"command":"rm -rf build && echo gone"}' } };
    const assistant = { role: 'assistant', content: '', tool_calls: [call], timestamp: 2 };
    const row = { name: 'terminal', preview: 'terminal rm -rf build', args: {}, tool_call_id: 'ap1' };
    const { sid, streamId } = await plantInterruptedTurn(t, {
      events: [ev(1, 'tool', { event_type: 'tool.started', ...row }), ev(2, 'approval', { command: 'rm -rf build && echo gone', approval_id: 'old' })],
      checkpoint: { seq: 0, step: { assistant, results: [] } },
    });
    t.model.enqueue([{ text: 'Removed.' }]);
    expect(await t.deps.agent.resumeTurn!(sid, streamId)).toBe('resumed');
    const frames = await t.stream(streamId, {
      lastEventId: `${streamId}:2`,
      onFrame: async (f) => {
        if (f.event === 'approval') await t.call('POST', '/api/approval/respond', { session_id: sid, choice: 'once', approval_id: f.data.approval_id });
      },
    });
    expect(frames[0]).toMatchObject({ event: 'resumed', data: { interrupted_tools: [] } });
    expect(frames.map((f) => f.event)).toEqual(expect.arrayContaining(['approval', 'tool_complete', 'done', 'stream_end']));
    const result = t.turnRequests().at(-1).messages.at(-1);
    expect(result).toMatchObject({ role: 'tool', tool_call_id: 'ap1' });
    expect(result.content).toContain('gone');
  });

  it('after the last attempt, ends with a clear resume_failed error instead of trying again', async () => {
    const { sid, streamId } = await plantInterruptedTurn(t, {
      events: [ev(1, 'token', { text: 'a' }), ev(2, 'resumed', { attempt: 1 }), ev(3, 'resumed', { attempt: 2 }), ev(4, 'token', { text: 'b' })],
    });
    const before = t.model.requests.length;
    expect(await t.deps.agent.resumeTurn!(sid, streamId)).toBe('closed');
    const frames = await t.stream(streamId, { lastEventId: `${streamId}:4` });
    expect(frames).toMatchObject([{ event: 'apperror', data: { type: 'resume_failed' } }]);
    expect(seqOf(frames[0]!.id)).toBe(5);
    const s = await session(sid);
    expect(s.active_stream_id).toBeNull();
    expect(s.messages.at(-1)).toMatchObject({ role: 'assistant', _error: true, error_type: 'resume_failed' });
    expect(t.model.requests.length).toBe(before);
  });

  it('closes a turn that already reached done (its answer is stored) with stream_end', async () => {
    const { sid, streamId } = await plantInterruptedTurn(t, { events: [ev(1, 'token', { text: 'x' }), ev(2, 'done', { session: {}, usage: {} })] });
    expect(await t.deps.agent.resumeTurn!(sid, streamId)).toBe('closed');
    const frames = await t.stream(streamId, { lastEventId: `${streamId}:2` });
    expect(frames.map((f) => f.event)).toEqual(['stream_end']);
  });
});
