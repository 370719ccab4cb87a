import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';
import { makeGatewayApp, type GatewayHarness } from '../gateway/harness.js';
import type { Frame } from '../helpers/sse.js';
import { journalEvent, plantInterruptedTurn } from '../helpers/resume.js';
import { CLOSING_EVENTS, parseRunEvent, RUN_EVENT_NAMES, RUN_EVENT_SCHEMAS } from '../../src/shared/run-events.js';

/**
 * The runtime half of the run-event contract: real turns through the app (the builtin agent
 * against the scripted OpenAI server, the gateway runtime against the scripted Hermes API
 * server), every SSE event they emit parsed against the contract's schemas. The compile-time
 * half is tests/runs/run-events.typecheck.ts.
 */

/** Every frame read, across all turns of a suite, with where it came from. */
type Seen = Array<{ turn: string; frame: Frame }>;

function checkAll(seen: Seen): void {
  const problems: string[] = [];
  for (const { turn, frame } of seen) {
    const r = parseRunEvent(frame.event, frame.data);
    if (!r.ok) problems.push(`${turn}: ${r.error}\n  data: ${JSON.stringify(frame.data).slice(0, 400)}`);
    if (!frame.id || !/:\d+$/.test(frame.id)) problems.push(`${turn}: ${frame.event} has no <stream_id>:<seq> id`);
  }
  expect(problems).toEqual([]);
}

/** Each turn ends with exactly one closing event, its last frame. */
function checkClosing(frames: Frame[], turn: string): void {
  const closing = frames.map((f, i) => (CLOSING_EVENTS.has(f.event) ? i : -1)).filter((i) => i >= 0);
  expect(closing, turn).toEqual([frames.length - 1]);
}

const names = (seen: Seen) => new Set(seen.map((s) => s.frame.event));

