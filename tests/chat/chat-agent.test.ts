import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';
import type { Frame } from '../helpers/sse.js';

/** The newest tool result the model received for `callId` in a request. */
function toolResult(req: any, callId: string): string {
  return req.messages.findLast((m: any) => m.role === 'tool' && m.tool_call_id === callId)?.content;
}

describe('chat: tools', () => {
  let t: ChatHarness;
  beforeEach(async () => {
    t = await makeChatApp();
  });
  afterEach(async () => t.close());

  it('tool call → result → answer, stored in call order', async () => {
    const sid = await t.newSession();
    t.model.enqueue(
      [
        { text: 'Writing both files.' },
        { toolCall: { id: 'call_a', name: 'write_file', args: { path: 'a.txt', content: 'alpha\n' } } },
        { toolCall: { id: 'call_b', name: 'write_file', args: { path: 'sub/b.txt', content: 'beta\n' } } },
      ],
      [{ toolCall: { id: 'call_c', name: 'read_file', args: { path: 'sub/b.txt' } } }],
      [{ text: 'Both files are written.' }],
    );
    const frames = await t.stream((await t.start(sid, 'make two files')).body.stream_id);
    expect(await readFile(join(t.workspace, 'a.txt'), 'utf8')).toBe('alpha\n');
    expect(await readFile(join(t.workspace, 'sub', 'b.txt'), 'utf8')).toBe('beta\n');

    const tools = frames.filter((f) => f.event === 'tool' || f.event === 'tool_complete').map((f) => `${f.event}:${f.data.name}:${f.data.tool_call_id}`);
    // The two writes start together (side by side), both finish before the next step's read.
    expect(tools.slice(0, 2)).toEqual(['tool:write_file:call_a', 'tool:write_file:call_b']);
    expect(tools.slice(2, 4).sort()).toEqual(['tool_complete:write_file:call_a', 'tool_complete:write_file:call_b']);
    expect(tools.slice(4)).toEqual(['tool:read_file:call_c', 'tool_complete:read_file:call_c']);
    const complete = frames.find((f) => f.event === 'tool_complete' && f.data.tool_call_id === 'call_a')!;
    expect(complete.data).toMatchObject({ event_type: 'tool.completed', is_error: false, args: { path: 'a.txt' } });
    expect(typeof complete.data.duration).toBe('number');

    const session = frames.find((f) => f.event === 'done')!.data.session;
    expect(session.messages.map((m: any) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant', 'tool', 'assistant']);
    expect(session.messages[1].tool_calls.map((c: any) => c.id)).toEqual(['call_a', 'call_b']);
    expect(session.messages.slice(2, 4).map((m: any) => m.tool_call_id)).toEqual(['call_a', 'call_b']);
    expect(session.messages.at(-1).content).toBe('Both files are written.');
    // The model got the read result back.
    expect(toolResult(t.turnRequests()[2], 'call_c')).toContain('beta');
  });

  it('an unknown tool or broken arguments come back to the model as errors, and it continues', async () => {
    const sid = await t.newSession();
    t.model.enqueue(
      [{ toolCall: { id: 'c1', name: 'teleport', args: {} } }, { toolCall: { id: 'c2', name: 'read_file', args: '{"path": ' } }],
      [{ text: 'Sorry.' }],
    );
    const frames = await t.stream((await t.start(sid, 'do magic')).body.stream_id);
    expect(frames.filter((f) => f.event === 'tool_complete').map((f) => f.data.is_error)).toEqual([true, true]);
    const req = t.turnRequests()[1];
    expect(toolResult(req, 'c1')).toContain('Unknown tool');
    expect(toolResult(req, 'c2')).toContain('not valid JSON');
    expect(frames.at(-1)!.event).toBe('stream_end');
  });

  it('todo emits todo_state and is stored on the session', async () => {
    const sid = await t.newSession();
    t.model.enqueue(
      [
        {
          toolCall: {
            id: 't1',
            name: 'todo',
            args: {
              todos: [
                { id: '1', content: 'Plan', status: 'in_progress' },
                { id: '2', content: 'Ship', status: 'pending' },
              ],
            },
          },
        },
      ],
      [{ text: 'Planned.' }],
    );
    const frames = await t.stream((await t.start(sid, 'plan')).body.stream_id);
    const state = frames.find((f) => f.event === 'todo_state')!.data;
    expect(state.todos.map((x: any) => x.content)).toEqual(['Plan', 'Ship']);
    const stored = (await t.call('GET', `/api/session?session_id=${sid}`)).body.session;
    expect(stored.todo_state.todos).toHaveLength(2);
  });
});

describe('chat: approvals', () => {
  let t: ChatHarness;
  beforeEach(async () => {
    t = await makeChatApp({ extraYaml: '# keep this comment\napprovals:\n  mode: manual\n' });
  });
  afterEach(async () => t.close());

  /** A turn whose model asks to run `command`, then answers "finished". */
  async function dangerousTurn(sid: string, command: string, answer: (approval: Frame) => Promise<void>) {
    t.model.enqueue([{ toolCall: { id: 'run1', name: 'terminal', args: { command } } }], [{ text: 'finished' }]);
    const { stream_id } = (await t.start(sid, `please run ${command}`)).body;
    let approval: Frame | undefined;
    const frames = await t.stream(stream_id, {
      onFrame: async (f) => {
        if (f.event === 'approval') {
          approval = f;
          await answer(f);
        }
      },
    });
    return { frames, approval };
  }

  it('once: the command runs after approval; the pending endpoint showed it meanwhile', async () => {
    const sid = await t.newSession();
    await writeFile(join(t.workspace, 'keep.txt'), 'x');
    const { frames, approval } = await dangerousTurn(sid, 'mkdir -p build/x && rm -rf build && echo removed', async (f) => {
      const pending = (await t.call('GET', `/api/approval/pending?session_id=${sid}`)).body;
      expect(pending.pending_count).toBe(1);
      expect(pending.pending).toMatchObject({
        approval_id: f.data.approval_id,
        command: 'mkdir -p build/x && rm -rf build && echo removed',
        choices: ['once', 'session', 'always', 'deny'],
      });
      const r = await t.call('POST', '/api/approval/respond', { session_id: sid, choice: 'once', approval_id: f.data.approval_id });
      expect(r.body).toMatchObject({ ok: true, choice: 'once', pending: null, pending_count: 0 });
    });
    expect(approval!.data.pattern_keys.length).toBeGreaterThan(0);
    expect(approval!.data.description).toBeTruthy();
    const result = JSON.parse(toolResult(t.turnRequests()[1], 'run1'));
    expect(result.exit_code).toBe(0);
    expect(result.output).toContain('removed');
    expect(frames.at(-1)!.event).toBe('stream_end');
  });

  it('deny: the command does not run, the model gets BLOCKED and continues', async () => {
    const sid = await t.newSession();
    await writeFile(join(t.workspace, 'precious.txt'), 'keep me');
    const { frames } = await dangerousTurn(sid, 'rm -rf precious.txt', async (f) => {
      await t.call('POST', '/api/approval/respond', { session_id: sid, choice: 'deny', approval_id: f.data.approval_id });
    });
    expect(await readFile(join(t.workspace, 'precious.txt'), 'utf8')).toBe('keep me');
    expect(toolResult(t.turnRequests()[1], 'run1')).toMatch(/^BLOCKED/);
    expect(frames.find((f) => f.event === 'tool_complete')!.data.is_error).toBe(true);
    expect(frames.find((f) => f.event === 'done')!.data.session.messages.at(-1).content).toBe('finished');
  });

  it('always: runs, and the pattern is added to command_allowlist in config.yaml keeping comments; the next time it just runs', async () => {
    const sid = await t.newSession();
    let keys: string[] = [];
    await dangerousTurn(sid, 'rm -rf tmp-a', async (f) => {
      keys = f.data.pattern_keys;
      await t.call('POST', '/api/approval/respond', { session_id: sid, choice: 'always', approval_id: f.data.approval_id });
    });
    const yaml = await readFile(join(t.hermesHome, 'config.yaml'), 'utf8');
    expect(yaml).toContain('# keep this comment');
    expect(yaml).toContain('base_url:');
    for (const key of keys) expect(yaml).toContain(key);
    expect(yaml).toMatch(/command_allowlist:/);
    // A new session: no approval needed any more.
    const other = await t.newSession();
    const { frames, approval } = await dangerousTurn(other, 'rm -rf tmp-b', async () => {});
    expect(approval).toBeUndefined();
    expect(frames.at(-1)!.event).toBe('stream_end');
  });

  it('session: the same pattern runs without asking again in this session', async () => {
    const sid = await t.newSession();
    await dangerousTurn(sid, 'rm -rf one', async (f) => {
      await t.call('POST', '/api/approval/respond', { session_id: sid, choice: 'session', approval_id: f.data.approval_id });
    });
    const second = await dangerousTurn(sid, 'rm -rf two', async () => {});
    expect(second.approval).toBeUndefined();
    const other = await t.newSession();
    let asked = false;
    await dangerousTurn(other, 'rm -rf three', async (f) => {
      asked = true;
      await t.call('POST', '/api/approval/respond', { session_id: other, choice: 'deny', approval_id: f.data.approval_id });
    });
    expect(asked).toBe(true);
  });

  it('yolo skips approvals for that session; the hardline list still blocks', async () => {
    const sid = await t.newSession();
    expect((await t.call('POST', '/api/session/yolo', { session_id: sid, enabled: true })).body).toEqual({ session_id: sid, yolo_enabled: true });
    expect((await t.call('GET', `/api/session/yolo?session_id=${sid}`)).body.yolo_enabled).toBe(true);
    const { approval } = await dangerousTurn(sid, 'rm -rf gone', async () => {});
    expect(approval).toBeUndefined();
    await dangerousTurn(sid, 'rm -rf /', async () => {});
    expect(toolResult(t.turnRequests().at(-1), 'run1')).toMatch(/^BLOCKED/);
  });

  it('bad approval input: invalid choice 400, nothing pending 404', async () => {
    const sid = await t.newSession();
    expect((await t.call('POST', '/api/approval/respond', { session_id: sid, choice: 'maybe' })).status).toBe(400);
    expect((await t.call('POST', '/api/approval/respond', { session_id: sid, choice: 'once' })).status).toBe(404);
    expect((await t.call('GET', '/api/approval/pending?session_id=bad/id')).status).toBe(400);
  });
});

describe('chat: clarify', () => {
  it('asks, takes the answer, and hands it to the model', async () => {
    const t = await makeChatApp();
    try {
      const sid = await t.newSession();
      t.model.enqueue([{ toolCall: { id: 'q1', name: 'clarify', args: { question: 'Which colour?', choices: ['red', 'blue'] } } }], [{ text: 'Blue it is.' }]);
      const { stream_id } = (await t.start(sid, 'paint it')).body;
      const frames = await t.stream(stream_id, {
        onFrame: async (f) => {
          if (f.event !== 'clarify') return;
          const pending = (await t.call('GET', `/api/clarify/pending?session_id=${sid}`)).body.pending;
          expect(pending).toMatchObject({ question: 'Which colour?', choices_offered: ['red', 'blue'], clarify_id: f.data.clarify_id });
          const r = await t.call('POST', '/api/clarify/respond', { session_id: sid, response: 'blue', clarify_id: f.data.clarify_id });
          expect(r.body).toEqual({ ok: true, response: 'blue' });
        },
      });
      expect(frames.some((f) => f.event === 'clarify')).toBe(true);
      expect(toolResult(t.turnRequests()[1], 'q1')).toContain('blue');
      const stale = await t.call('POST', '/api/clarify/respond', {
        session_id: sid,
        response: 'red',
        clarify_id: frames.find((f) => f.event === 'clarify')!.data.clarify_id,
      });
      expect(stale.status).toBe(409);
      expect(stale.body).toMatchObject({ stale: true });
    } finally {
      await t.close();
    }
  });

  it('an unanswered question times out and the model proceeds', async () => {
    const t = await makeChatApp({ clarifyTimeoutMs: 100 });
    try {
      const sid = await t.newSession();
      t.model.enqueue([{ toolCall: { id: 'q1', name: 'clarify', args: { question: 'Sure?' } } }], [{ text: 'Going ahead.' }]);
      await t.stream((await t.start(sid, 'go')).body.stream_id);
      expect(toolResult(t.turnRequests()[1], 'q1')).toMatch(/did not answer/);
    } finally {
      await t.close();
    }
  });
});

describe('chat: cancel', () => {
  it('cancel mid-stream keeps the partial answer, emits cancel, and frees the session', async () => {
    const t = await makeChatApp();
    try {
      const sid = await t.newSession();
      t.model.enqueue([{ text: 'Partial ' }, { text: 'answer' }, { delayMs: 5000 }, { text: ' never sent' }]);
      const { stream_id } = (await t.start(sid, 'long one')).body;
      const frames = await t.stream(stream_id, {
        onFrame: async (f) => {
          if (f.event === 'token' && f.data.text === 'answer') {
            const r = await t.call('POST', '/api/chat/cancel', { stream_id });
            expect(r.body).toEqual({ ok: true, cancelled: true, stream_id });
          }
        },
      });
      expect(frames.at(-1)!.event).toBe('cancel');
      expect(frames.at(-1)!.data).toMatchObject({ type: 'cancelled', status: 'cancelled', session_id: sid });
      const s = (await t.call('GET', `/api/session?session_id=${sid}`)).body.session;
      expect(s.messages.map((m: any) => [m.role, m.content, m._partial ?? false])).toEqual([
        ['user', 'long one', false],
        ['assistant', 'Partial answer', true],
      ]);
      expect(s.active_stream_id).toBeNull();
      // GET also cancels (the incumbent's verb); a finished stream reports cancelled: false.
      expect((await t.call('GET', `/api/chat/cancel?stream_id=${stream_id}`)).body).toEqual({ ok: true, cancelled: false, stream_id });
      t.model.enqueue([{ text: 'fresh' }]);
      expect((await t.start(sid, 'again')).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
