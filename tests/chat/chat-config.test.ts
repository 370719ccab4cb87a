import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeChatApp, isTitleRequest, type ChatHarness } from '../helpers/chat.js';
import { makeTestApp } from '../helpers/app.js';
import { startScriptedAnthropic } from '../fixtures/scripted-anthropic.js';
import { readStream } from '../helpers/sse.js';

describe('chat: configuration that shapes a turn', () => {
  let t: ChatHarness;
  afterEach(async () => t?.close());

  it('approvals.deny globs block without asking; the model is told and continues', async () => {
    t = await makeChatApp({ extraYaml: 'approvals:\n  deny:\n    - "git push*"\n' });
    const sid = await t.newSession();
    t.model.enqueue([{ toolCall: { id: 'p1', name: 'terminal', args: { command: 'git push --force origin main' } } }], [{ text: 'I will not push.' }]);
    const frames = await t.stream((await t.start(sid, 'push it')).body.stream_id);
    expect(frames.map((f) => f.event)).not.toContain('approval');
    const result = t.turnRequests()[1].messages.find((m: any) => m.tool_call_id === 'p1').content;
    expect(result).toMatch(/^BLOCKED/);
    expect(result).toContain('git push*');
  });

  it('approvals.mode off runs dangerous commands without asking', async () => {
    t = await makeChatApp({ extraYaml: 'approvals:\n  mode: "off"\n' });
    const sid = await t.newSession();
    t.model.enqueue([{ toolCall: { id: 'r', name: 'terminal', args: { command: 'mkdir -p x/y && rm -rf x && echo gone' } } }], [{ text: 'done' }]);
    const frames = await t.stream((await t.start(sid, 'clean')).body.stream_id);
    expect(frames.map((f) => f.event)).not.toContain('approval');
    expect(JSON.parse(t.turnRequests()[1].messages.find((m: any) => m.tool_call_id === 'r').content).output).toContain('gone');
  });

  it('agent.max_turns caps the loop: a last tool-less call asks for a summary, with a warning', async () => {
    t = await makeChatApp({ extraYaml: 'agent:\n  max_turns: 2\n' });
    const sid = await t.newSession();
    const loop = (id: string) => [{ toolCall: { id, name: 'read_file', args: { path: 'nothing.txt' } } }];
    t.model.enqueue(loop('l1'), loop('l2'), [{ text: 'Here is where I got to.' }]);
    const frames = await t.stream((await t.start(sid, 'loop forever')).body.stream_id);
    expect(t.turnRequests()).toHaveLength(3);
    expect(t.turnRequests()[2].tools).toBeUndefined();
    expect(frames.find((f) => f.event === 'warning')!.data).toMatchObject({ type: 'tool_limit_reached' });
    const last = frames.find((f) => f.event === 'done')!.data.session.messages.at(-1);
    expect(last).toMatchObject({ content: 'Here is where I got to.', _turn_exit_reason: 'max_iterations_reached(2/2)' });
    expect(frames.at(-1)!.event).toBe('stream_end');
  });

  it('a model picked for the turn is used and remembered on the session', async () => {
    t = await makeChatApp();
    const sid = await t.newSession();
    t.model.enqueue([{ text: 'hi' }]);
    await t.stream((await t.start(sid, 'hello', { model: 'other-model' })).body.stream_id);
    expect(t.turnRequests()[0].model).toBe('other-model');
    expect((await t.call('GET', `/api/session?session_id=${sid}`)).body.session.model).toBe('other-model');
  });

  it('cancelling while an approval waits ends the turn and clears the pending approval', async () => {
    t = await makeChatApp();
    const sid = await t.newSession();
    t.model.enqueue([{ toolCall: { id: 'c', name: 'terminal', args: { command: 'rm -rf stuff' } } }]);
    const { stream_id } = (await t.start(sid, 'delete stuff')).body;
    const frames = await t.stream(stream_id, {
      onFrame: async (f) => {
        if (f.event === 'approval') await t.call('POST', '/api/chat/cancel', { stream_id });
      },
    });
    expect(frames.at(-1)!.event).toBe('cancel');
    expect((await t.call('GET', `/api/approval/pending?session_id=${sid}`)).body).toEqual({ pending: null, pending_count: 0 });
    const s = (await t.call('GET', `/api/session?session_id=${sid}`)).body.session;
    expect(s.active_stream_id).toBeNull();
    // The unanswered call is kept as partial; the next turn's history pairs it with a stand-in result.
    t.model.enqueue([{ text: 'ok' }]);
    await t.stream((await t.start(sid, 'never mind')).body.stream_id);
    const history = t.turnRequests().at(-1).messages;
    const call = history.findIndex((m: any) => m.tool_calls?.[0]?.id === 'c');
    expect(history[call + 1]).toMatchObject({ role: 'tool', tool_call_id: 'c' });
    expect(history[call + 1].content).toMatch(/interrupted/);
  });
});

describe('chat: an Anthropic model', () => {
  it('streams thinking and text, runs a tool, and counts usage, over the Messages API', async () => {
    const model = await startScriptedAnthropic();
    model.setRouter((req) => (isTitleRequest({ body: { messages: [{ content: req.body?.system }] } }) ? [{ text: 'Anthropic title' }] : undefined));
    const t = await makeTestApp({
      configYaml: `model:\n  default: claude-test\n  provider: anthropic\n  base_url: ${model.url}\n`,
      agentEnv: { ANTHROPIC_API_KEY: 'sk-ant-test' },
    });
    try {
      const sid = await t.newSession();
      await writeFile(join(t.workspace, 'notes.md'), '# Notes\nbuy milk\n');
      model.enqueue(
        [
          { reasoning: 'Read the notes first.' },
          { toolCall: { id: 'toolu_1', name: 'read_file', args: { path: 'notes.md' } } },
          { usage: { inputTokens: 50, outputTokens: 10 } },
        ],
        [{ text: 'Your notes say: buy milk.' }, { usage: { inputTokens: 80, outputTokens: 8 } }],
      );
      const start = await t.call('POST', '/api/chat/start', { session_id: sid, message: 'what do my notes say?' });
      expect(start.status).toBe(200);
      const frames = await readStream(await t.app.request(`/api/chat/stream?stream_id=${start.body.stream_id}`));
      expect(
        frames
          .filter((f) => f.event === 'reasoning')
          .map((f) => f.data.text)
          .join(''),
      ).toBe('Read the notes first.');
      expect(frames.find((f) => f.event === 'tool_complete')!.data).toMatchObject({ name: 'read_file', is_error: false });
      const done = frames.find((f) => f.event === 'done')!.data;
      expect(done.session.messages.at(-1).content).toBe('Your notes say: buy milk.');
      expect(done.usage).toMatchObject({ input_tokens: 130, output_tokens: 18 });
      const turn = model.requests.filter((r) => r.body.system !== undefined && !String(r.body.system).startsWith('Write a title'));
      expect(turn[0]!.headers['x-api-key']).toBe('sk-ant-test');
      // The tool result went back as a tool_result block in a user message.
      const second = turn[1]!.body.messages;
      expect(second.at(-1).content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_1' });
    } finally {
      await t.close();
      await model.close();
    }
  });
});