describe('run-event contract: the builtin agent', () => {
  let t: ChatHarness;
  const seen: Seen = [];
  const record = (turn: string) => (frame: Frame) => void seen.push({ turn, frame });
  async function turn(label: string, sid: string, message: string, onFrame?: (f: Frame) => Promise<void> | void): Promise<Frame[]> {
    const started = await t.start(sid, message);
    expect(started.status, label).toBe(200);
    const frames = await t.stream(started.body.stream_id, {
      onFrame: async (f) => {
        record(label)(f);
        await onFrame?.(f);
      },
    });
    checkClosing(frames, label);
    return frames;
  }

  beforeAll(async () => {
    t = await makeChatApp({
      extraYaml: '  context_length: 1000\nagent:\n  max_turns: 3\napprovals:\n  mode: manual\ncompression:\n  threshold: 0.5\n  protect_last_n: 2\n',
      clarifyTimeoutMs: 5000,
    });
  });
  afterAll(async () => t?.close());

  it('text, reasoning and a title', async () => {
    const sid = await t.newSession();
    t.model.enqueue([{ reasoning: 'Let me think.' }, { text: 'Hello ' }, { text: 'there.' }, { usage: { inputTokens: 40, outputTokens: 3 } }]);
    const frames = await turn('text', sid, 'hi');
    expect(frames.map((f) => f.event)).toEqual(expect.arrayContaining(['reasoning', 'token', 'metering', 'done', 'title', 'stream_end']));
  });

  it('tools, one failing; todo_state; state_saved', async () => {
    const sid = await t.newSession();
    t.model.enqueue(
      [
        { toolCall: { id: 'c1', name: 'write_file', args: { path: 'a.txt', content: 'alpha\n'.repeat(30) } } },
        { toolCall: { id: 'c2', name: 'read_file', args: { path: 'missing/nope.txt' } } },
        { toolCall: { id: 'c3', name: 'todo', args: { todos: [{ id: '1', content: 'Plan', status: 'in_progress' }] } } },
        { toolCall: { id: 'c4', name: 'memory', args: { action: 'add', target: 'memory', content: 'Uses pnpm' } } },
      ],
      [{ text: 'Done.' }],
    );
    const frames = await turn('tools', sid, 'files');
    const completes = frames.filter((f) => f.event === 'tool_complete');
    expect(completes.map((f) => f.data.is_error)).toEqual(expect.arrayContaining([true, false]));
    expect(frames.some((f) => f.event === 'todo_state')).toBe(true);
    expect(frames.find((f) => f.event === 'state_saved')?.data).toEqual({ session_id: sid, kind: 'memory', action: 'saved' });
  });

  it('the iteration cap warns', async () => {
    const sid = await t.newSession();
    for (let i = 0; i < 3; i++) t.model.enqueue([{ toolCall: { id: `l${i}`, name: 'read_file', args: { path: 'a.txt' } } }]);
    t.model.enqueue([{ text: 'Summary of the capped turn.' }]);
    const frames = await turn('cap', sid, 'loop');
    expect(frames.find((f) => f.event === 'warning')?.data.type).toBe('tool_limit_reached');
  });

  it('an approval, answered', async () => {
    const sid = await t.newSession();
    t.model.enqueue([{ toolCall: { id: 'a1', name: 'terminal', args: { command: 'rm -rf build && echo gone' } } }], [{ text: 'Removed.' }]);
    const frames = await turn('approval', sid, 'clean', async (f) => {
      if (f.event === 'approval') await t.call('POST', '/api/approval/respond', { session_id: sid, choice: 'once', approval_id: f.data.approval_id });
    });
    expect(frames.some((f) => f.event === 'approval')).toBe(true);
  });

  it('a file edit outside the workspace: the approval carries diff and path, denied', async () => {
    const sid = await t.newSession();
    const path = `${t.workspace}/../contract-outside.txt`;
    t.model.enqueue([{ toolCall: { id: 'e1', name: 'write_file', args: { path, content: 'x\n' } } }], [{ text: 'Left alone.' }]);
    const frames = await turn('file edit approval', sid, 'write it', async (f) => {
      if (f.event === 'approval') await t.call('POST', '/api/approval/respond', { session_id: sid, choice: 'deny', approval_id: f.data.approval_id });
    });
    const approval = frames.find((f) => f.event === 'approval')!.data;
    expect(approval.diff).toContain('+x');
    expect(approval.path).toMatch(/contract-outside\.txt$/);
  });

  it('a clarifying question, answered', async () => {
    const sid = await t.newSession();
    t.model.enqueue([{ toolCall: { id: 'q1', name: 'clarify', args: { question: 'Which colour?', choices: ['red', 'blue'] } } }], [{ text: 'Blue.' }]);
    const frames = await turn('clarify', sid, 'paint', async (f) => {
      if (f.event === 'clarify') await t.call('POST', '/api/clarify/respond', { session_id: sid, response: 'blue', clarify_id: f.data.clarify_id });
    });
    expect(frames.some((f) => f.event === 'clarify')).toBe(true);
  });

  it('cancel mid-answer', async () => {
    const sid = await t.newSession();
    t.model.enqueue([{ text: 'Partial ' }, { delayMs: 5000 }, { text: 'never' }]);
    let streamId = '';
    const started = await t.start(sid, 'long');
    streamId = started.body.stream_id;
    const frames = await t.stream(streamId, {
      onFrame: async (f) => {
        record('cancel')(f);
        if (f.event === 'token') await t.call('POST', '/api/chat/cancel', { stream_id: streamId });
      },
    });
    checkClosing(frames, 'cancel');
    expect(frames.at(-1)!.event).toBe('cancel');
  });

  it('a steer taken at a tool boundary, and one handed back when none came', async () => {
    const sid = await t.newSession();
    t.model.enqueue([{ toolCall: { id: 's1', name: 'terminal', args: { command: 'sleep 1 && echo ok' } } }], [{ text: 'Steered.' }]);
    const steer = (text: string) => t.call('POST', '/api/chat/steer', { session_id: sid, text });
    let sent = false;
    const frames = await turn('steer', sid, 'steer me', async (f) => {
      if (f.event === 'tool' && !sent) sent = (await steer('this way')).body.accepted;
    });
    expect(frames.some((f) => f.event === 'steer_applied')).toBe(true);
    t.model.enqueue([{ text: 'No ' }, { delayMs: 800 }, { text: 'tools.' }]);
    let late = false;
    const leftover = await turn('steer leftover', sid, 'no tools', async (f) => {
      if (f.event === 'token' && !late) late = (await steer('too late')).body.accepted;
    });
    expect(leftover.some((f) => f.event === 'pending_steer_leftover')).toBe(true);
  });

  it('a subagent (delegate_task) reports its life on the parent stream', async () => {
    const sid = await t.newSession();
    // The parent's call, then the child's one answer, then the parent's; one child runs them in this order.
    t.model.enqueue([{ toolCall: { id: 'd1', name: 'delegate_task', args: { goal: 'Say hi' } } }], [{ text: 'hi' }], [{ text: 'The child said hi.' }]);
    const frames = await turn('subagent', sid, 'delegate');
    expect(frames.filter((f) => f.event === 'subagent').map((f) => f.data.event_type)).toEqual(['subagent.start', 'subagent.complete']);
  });

  it('a provider failure ends with apperror', async () => {
    const sid = await t.newSession();
    t.model.enqueue({ status: 401, body: { error: { message: 'bad key', type: 'invalid_request_error' } } });
    const frames = await turn('apperror', sid, 'fail');
    expect(frames.at(-1)!.event).toBe('apperror');
  });

  it('a rate-limited call retried, then answered', async () => {
    const sid = await t.newSession();
    t.model.enqueue({ status: 429, headers: { 'Retry-After': '0' } }, [{ text: 'after a retry' }]);
    const frames = await turn('retrying', sid, 'retry me');
    expect(frames.map((f) => f.event)).toEqual(expect.arrayContaining(['retrying', 'token', 'done']));
  });

  it('compression', async () => {
    const sid = await t.newSession();
    for (let i = 1; i <= 3; i++) {
      t.model.enqueue([{ text: `answer ${i}` }, { usage: { inputTokens: 100 * i, outputTokens: 5 } }]);
      await turn(`pre-compression ${i}`, sid, `question ${i}`);
    }
    t.model.enqueue([{ text: 'x' }, { usage: { inputTokens: 900, outputTokens: 1 } }]);
    await turn('pre-compression 4', sid, 'question 4');
    t.model.enqueue([{ text: 'SUMMARY: questions 1-3.' }], [{ text: 'answer 5' }]);
    const frames = await turn('compression', sid, 'question 5');
    expect(frames.map((f) => f.event)).toEqual(expect.arrayContaining(['compressing', 'compressed']));
  });

  it('a turn carried on after a restart says resumed first, then goes on', async () => {
    const { sid, streamId } = await plantInterruptedTurn(t, { events: [journalEvent(1, 'token', { text: 'Half ' })] });
    t.model.enqueue([{ text: 'and the rest.' }]);
    expect(await t.deps.agent.resumeTurn!(sid, streamId)).toBe('resumed');
    const frames = await t.stream(streamId, { lastEventId: `${streamId}:1`, onFrame: record('resumed') });
    checkClosing(frames, 'resumed');
    expect(frames[0]!.event).toBe('resumed');
  });

  it('every event emitted fits the contract, and the turns covered every kind the builtin agent emits', () => {
    checkAll(seen);
    expect([...names(seen)].sort()).toEqual([...RUN_EVENT_NAMES].sort());
  });
});

