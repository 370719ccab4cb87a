import { afterEach, describe, expect, it } from 'vitest';
import { events, makeGatewayApp, names, text, type GatewayHarness } from './harness.js';

/** A Hermes without the runs API: streaming chat completions with X-Hermes-Session-Id. */
describe('gateway runtime: the chat-completions fallback', () => {
  let h: GatewayHarness;
  afterEach(async () => h?.close());

  it('is chosen when the runs API is not advertised, and streams text, reasoning and tool progress', async () => {
    h = await makeGatewayApp({ gateway: { runs: false, apiKey: 'k-123456' } });
    h.gw.enqueue({
      steps: [
        { reasoning: 'hmm' },
        { delta: 'Checking. ' },
        { tool: 'terminal', preview: 'ls' },
        { delta: 'Two files.' },
        { done: { usage: { input_tokens: 40, output_tokens: 9 } } },
      ],
    });
    const { sessionId, frames, session } = await h.turn('what is here?');
    expect(h.gw.runBodies).toHaveLength(0);
    expect(text(frames)).toBe('Checking. Two files.');
    expect(events(frames, 'reasoning')).toEqual([{ text: 'hmm' }]);
    expect(events(frames, 'tool')).toEqual([
      { name: 'terminal', preview: 'terminal ls', args: { command: 'ls' }, tool_call_id: 'call_1', event_type: 'tool.started' },
    ]);
    expect(events(frames, 'tool_complete')[0]).toMatchObject({ tool_call_id: 'call_1', is_error: false, event_type: 'tool.completed' });
    expect(session.messages.slice(1).map((m: any) => m.role)).toEqual(['assistant', 'tool', 'assistant']);
    expect(session.messages.at(-1).content).toBe('Two files.');
    expect(session.input_tokens).toBe(40);
    // The request: OpenAI messages, streaming, the memory scope (a key is set), no session id yet.
    expect(h.gw.chats[0]).toMatchObject({ sessionId: undefined, sessionKey: `webui:${sessionId}` });
    expect(h.gw.chats[0]!.body).toEqual({ model: 'hermes-agent', messages: [{ role: 'user', content: 'what is here?' }], stream: true });
  });

  it('continues with the X-Hermes-Session-Id Hermes answered, re-read from every response', async () => {
    h = await makeGatewayApp({ gateway: { runs: false } });
    h.gw.enqueue(
      { steps: [{ delta: 'one' }], sessionId: 'api-00000000000000a1' },
      { steps: [{ delta: 'two' }], sessionId: 'api-00000000000000b2' },
      { steps: [{ delta: 'three' }] },
    );
    const { sessionId } = await h.turn('first');
    await h.turn('second', { sessionId });
    await h.turn('third', { sessionId });
    // The second answer moved the conversation (compression): the third turn follows it.
    expect(h.gw.chats.map((c) => c.sessionId)).toEqual([undefined, 'api-00000000000000a1', 'api-00000000000000b2']);
    expect(h.gw.chats[2]!.body.messages).toEqual([
      { role: 'user', content: 'first' },
      { role: 'assistant', content: 'one' },
      { role: 'user', content: 'second' },
      { role: 'assistant', content: 'two' },
      { role: 'user', content: 'third' },
    ]);
    // No key: no session key (Hermes refuses one without a key).
    expect(h.gw.chats[0]!.sessionKey).toBeUndefined();
  });

  it('starts a new Hermes session when the stored one is unknown there, sending the history along', async () => {
    h = await makeGatewayApp({ gateway: { runs: false } });
    h.gw.enqueue({ steps: [{ delta: 'one' }] }, { steps: [{ delta: 'two' }] });
    const { sessionId } = await h.turn('first');
    const stored = (await h.deps.sessions.get(sessionId))!;
    await h.deps.sessions.update(sessionId, { hermes_gateway: { ...(stored.hermes_gateway as object), session_id: 'api-ffffffffffffffff' } });
    const { frames } = await h.turn('second', { sessionId });
    expect(text(frames)).toBe('two');
    expect(h.gw.chats.map((c) => c.sessionId)).toEqual([undefined, 'api-ffffffffffffffff', undefined]);
    expect(h.gw.chats[2]!.body.messages).toHaveLength(3);
  });

  it("adds only the growth of Hermes' running session totals to the session", async () => {
    h = await makeGatewayApp({ gateway: { runs: false } });
    h.gw.enqueue(
      { steps: [{ delta: 'a' }, { done: { usage: { input_tokens: 100, output_tokens: 10 } } }] },
      { steps: [{ delta: 'b' }, { done: { usage: { input_tokens: 250, output_tokens: 25 } } }] },
    );
    const { sessionId } = await h.turn('x');
    const second = await h.turn('y', { sessionId });
    expect(events(second.frames, 'done')[0].usage).toMatchObject({ input_tokens: 150, output_tokens: 15 });
    expect([second.session.input_tokens, second.session.output_tokens]).toEqual([250, 25]);
  });

  it('Stop closes the connection and ends with cancel, keeping the partial answer', async () => {
    h = await makeGatewayApp({ gateway: { runs: false } });
    h.gw.enqueue({ steps: [{ delta: 'Partial' }, { hang: true }] });
    const sessionId = await h.newSession();
    const started = await h.start(sessionId, 'go');
    const frames = await h.stream(started.body.stream_id, {
      onFrame: async (f) => {
        if (f.event === 'token') await h.call('POST', '/api/chat/cancel', { stream_id: started.body.stream_id });
      },
    });
    expect(names(frames).at(-1)).toBe('cancel');
    const session = (await h.call('GET', `/api/session?session_id=${sessionId}`)).body.session;
    expect(session.messages.at(-1)).toMatchObject({ content: 'Partial', _partial: true });
  });

  it('an approval request it cannot answer becomes a warning; a failure an apperror', async () => {
    h = await makeGatewayApp({ gateway: { runs: false } });
    h.gw.enqueue({ steps: [{ approval: { command: 'rm -rf /tmp/x' } }, { delta: 'Skipped that.' }] }, { steps: [{ delta: 'so' }, { fail: 'model exploded' }] });
    const first = await h.turn('a');
    expect(events(first.frames, 'warning')[0]).toMatchObject({ type: 'approval_unavailable' });
    expect(events(first.frames, 'warning')[0].message).toContain('rm -rf /tmp/x');
    expect(text(first.frames)).toBe('Skipped that.');
    const second = await h.turn('b');
    expect(events(second.frames, 'apperror')[0]).toMatchObject({ type: 'error', message: 'Hermes Agent could not finish: model exploded' });
  });

  it('a stream cut short (no finish, no [DONE]) or gone silent is an apperror', async () => {
    h = await makeGatewayApp({ gateway: { runs: false }, readTimeoutMs: 250 });
    h.gw.enqueue({ steps: [{ delta: 'half' }, { end: true }] }, { steps: [{ delta: 'half' }, { hang: true }] });
    const cut = await h.turn('a');
    expect(events(cut.frames, 'apperror')[0]).toMatchObject({ type: 'no_response', message: 'Hermes Agent stopped mid-answer (the stream ended early)' });
    const quiet = await h.turn('b');
    expect(events(quiet.frames, 'apperror')[0].message).toMatch(/went silent/);
  });

  it('an old Hermes without /v1/capabilities is driven over chat completions', async () => {
    h = await makeGatewayApp({ gateway: { capabilities: false } });
    h.gw.enqueue({ steps: [{ delta: 'old but fine' }] });
    const { frames } = await h.turn('hi');
    expect(text(frames)).toBe('old but fine');
    expect(h.gw.chats).toHaveLength(1);
    expect((await h.call('GET', '/api/agent')).body).toMatchObject({ path: 'chat_completions', features: { approvals: false } });
  });
});
