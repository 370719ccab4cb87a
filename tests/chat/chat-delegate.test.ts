import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isTitleRequest, makeChatApp, TITLE, type ChatHarness } from '../helpers/chat.js';
import type { Script } from '../fixtures/scripted-openai.js';
import type { Frame } from '../helpers/sse.js';

/**
 * delegate_task against the scripted OpenAI server: the parent's requests come from the queue,
 * each child's by its goal (named in its system prompt), so parallel children get their own
 * scripts whatever order their requests arrive in.
 */
function routeChildren(t: ChatHarness, scripts: Record<string, Script[]>): void {
  t.model.setRouter((req) => {
    if (isTitleRequest(req)) return [{ text: TITLE }];
    const system = req.body?.messages?.[0]?.content;
    if (typeof system !== 'string' || !system.startsWith('You are a subagent')) return undefined;
    const goal = Object.keys(scripts).find((g) => system.includes(`TASK:\n${g}`));
    return goal ? (scripts[goal]!.shift() ?? { status: 500, body: `no script left for ${goal}` }) : { status: 500, body: 'unknown child' };
  });
}

const childRequests = (t: ChatHarness, goal: string) =>
  t.model.requests
    .filter((r) => typeof r.body?.messages?.[0]?.content === 'string' && r.body.messages[0].content.includes(`TASK:\n${goal}`))
    .map((r) => r.body);
const parentRequests = (t: ChatHarness) => t.turnRequests().filter((b) => !String(b.messages?.[0]?.content).startsWith('You are a subagent'));
const delegateResult = (req: any, callId: string) => JSON.parse(req.messages.findLast((m: any) => m.role === 'tool' && m.tool_call_id === callId).content);
const toolNames = (req: any) => (req.tools ?? []).map((t: any) => t.function.name);

