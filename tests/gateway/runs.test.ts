import { afterEach, describe, expect, it } from 'vitest';
import { events, makeGatewayApp, names, text, type GatewayHarness } from './harness.js';

/** Chat turns answered by a (scripted) Hermes Agent over its runs API. */
describe('gateway runtime: the runs API', () => {
  let h: GatewayHarness;
  afterEach(async () => h?.close());

  it('streams the answer as token events, stores it with its usage, and sends the key and session key', async () => {
    h = await makeGatewayApp({ gateway: { apiKey: 'sk-hermes-test' } });
    h.gw.enqueue({ steps: [{ delta: 'Hello' }, { delta: ', ' }, { delta: 'world.' }, { done: { usage: { input_tokens: 120, output_tokens: 7 } } }] });
    const { sessionId, frames, session } = await h.turn('Say hello');
    expect(text(frames)).toBe('Hello, world.');
    expect(names(frames).slice(-2)).toEqual(['done', 'stream_end']);
    const done = events(frames, 'done')[0];
    expect(done.usage).toEqual({ input_tokens: 120, output_tokens: 7, estimated_cost: null });
    expect(session.messages.map((m: any) => [m.role, m.content])).toEqual([
      ['user', 'Say hello'],
      ['assistant', 'Hello, world.'],
    ]);
    expect(session.input_tokens).toBe(120);
    expect(session.output_tokens).toBe(7);
    expect(session.active_stream_id).toBeNull();
    // What Hermes was sent: the message, our session, an empty history, the key and a memory scope.
    expect(h.gw.runBodies[0]).toEqual({ input: 'Say hello', session_id: sessionId, model: 'hermes-agent', conversation_history: [] });
    const post = h.gw.requests.find((r) => r.method === 'POST' && r.path === '/v1/runs')!;
    expect(post.headers.authorization).toBe('Bearer sk-hermes-test');
    expect(post.headers['x-hermes-session-key']).toBe(`webui:${sessionId}`);
    // Feature detection came first.
    expect(h.gw.requests.slice(0, 2).map((r) => r.path)).toEqual(['/health', '/v1/capabilities']);
  });

  it('maps tool events to tool/tool_complete in the builtin shapes and stores calls and results', async () => {
    h = await makeGatewayApp();
    h.gw.enqueue({
      steps: [
        { delta: 'Let me look.' },
        { toolStart: 'terminal', preview: 'ls -la' },
        { toolStart: 'read_file', preview: 'notes.txt' },
        { toolEnd: 'read_file', duration: 0.25 },
        { toolEnd: 'terminal', duration: 0.5, error: true },
        { tool: 'search_files', preview: 'TODO', result: '3 matches' },
        { delta: 'Found three.' },
      ],
    });
    const { frames, session } = await h.turn('Look around');
    const tools = events(frames, 'tool');
    expect(tools).toEqual([
      { name: 'terminal', preview: 'terminal ls -la', args: { command: 'ls -la' }, tool_call_id: 'gw_1', event_type: 'tool.started' },
      { name: 'read_file', preview: 'read_file notes.txt', args: { path: 'notes.txt' }, tool_call_id: 'gw_2', event_type: 'tool.started' },
      { name: 'search_files', preview: 'search_files TODO', args: { pattern: 'TODO' }, tool_call_id: 'gw_3', event_type: 'tool.started' },
    ]);
    const completes = events(frames, 'tool_complete');
    expect(completes.map((c) => [c.tool_call_id, c.name, c.is_error, c.duration])).toEqual([
      ['gw_2', 'read_file', false, 0.25],
      ['gw_1', 'terminal', true, 0.5],
      ['gw_3', 'search_files', false, 0.01],
    ]);
    expect(completes[1].result).toMatch(/^\{"error":/);
    expect(completes[2].result).toBe('3 matches');
    expect(completes[0]).toMatchObject({ event_type: 'tool.completed', preview: 'read_file notes.txt', args: { path: 'notes.txt' } });
    // Stored as the builtin agent stores a tool-using turn: steps with calls, results, the answer.
    const stored = session.messages.slice(1);
    expect(stored.map((m: any) => m.role)).toEqual(['assistant', 'tool', 'tool', 'assistant', 'tool', 'assistant']);
    expect(stored[0].content).toBe('Let me look.');
    expect(stored[0].tool_calls.map((c: any) => [c.id, c.function.name, JSON.parse(c.function.arguments)])).toEqual([
      ['gw_1', 'terminal', { command: 'ls -la' }],
      ['gw_2', 'read_file', { path: 'notes.txt' }],
    ]);
    expect(stored[1]).toMatchObject({ role: 'tool', tool_call_id: 'gw_1', name: 'terminal' });
    expect(stored[4]).toMatchObject({ role: 'tool', tool_call_id: 'gw_3', content: '3 matches' });
    expect(stored[5].content).toBe('Found three.');
  });

  it('uses Hermes tool call ids when the events carry them, and relays reasoning', async () => {
    h = await makeGatewayApp();
    h.gw.enqueue({ steps: [{ reasoning: 'Thinking it over.' }, { tool: 'terminal', preview: 'pwd', id: 'call_abc' }, { delta: 'Done.' }] });
    const { frames, session } = await h.turn('Where am I?');
    expect(events(frames, 'reasoning')).toEqual([{ text: 'Thinking it over.' }]);
    expect(events(frames, 'tool')[0].tool_call_id).toBe('call_abc');
    expect(events(frames, 'tool_complete')[0].tool_call_id).toBe('call_abc');
    expect(session.messages[1]).toMatchObject({ role: 'assistant', reasoning: 'Thinking it over.', content: '' });
  });

  it('asks through the approval card path: pending in the hub, answered once, relayed to Hermes', async () => {
    h = await makeGatewayApp();
    h.gw.enqueue({
      steps: [
        { approval: { command: 'rm -rf build/', description: 'recursive delete', pattern_key: 'recursive_delete' } },
        { tool: 'terminal', preview: 'rm -rf build/' },
        { delta: 'Removed.' },
      ],
    });
    const sessionId = await h.newSession();
    const started = await h.start(sessionId, 'clean up');
    let pending: any = null;
    const frames = await h.stream(started.body.stream_id, {
      onFrame: async (f) => {
        if (f.event !== 'approval') return;
        pending = (await h.call('GET', `/api/approval/pending?session_id=${sessionId}`)).body;
        const r = await h.call('POST', '/api/approval/respond', { session_id: sessionId, choice: 'once', approval_id: f.data.approval_id });
        expect(r.status).toBe(200);
      },
    });
    const approval = events(frames, 'approval')[0];
    expect(approval).toMatchObject({
      command: 'rm -rf build/',
      description: 'recursive delete',
      pattern_key: 'recursive_delete',
      pattern_keys: ['recursive_delete'],
      session_id: sessionId,
      choices: ['once', 'session', 'always', 'deny'],
      pending_count: 1,
    });
    expect(pending.pending).toMatchObject({ command: 'rm -rf build/', approval_id: approval.approval_id });
    expect(h.gw.approvals).toEqual([{ run_id: approval.gateway_run_id, body: { choice: 'once' } }]);
    expect(text(frames)).toBe('Removed.');
    expect(names(frames).at(-1)).toBe('stream_end');
    expect((await h.call('GET', `/api/approval/pending?session_id=${sessionId}`)).body).toEqual({ pending: null, pending_count: 0 });
  });

  it('relays a denial (with the request id when Hermes sends one) and offers only the choices Hermes offers', async () => {
    h = await makeGatewayApp();
    h.gw.enqueue({ steps: [{ approval: { command: 'git push --force', request_id: 'req_9', choices: ['once', 'deny'] } }, { delta: 'Not pushed.' }] });
    const sessionId = await h.newSession();
    const started = await h.start(sessionId, 'push it');
    const frames = await h.stream(started.body.stream_id, {
      onFrame: async (f) => {
        if (f.event === 'approval') await h.call('POST', '/api/approval/respond', { session_id: sessionId, choice: 'deny' });
      },
    });
    expect(events(frames, 'approval')[0].choices).toEqual(['once', 'deny']);
    expect(h.gw.approvals.map((a) => a.body)).toEqual([{ choice: 'deny', request_id: 'req_9' }]);
    expect(text(frames)).toBe('Not pushed.');
  });

  it('yolo answers a waiting approval once', async () => {
    h = await makeGatewayApp();
    h.gw.enqueue({ steps: [{ approval: { command: 'rm -rf tmp' } }, { delta: 'ok' }] });
    const sessionId = await h.newSession();
    const started = await h.start(sessionId, 'go');
    await h.stream(started.body.stream_id, {
      onFrame: async (f) => {
        if (f.event === 'approval') await h.call('POST', '/api/approval/respond', { session_id: sessionId, yolo: true });
      },
    });
    expect(h.gw.approvals.map((a) => a.body.choice)).toEqual(['once']);
  });

  it('a silent stream is fine while an approval waits for a person (the read timeout is paused)', async () => {
    h = await makeGatewayApp({ readTimeoutMs: 200 });
    h.gw.enqueue({ steps: [{ approval: { command: 'rm -rf old' } }, { delta: 'ok' }] });
    const sessionId = await h.newSession();
    const started = await h.start(sessionId, 'go');
    const frames = await h.stream(started.body.stream_id, {
      onFrame: async (f) => {
        if (f.event !== 'approval') return;
        await new Promise((r) => setTimeout(r, 600));
        await h.call('POST', '/api/approval/respond', { session_id: sessionId, choice: 'once' });
      },
    });
    expect(names(frames)).not.toContain('apperror');
    expect(text(frames)).toBe('ok');
  });

  it('Stop calls POST /v1/runs/{id}/stop, ends with cancel, and keeps the partial answer', async () => {
    h = await makeGatewayApp();
    h.gw.enqueue({ steps: [{ delta: 'Working on it' }, { hang: true }] });
    const sessionId = await h.newSession();
    const started = await h.start(sessionId, 'long job');
    const frames = await h.stream(started.body.stream_id, {
      onFrame: async (f) => {
        if (f.event === 'token') await h.call('POST', '/api/chat/cancel', { stream_id: started.body.stream_id });
      },
    });
    expect(names(frames).at(-1)).toBe('cancel');
    const runId = [...h.gw.runs.keys()][0];
    expect(h.gw.stops).toEqual([runId]);
    expect(h.gw.runs.get(runId!)!.status).toBe('cancelled');
    const session = (await h.call('GET', `/api/session?session_id=${sessionId}`)).body.session;
    expect(session.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Working on it', _partial: true });
    expect(session.active_stream_id).toBeNull();
  });

  it('Stop while an approval waits withdraws the card and stops the run', async () => {
    h = await makeGatewayApp();
    h.gw.enqueue({ steps: [{ approval: { command: 'rm -rf x' } }, { delta: 'never' }] });
    const sessionId = await h.newSession();
    const started = await h.start(sessionId, 'go');
    const frames = await h.stream(started.body.stream_id, {
      onFrame: async (f) => {
        if (f.event === 'approval') await h.call('POST', '/api/chat/cancel', { stream_id: started.body.stream_id });
      },
    });
    expect(names(frames).at(-1)).toBe('cancel');
    expect(h.gw.stops).toHaveLength(1);
    expect((await h.call('GET', `/api/approval/pending?session_id=${sessionId}`)).body.pending).toBeNull();
  });

  it('sends conversation_history while Hermes does not keep the session, and none once it does and is in step', async () => {
    h = await makeGatewayApp();
    h.gw.enqueue({ steps: [{ delta: 'First answer.' }] }, { steps: [{ delta: 'Second answer.' }] });
    const { sessionId } = await h.turn('first');
    await h.turn('second', { sessionId });
    expect(h.gw.runBodies[1].conversation_history).toEqual([
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'First answer.' },
    ]);

    // A Hermes that keeps sessions loads the transcript itself when it saw all of it.
    h.gw.configure({ sessions: true });
    await h.runtime.profile(true);
    h.gw.enqueue({ steps: [{ delta: 'Third.' }] }, { steps: [{ delta: 'Fourth.' }] }, { steps: [{ delta: 'Fifth.' }] });
    const fresh = await h.turn('one'); // a new conversation: Hermes has nothing yet, so the (empty) history goes along
    expect(h.gw.runBodies[2]).toMatchObject({ session_id: fresh.sessionId, conversation_history: [] });
    await h.turn('two', { sessionId: fresh.sessionId });
    expect(h.gw.runBodies[3]).not.toHaveProperty('conversation_history');
    expect(h.gw.runBodies[3].session_id).toBe(fresh.sessionId);
    // Edited here (truncated): Hermes' copy is stale, so the history is sent again.
    await h.call('POST', '/api/session/truncate', { session_id: fresh.sessionId, keep_count: 2 });
    await h.turn('three', { sessionId: fresh.sessionId });
    expect(h.gw.runBodies[4].conversation_history).toEqual([
      { role: 'user', content: 'one' },
      { role: 'assistant', content: 'Third.' },
    ]);
  });

  it('a branch of a gateway session starts its own Hermes conversation', async () => {
    h = await makeGatewayApp({ gateway: { sessions: true } });
    h.gw.enqueue({ steps: [{ delta: 'A.' }] }, { steps: [{ delta: 'B.' }] });
    const { sessionId } = await h.turn('first');
    const branch = await h.call('POST', '/api/session/branch', { session_id: sessionId });
    expect(branch.status).toBe(200);
    const forkId = branch.body.session_id;
    await h.turn('in the fork', { sessionId: forkId });
    expect(h.gw.runBodies[1].session_id).toBe(forkId);
    expect(h.gw.runBodies[1].conversation_history).toEqual([
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'A.' },
    ]);
  });

  it('names the picked model only when the gateway offers it', async () => {
    h = await makeGatewayApp({ gateway: { models: ['hermes-agent', 'hermes-fast'] } });
    expect((await h.call('GET', '/api/models')).body.groups[0].models.map((m: any) => m.id)).toEqual(['hermes-agent', 'hermes-fast']);
    h.gw.enqueue({ steps: [{ delta: 'a' }] }, { steps: [{ delta: 'b' }] });
    await h.turn('x', { extra: { model: 'hermes-fast' } });
    await h.turn('y', { extra: { model: 'anthropic/claude-sonnet-4.6' } });
    expect(h.gw.runBodies.map((b) => b.model)).toEqual(['hermes-fast', 'hermes-agent']);
  });

  it('replays a resumed turn from the journal exactly like a builtin one', async () => {
    h = await makeGatewayApp({ storage: 'fs' });
    h.gw.enqueue({ steps: [{ delta: 'one ' }, { delta: 'two' }] });
    const sessionId = await h.newSession();
    const started = await h.start(sessionId, 'count');
    const live = await h.stream(started.body.stream_id);
    const again = await h.stream(started.body.stream_id);
    expect(names(again)).toEqual(names(live));
    expect(text(again)).toBe('one two');
  });
});
