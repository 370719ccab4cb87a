import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';
import { startScriptedOpenAI } from '../fixtures/scripted-openai.js';
import { TURN_LIMIT_SUMMARY_REQUEST } from '../../src/agent/builtin/turn-limit.js';
import { SUMMARY_PREFIX } from '../../src/agent/builtin/history.js';

/** The builtin agent over a scripted OpenAI server, configured the way Hermes' config.yaml is. */
describe('chat: Hermes config.yaml shapes the builtin loop', () => {
  let t: ChatHarness;
  afterEach(async () => t?.close());
  const loop = (id: string) => [{ toolCall: { id, name: 'read_file', args: { path: 'nothing.txt' } } }];

  it('agent.max_turns: unlimited loads and does not cap the turn', async () => {
    t = await makeChatApp({ extraYaml: 'agent:\n  max_turns: unlimited\n' });
    const sid = await t.newSession();
    for (let i = 0; i < 5; i++) t.model.enqueue(loop(`l${i}`));
    t.model.enqueue([{ text: 'finished' }]);
    const frames = await t.stream((await t.start(sid, 'keep going')).body.stream_id);
    expect(t.turnRequests()).toHaveLength(6);
    expect(frames.map((f) => f.event)).not.toContain('warning');
    expect(frames.find((f) => f.event === 'done')!.data.session.messages.at(-1).content).toBe('finished');
  });

  it('agent.max_turns: 0 and -1 mean unlimited too (they used to cap at one step)', async () => {
    for (const value of ['0', '-1']) {
      t = await makeChatApp({ extraYaml: `agent:\n  max_turns: ${value}\n` });
      const sid = await t.newSession();
      t.model.enqueue(loop('a'), loop('b'), [{ text: 'ok' }]);
      await t.stream((await t.start(sid, 'go')).body.stream_id);
      expect(t.turnRequests(), value).toHaveLength(3);
      if (value === '0') await t.close(); // the last one is closed by afterEach
    }
  });

  it('a finite cap ends with one tool-less call asking for a summary, stored with the exit reason', async () => {
    t = await makeChatApp({ extraYaml: 'agent:\n  max_turns: 2\n' });
    const sid = await t.newSession();
    t.model.enqueue(loop('l1'), loop('l2'), [{ text: 'Summary: ' }, { text: 'I read nothing.txt twice.' }]);
    const frames = await t.stream((await t.start(sid, 'loop forever')).body.stream_id);
    const requests = t.turnRequests();
    expect(requests).toHaveLength(3);
    const last = requests[2];
    expect(last.tools).toBeUndefined();
    expect(last.messages.at(-1)).toEqual({ role: 'user', content: TURN_LIMIT_SUMMARY_REQUEST });
    // The model saw both tool steps before being asked.
    expect(last.messages.filter((m: any) => m.role === 'tool')).toHaveLength(2);
    expect(frames.find((f) => f.event === 'warning')!.data).toMatchObject({ type: 'tool_limit_reached' });
    const tokens = frames
      .filter((f) => f.event === 'token')
      .map((f) => f.data.text)
      .join('');
    expect(tokens).toBe('Summary: I read nothing.txt twice.');
    const stored = frames.find((f) => f.event === 'done')!.data.session.messages;
    expect(stored.at(-1)).toMatchObject({ role: 'assistant', content: 'Summary: I read nothing.txt twice.', _turn_exit_reason: 'max_iterations_reached(2/2)' });
    // The request itself is not part of the transcript.
    expect(stored.filter((m: any) => m.role === 'user')).toHaveLength(1);
    expect(frames.at(-1)!.event).toBe('stream_end');
  });

  it('if the summary call fails, a note says where the turn stopped', async () => {
    t = await makeChatApp({ extraYaml: 'agent:\n  max_turns: 1\n  api_max_retries: 0\n' });
    const sid = await t.newSession();
    t.model.enqueue(loop('l1'), { status: 400, body: { error: { message: 'bad request' } } });
    const frames = await t.stream((await t.start(sid, 'go')).body.stream_id);
    const last = frames.find((f) => f.event === 'done')!.data.session.messages.at(-1);
    expect(last.content).toMatch(/stopped after 1 steps/);
    expect(last._turn_exit_reason).toBe('max_iterations_reached(1/1)');
  });

  it('the memory snapshot is rendered as Hermes renders it and stays fixed while the tool writes', async () => {
    t = await makeChatApp({ extraYaml: 'memory:\n  user_profile_enabled: false\n  memory_char_limit: 500\n' });
    await mkdir(join(t.hermesHome, 'memories'), { recursive: true });
    await writeFile(join(t.hermesHome, 'memories/MEMORY.md'), 'Uses pnpm');
    await writeFile(join(t.hermesHome, 'memories/USER.md'), 'Name: Sam');
    const sid = await t.newSession();
    t.model.enqueue(
      [{ toolCall: { id: 'm1', name: 'memory', args: { action: 'add', target: 'memory', content: 'CI is GitHub Actions' } } }],
      [{ text: 'noted' }],
    );
    await t.stream((await t.start(sid, 'remember CI')).body.stream_id);
    const [first, second] = t.turnRequests();
    const rule = '═'.repeat(46);
    expect(first.messages[0].content).toContain(`${rule}\nMEMORY (your personal notes) [1% — 9/500 chars]\n${rule}\nUses pnpm`);
    expect(first.messages[0].content).not.toContain('USER PROFILE');
    // The write landed on disk, with the configured limit, but the prompt kept its snapshot.
    expect(await readFile(join(t.hermesHome, 'memories/MEMORY.md'), 'utf8')).toBe('Uses pnpm\n§\nCI is GitHub Actions');
    expect(JSON.parse(second.messages.find((m: any) => m.tool_call_id === 'm1').content)).toMatchObject({ success: true, usage: '6% — 32/500 chars' });
    expect(second.messages[0].content).toBe(first.messages[0].content);
  });

  it('with both memory stores off there is no memory tool and no memory block', async () => {
    t = await makeChatApp({ extraYaml: 'memory:\n  memory_enabled: false\n  user_profile_enabled: false\n' });
    await mkdir(join(t.hermesHome, 'memories'), { recursive: true });
    await writeFile(join(t.hermesHome, 'memories/MEMORY.md'), 'Uses pnpm');
    const sid = await t.newSession();
    t.model.enqueue([{ text: 'hi' }]);
    await t.stream((await t.start(sid, 'hello')).body.stream_id);
    const [req] = t.turnRequests();
    expect(req.tools.map((x: any) => x.function.name)).not.toContain('memory');
    expect(req.messages[0].content).not.toContain('Uses pnpm');
  });

  it('compression keeps protect_first_n head messages and frames the summary as reference only', async () => {
    t = await makeChatApp({ extraYaml: '  context_length: 1000\ncompression:\n  protect_last_n: 2\n' });
    const sid = await t.newSession();
    for (let i = 1; i <= 3; i++) {
      t.model.enqueue([{ text: `answer ${i}` }, { usage: { inputTokens: 100 * i, outputTokens: 5 } }]);
      await t.stream((await t.start(sid, `question ${i}`)).body.stream_id);
    }
    // 850 tokens is Hermes' trigger for a 1,000-token window (0.75 floor, then 85% of a window under 64K).
    t.model.enqueue([{ text: 'x' }, { usage: { inputTokens: 849, outputTokens: 1 } }]);
    await t.stream((await t.start(sid, 'question 4')).body.stream_id);
    t.model.enqueue([{ text: 'y' }, { usage: { inputTokens: 850, outputTokens: 1 } }]);
    const quiet = await t.stream((await t.start(sid, 'question 5')).body.stream_id);
    expect(quiet.map((f) => f.event)).not.toContain('compressing');
    t.model.enqueue([{ text: 'SUMMARY: questions 2-4.' }], [{ text: 'answer 6' }]);
    const frames = await t.stream((await t.start(sid, 'question 6')).body.stream_id);
    expect(frames.map((f) => f.event)).toContain('compressed');
    const [summaryReq, turnReq] = t.turnRequests().slice(-2);
    // The head (question 1, answer 1, question 2) is not summarised.
    expect(summaryReq.messages[1].content).not.toContain('question 1');
    expect(summaryReq.messages[1].content).toContain('answer 2');
    const roles = turnReq.messages.map((m: any) => m.role);
    const contents = turnReq.messages.map((m: any) => m.content);
    expect(contents.slice(1, 4)).toEqual(['question 1', 'answer 1', 'question 2']);
    // After a user head message the summary speaks as the assistant… but the tail opens with the
    // assistant's "y", and a user summary would follow the user head: so it goes in front of "y".
    expect(roles.slice(1)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(contents[4].startsWith(SUMMARY_PREFIX)).toBe(true);
    expect(contents[4]).toMatch(/^\[CONTEXT COMPACTION — REFERENCE ONLY\]/);
    expect(contents[4]).toContain('SUMMARY: questions 2-4.');
    expect(contents[4].endsWith('\n\ny')).toBe(true);
    expect(contents.at(-1)).toBe('question 6');
    const s = (await t.call('GET', `/api/session?session_id=${sid}`)).body.session;
    expect(s.messages.filter((m: any) => m.role === 'user')).toHaveLength(6);
  });

  it('auxiliary.compression: the summary is written by the configured model and endpoint', async () => {
    const aux = await startScriptedOpenAI();
    try {
      t = await makeChatApp({
        extraYaml: `  context_length: 1000\ncompression:\n  protect_first_n: 1\n  protect_last_n: 2\nauxiliary:\n  compression:\n    model: summary-model\n    base_url: ${aux.url}\n    api_key: aux-key\n`,
      });
      const sid = await t.newSession();
      for (let i = 1; i <= 3; i++) {
        t.model.enqueue([{ text: `answer ${i}` }, { usage: { inputTokens: i === 3 ? 900 : 10, outputTokens: 5 } }]);
        await t.stream((await t.start(sid, `question ${i}`)).body.stream_id);
      }
      aux.enqueue([{ text: 'SUMMARY from the small model.' }]);
      t.model.enqueue([{ text: 'answer 4' }]);
      const frames = await t.stream((await t.start(sid, 'question 4')).body.stream_id);
      expect(frames.map((f) => f.event)).toContain('compressed');
      expect(aux.requests).toHaveLength(1);
      expect(aux.requests[0]!.body.model).toBe('summary-model');
      expect(aux.requests[0]!.headers.authorization).toBe('Bearer aux-key');
      // The main endpoint answered the turns only, and the turn saw the small model's summary.
      expect(t.turnRequests().every((r: any) => r.model === 'test-model')).toBe(true);
      expect(JSON.stringify(t.turnRequests().at(-1).messages)).toContain('SUMMARY from the small model.');
    } finally {
      await aux.close();
    }
  });

  it('a failed summary drops the middle with a stand-in (Hermes’ default) or, with abort_on_summary_failure, compresses nothing', async () => {
    for (const abort of [false, true]) {
      t = await makeChatApp({
        extraYaml: `  context_length: 1000\nagent:\n  api_max_retries: 0\ncompression:\n  protect_first_n: 1\n  protect_last_n: 2\n  abort_on_summary_failure: ${abort}\n`,
      });
      const sid = await t.newSession();
      for (let i = 1; i <= 3; i++) {
        t.model.enqueue([{ text: `answer ${i}` }, { usage: { inputTokens: i === 3 ? 900 : 10, outputTokens: 5 } }]);
        await t.stream((await t.start(sid, `question ${i}`)).body.stream_id);
      }
      t.model.enqueue({ status: 400, body: { error: { message: 'summary model refused' } } }, [{ text: 'answer 4' }]);
      const frames = await t.stream((await t.start(sid, 'question 4')).body.stream_id);
      const events = frames.map((f) => f.event);
      const history = JSON.stringify(t.turnRequests().at(-1).messages);
      expect(frames.find((f) => f.event === 'done')!.data.session.messages.at(-1).content).toBe('answer 4');
      if (abort) {
        expect(events).not.toContain('compressed');
        expect(history).toContain('answer 2');
      } else {
        expect(events).toContain('compressed');
        expect(frames.find((f) => f.event === 'warning')!.data).toMatchObject({ type: 'compression_summary_failed' });
        expect(history).toContain('No summary could be written for 4 earlier messages');
        expect(history).toContain('- question 2');
        expect(history).not.toContain('answer 2');
      }
      if (!abort) await t.close(); // the last one is closed by afterEach
    }
  });
});