describe('delegate_task', () => {
  let t: ChatHarness;
  afterEach(async () => t?.close());

  it('runs a child as its own linked session; the parent gets Hermes-shaped results', async () => {
    t = await makeChatApp();
    await writeFile(join(t.workspace, 'notes.txt'), 'the answer is 42\n');
    routeChildren(t, {
      'Find the answer in notes.txt': [
        [{ toolCall: { id: 'k1', name: 'read_file', args: { path: 'notes.txt' } } }, { usage: { inputTokens: 50, outputTokens: 5 } }],
        [{ text: 'The answer is 42.' }, { usage: { inputTokens: 70, outputTokens: 6 } }],
      ],
    });
    t.model.enqueue(
      [{ toolCall: { id: 'd1', name: 'delegate_task', args: { goal: 'Find the answer in notes.txt', context: 'The file is in the workspace root.' } } }],
      [{ text: 'My subagent says 42.' }],
    );
    const sid = await t.newSession();
    const started = await t.start(sid, 'what is the answer?');
    expect(started.body).toMatchObject({ stream_id: expect.any(String) });
    const frames = await t.stream(started.body.stream_id);
    expect(frames.at(-1)!.event).toBe('stream_end');

    // The parent's model received one result entry per task, in Hermes' shape.
    const result = delegateResult(parentRequests(t)[1], 'd1');
    expect(typeof result.total_duration_seconds).toBe('number');
    expect(result.results).toHaveLength(1);
    const entry = result.results[0];
    expect(entry).toMatchObject({
      task_index: 0,
      status: 'completed',
      summary: 'The answer is 42.',
      api_calls: 2,
      exit_reason: 'completed',
      truncated: false,
      model: 'test-model',
      tokens: { input: 120, output: 11 },
    });
    expect(entry.tool_trace).toEqual([{ tool: 'read_file', args_bytes: expect.any(Number), result_bytes: expect.any(Number), status: 'ok' }]);

    // The child is a stored session linked to the parent, with its own transcript.
    const child = (await t.call('GET', `/api/session?session_id=${entry.session_id}`)).body.session;
    expect(child).toMatchObject({ parent_session_id: sid, session_source: 'subagent', source_tag: 'subagent', read_only: true, active_stream_id: null });
    expect(child.messages.map((m: any) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(child.messages[0].content).toBe('Find the answer in notes.txt');
    expect(child.messages[2].content).toContain('the answer is 42');

    // The child's prompt carries its task and context; its tools leave out the blocked ones.
    const [first] = childRequests(t, 'Find the answer in notes.txt');
    expect(first.messages[0].content).toContain('CONTEXT:\nThe file is in the workspace root.');
    expect(first.messages.slice(1).map((m: any) => m.role)).toEqual(['user']);
    expect(toolNames(first)).toContain('read_file');
    for (const blocked of ['delegate_task', 'clarify', 'memory']) expect(toolNames(first)).not.toContain(blocked);
    expect(toolNames(parentRequests(t)[0])).toContain('delegate_task');

    // The parent's stream carried the child's life for the Activity tree.
    const rows = frames.filter((f) => f.event === 'subagent').map((f) => f.data);
    expect(rows[0]).toMatchObject({
      event_type: 'subagent.start',
      parent_session_id: sid,
      session_id: entry.session_id,
      status: 'running',
      goal: 'Find the answer in notes.txt',
    });
    expect(rows.some((r) => r.event_type === 'subagent.progress' && r.tool === 'read_file')).toBe(true);
    expect(rows.at(-1)).toMatchObject({ event_type: 'subagent.complete', status: 'completed', summary: 'The answer is 42.', tool_count: 1, api_calls: 2 });

    // It is view-only: its parent's work, not a conversation to continue.
    const more = await t.start(entry.session_id, 'and now?');
    expect(more.status).toBe(400);
    expect(more.body.error).toMatch(/subagent session: it is view-only/);

    // The child's own run can be replayed from its journal like any turn.
    const childFrames = await t.stream(rows[0].stream_id);
    expect(childFrames.map((f) => f.event)).toContain('done');
    expect(childFrames.at(-1)!.event).toBe('stream_end');
  });

  it('runs a batch in parallel, results in task order; orchestrators keep delegate_task only when depth allows', async () => {
    t = await makeChatApp({ extraYaml: 'delegation:\n  max_spawn_depth: 2\n' });
    routeChildren(t, {
      'Task A': [[{ delayMs: 150 }, { text: 'A done' }]],
      'Task B': [[{ text: 'B done' }]],
    });
    t.model.enqueue(
      [{ toolCall: { id: 'd1', name: 'delegate_task', args: { tasks: [{ goal: 'Task A', role: 'orchestrator' }, { goal: 'Task B' }] } } }],
      [{ text: 'Both done.' }],
    );
    const sid = await t.newSession();
    await t.stream((await t.start(sid, 'two things')).body.stream_id);
    const { results } = delegateResult(parentRequests(t)[1], 'd1');
    expect(results.map((r: any) => [r.task_index, r.status, r.summary])).toEqual([
      [0, 'completed', 'A done'],
      [1, 'completed', 'B done'],
    ]);
    expect(toolNames(childRequests(t, 'Task A')[0])).toContain('delegate_task');
    expect(toolNames(childRequests(t, 'Task B')[0])).not.toContain('delegate_task');
  });

  it('children use delegation.model when it is set', async () => {
    t = await makeChatApp({ extraYaml: 'delegation:\n  model: small-model\n' });
    routeChildren(t, { Summarise: [[{ text: 'short' }]] });
    t.model.enqueue([{ toolCall: { id: 'd1', name: 'delegate_task', args: { goal: 'Summarise' } } }], [{ text: 'ok' }]);
    const sid = await t.newSession();
    await t.stream((await t.start(sid, 'go')).body.stream_id);
    expect(childRequests(t, 'Summarise')[0].model).toBe('small-model');
    expect(parentRequests(t).map((r) => r.model)).toEqual(['test-model', 'test-model']);
    expect(delegateResult(parentRequests(t)[1], 'd1').results[0].model).toBe('small-model');
  });

  it('refuses more tasks than delegation.max_concurrent_children, and calls without a goal', async () => {
    t = await makeChatApp({ extraYaml: 'delegation:\n  max_concurrent_children: 2\n' });
    t.model.enqueue(
      [
        { toolCall: { id: 'd1', name: 'delegate_task', args: { tasks: [{ goal: 'a' }, { goal: 'b' }, { goal: 'c' }] } } },
        { toolCall: { id: 'd2', name: 'delegate_task', args: {} } },
      ],
      [{ text: 'ok' }],
    );
    const sid = await t.newSession();
    await t.stream((await t.start(sid, 'too many')).body.stream_id);
    const req = parentRequests(t)[1];
    expect(delegateResult(req, 'd1').error).toMatch(/Too many tasks: 3 provided, but max_concurrent_children is 2/);
    expect(delegateResult(req, 'd2').error).toBe("Provide either 'goal' (single task) or 'tasks' (batch).");
    expect(toolNames(parentRequests(t)[0])).toContain('delegate_task');
  });

  it('holds a child to delegation.max_iterations and says so in its entry', async () => {
    t = await makeChatApp({ extraYaml: 'delegation:\n  max_iterations: 1\n' });
    await writeFile(join(t.workspace, 'a.txt'), 'a\n');
    routeChildren(t, { 'Keep reading': [[{ toolCall: { id: 'k1', name: 'read_file', args: { path: 'a.txt' } } }], [{ text: 'Read a.txt; more to do.' }]] });
    t.model.enqueue([{ toolCall: { id: 'd1', name: 'delegate_task', args: { goal: 'Keep reading' } } }], [{ text: 'ok' }]);
    const sid = await t.newSession();
    await t.stream((await t.start(sid, 'go')).body.stream_id);
    const entry = delegateResult(parentRequests(t)[1], 'd1').results[0];
    expect(entry).toMatchObject({ exit_reason: 'max_iterations', truncated: true, api_calls: 2 });
    // One step, as budgeted (the parent's limit, agent.max_turns, is unlimited), then the
    // tool-less call asking for a summary that every capped turn ends with.
    const calls = childRequests(t, 'Keep reading');
    expect(calls).toHaveLength(2);
    expect(calls[1].tools).toBeUndefined();
    expect(entry.summary).toBe('Read a.txt; more to do.');
  });

  for (const autoApprove of [false, true]) {
    it(`a command that needs approval is ${autoApprove ? 'run (subagent_auto_approve: true)' : 'refused'} in a child, without a prompt`, async () => {
      t = await makeChatApp({ extraYaml: `approvals:\n  mode: manual\ndelegation:\n  subagent_auto_approve: ${autoApprove}\n` });
      await mkdir(join(t.workspace, 'build'));
      routeChildren(t, {
        'Clean up': [[{ toolCall: { id: 'k1', name: 'terminal', args: { command: 'rm -rf build && echo gone' } } }], [{ text: 'tried' }]],
      });
      t.model.enqueue([{ toolCall: { id: 'd1', name: 'delegate_task', args: { goal: 'Clean up' } } }], [{ text: 'ok' }]);
      const sid = await t.newSession();
      const frames = await t.stream((await t.start(sid, 'clean')).body.stream_id);
      expect(frames.some((f) => f.event === 'approval')).toBe(false);
      const second = childRequests(t, 'Clean up')[1];
      const output = second.messages.find((m: any) => m.role === 'tool' && m.tool_call_id === 'k1').content;
      if (autoApprove) {
        expect(output).toContain('gone');
        await expect(stat(join(t.workspace, 'build'))).rejects.toThrow();
      } else {
        expect(output).toContain('BLOCKED: subagents cannot ask for approval');
        expect((await stat(join(t.workspace, 'build'))).isDirectory()).toBe(true);
      }
    });
  }

  it('cancelling one child ends it as interrupted; the parent goes on', async () => {
    t = await makeChatApp();
    routeChildren(t, { 'Slow job': [[{ text: 'working' }, { delayMs: 20_000 }, { text: ' never' }]], 'Quick job': [[{ text: 'quick done' }]] });
    t.model.enqueue(
      [{ toolCall: { id: 'd1', name: 'delegate_task', args: { tasks: [{ goal: 'Slow job' }, { goal: 'Quick job' }] } } }],
      [{ text: 'One finished.' }],
    );
    const sid = await t.newSession();
    let cancelled = false;
    const frames = await t.stream((await t.start(sid, 'go')).body.stream_id, {
      onFrame: async (f: Frame) => {
        if (!cancelled && f.event === 'subagent' && f.data.goal === 'Slow job' && f.data.event_type === 'subagent.start') {
          cancelled = true;
          // The child's own live stream, watched until its answer has begun; then cancel it through the ordinary endpoint.
          const live = await t.stream(f.data.stream_id, { until: (x) => x.event === 'token' });
          expect(live.at(-1)).toMatchObject({ event: 'token', data: { text: 'working' } });
          const r = await t.call('POST', '/api/chat/cancel', { stream_id: f.data.stream_id });
          expect(r.body).toMatchObject({ ok: true, cancelled: true });
        }
      },
    });
    expect(frames.at(-1)!.event).toBe('stream_end');
    const { results } = delegateResult(parentRequests(t)[1], 'd1');
    expect(results[0]).toMatchObject({ status: 'interrupted', exit_reason: 'interrupted', error: 'The subagent was cancelled before it finished.' });
    expect(results[1]).toMatchObject({ status: 'completed', summary: 'quick done' });
    const slow = (await t.call('GET', `/api/session?session_id=${results[0].session_id}`)).body.session;
    expect(slow.active_stream_id).toBeNull();
    expect(slow.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'working', _partial: true });
    expect(frames.findLast((f) => f.event === 'subagent' && f.data.goal === 'Slow job')!.data.status).toBe('interrupted');
  });

  it('cancelling the parent cancels its children', async () => {
    t = await makeChatApp();
    routeChildren(t, { 'Endless job': [[{ text: 'thinking' }, { delayMs: 20_000 }]] });
    t.model.enqueue([{ toolCall: { id: 'd1', name: 'delegate_task', args: { goal: 'Endless job' } } }]);
    const sid = await t.newSession();
    const streamId = (await t.start(sid, 'go')).body.stream_id;
    let childStream = '';
    const frames = await t.stream(streamId, {
      onFrame: async (f: Frame) => {
        if (!childStream && f.event === 'subagent') {
          childStream = f.data.stream_id;
          await t.stream(childStream, { until: (x) => x.event === 'token' });
          await t.call('POST', '/api/chat/cancel', { stream_id: streamId });
        }
      },
    });
    expect(frames.at(-1)!.event).toBe('cancel');
    const childFrames = await t.stream(childStream);
    expect(childFrames.at(-1)!.event).toBe('cancel');
    const status = (await t.call('GET', `/api/chat/stream/status?stream_id=${childStream}`)).body;
    expect(status.active).toBe(false);
  });
});