describe('run-event contract: the gateway runtime', () => {
  let runs: GatewayHarness;
  let chat: GatewayHarness;
  const seen: Seen = [];

  beforeAll(async () => {
    runs = await makeGatewayApp();
    chat = await makeGatewayApp({ gateway: { runs: false } });
  });
  afterAll(async () => {
    await runs?.close();
    await chat?.close();
  });

  async function turn(h: GatewayHarness, label: string, onFrame?: (f: Frame, sid: string, streamId: string) => Promise<void> | void): Promise<Frame[]> {
    const sid = await h.newSession();
    const started = await h.start(sid, label);
    expect(started.status, label).toBe(200);
    const frames = await h.stream(started.body.stream_id, {
      onFrame: async (f) => {
        seen.push({ turn: label, frame: f });
        await onFrame?.(f, sid, started.body.stream_id);
      },
    });
    checkClosing(frames, label);
    return frames;
  }

  it('runs API: text, reasoning, tools (one failing), an approval, the iteration-cap warning', async () => {
    runs.gw.enqueue({
      steps: [
        { reasoning: 'Thinking.' },
        { tool: 'terminal', preview: 'ls -la', id: 'call_1', duration: 0.2 },
        { tool: 'read_file', preview: 'missing.txt', error: true },
        { approval: { command: 'rm -rf build/', description: 'recursive delete', pattern_key: 'recursive_delete' } },
        { delta: 'All ' },
        { delta: 'done.' },
        { event: { event: 'run.completed', output: 'All done.', turn_exit_reason: 'max_iterations_reached', usage: { input_tokens: 50, output_tokens: 4 } } },
      ],
    });
    const frames = await turn(runs, 'runs', async (f, sid) => {
      if (f.event === 'approval') await runs.call('POST', '/api/approval/respond', { session_id: sid, choice: 'once', approval_id: f.data.approval_id });
    });
    expect(frames.filter((f) => f.event === 'tool_complete').map((f) => f.data.is_error)).toEqual([false, true]);
    expect(frames.map((f) => f.event)).toEqual(expect.arrayContaining(['reasoning', 'token', 'approval', 'warning', 'metering', 'done', 'stream_end']));
  });

  it('runs API: a failed run ends with apperror; a stopped one with cancel', async () => {
    runs.gw.enqueue({ steps: [{ delta: 'Trying' }, { fail: 'the model provider refused' }] });
    expect((await turn(runs, 'gateway apperror')).at(-1)!.event).toBe('apperror');
    runs.gw.enqueue({ steps: [{ delta: 'Working' }, { hang: true }] });
    const cancelled = await turn(runs, 'gateway cancel', async (f, _sid, streamId) => {
      if (f.event === 'token') await runs.call('POST', '/api/chat/cancel', { stream_id: streamId });
    });
    expect(cancelled.at(-1)!.event).toBe('cancel');
  });

  it('chat completions: text, tool progress and the approval it cannot answer', async () => {
    chat.gw.enqueue({
      steps: [
        { tool: 'terminal', preview: 'pwd', duration: 0.1 },
        { approval: { command: 'rm -rf x' } },
        { delta: 'Here.' },
        { done: { usage: { input_tokens: 9, output_tokens: 1 } } },
      ],
    });
    const frames = await turn(chat, 'chat completions');
    expect(frames.map((f) => f.event)).toEqual(expect.arrayContaining(['tool', 'tool_complete', 'warning', 'token', 'done', 'stream_end']));
  });

  it('every event emitted fits the contract', () => {
    expect(seen.length).toBeGreaterThan(20);
    checkAll(seen);
  });
});

describe('run-event contract: the schemas themselves', () => {
  it('retrying is a non-closing event of {attempt, max, reason, delay_ms}', () => {
    expect(parseRunEvent('retrying', { attempt: 2, max: 3, reason: 'rate_limit', delay_ms: 1500 }).ok).toBe(true);
    expect(parseRunEvent('retrying', { attempt: 2, max: 3, reason: 'rate_limit' }).ok).toBe(false);
    expect(parseRunEvent('retrying', { attempt: 0, max: 3, reason: 'x', delay_ms: 1 }).ok).toBe(false);
    expect(CLOSING_EVENTS.has('retrying')).toBe(false);
  });

  it('rejects unknown events and unknown fields; names and schemas are the same set', () => {
    expect(parseRunEvent('thinking', { text: 'x' })).toMatchObject({ ok: false, error: 'unknown event "thinking"' });
    expect(parseRunEvent('token', { text: 'x', extra: 1 }).ok).toBe(false);
    expect([...RUN_EVENT_NAMES].sort()).toEqual(Object.keys(RUN_EVENT_SCHEMAS).sort());
    expect([...CLOSING_EVENTS].sort()).toEqual(['apperror', 'cancel', 'stream_end']);
  });
});
