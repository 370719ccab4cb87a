import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedOpenAI, type ScriptedServer } from '../fixtures/scripted-openai.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { isTitleRequest, TITLE } from '../helpers/chat.js';
import { readStream } from '../helpers/sse.js';

/** One OpenRouter-style chunk carrying reasoning_details pieces, as the real stream sends them. */
const detailsChunk = (details: unknown[]) => ({
  raw: `data: ${JSON.stringify({ id: 'gen-1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { reasoning_details: details }, finish_reason: null }] })}`,
});

describe('reasoning replay where Hermes replays it', () => {
  let t: TestApp | null = null;
  let model: ScriptedServer | null = null;
  afterEach(async () => {
    await t?.close();
    await model?.close();
    t = model = null;
  });

  async function app(yaml: (url: string) => string, env: Record<string, string> = {}) {
    model = await startScriptedOpenAI();
    model.setRouter((req) => (isTitleRequest(req) ? [{ text: TITLE }] : undefined));
    t = await makeTestApp({ configYaml: yaml(model.url), agentEnv: env });
    return { t, model };
  }
  async function turn(sid: string, message: string) {
    const r = await t!.call('POST', '/api/chat/start', { session_id: sid, message });
    const frames = await readStream(await t!.app.request(`/api/chat/stream?stream_id=${r.body.stream_id}`));
    expect(frames.at(-1)!.event).toBe('stream_end');
  }
  const turnBodies = () => model!.requests.filter((r) => !isTitleRequest(r)).map((r) => r.body);

  it('OpenRouter: reasoning_details streamed in pieces are kept whole and sent back, signature included', async () => {
    const { t, model } = await app((url) => `model:\n  default: anthropic/claude-sonnet-4.6\n  provider: openrouter\n  base_url: ${url}\n`, {
      OPENROUTER_API_KEY: 'sk-or-test',
    });
    model.enqueue(
      [
        { reasoning: 'Think', field: 'reasoning' },
        detailsChunk([{ type: 'reasoning.text', text: 'Think', index: 0, format: 'anthropic-claude-v1' }]),
        detailsChunk([{ type: 'reasoning.text', text: 'ing.', index: 0, signature: 'c2ln' }]),
        { text: 'Done.' },
      ],
      [{ text: 'Second.' }],
    );
    const sid = await t.newSession();
    await turn(sid, 'one');
    await turn(sid, 'two');
    const stored = (await t.call('GET', `/api/session?session_id=${sid}`)).body.session.messages[1];
    expect(stored.reasoning_details).toEqual([{ type: 'reasoning.text', text: 'Thinking.', index: 0, format: 'anthropic-claude-v1', signature: 'c2ln' }]);
    const replayed = turnBodies()[1].messages.find((m: any) => m.role === 'assistant');
    expect(replayed.reasoning_details).toEqual(stored.reasoning_details);
    // OpenRouter gets the structured form, not the echo field.
    expect(replayed).not.toHaveProperty('reasoning_content');
  });

  it('DeepSeek: every assistant turn goes back with reasoning_content (a space where it had none)', async () => {
    const { t, model } = await app((url) => `model:\n  default: deepseek-v4-pro\n  provider: custom\n  base_url: ${url}\n`);
    model.enqueue([{ reasoning: 'List first.' }, { toolCall: { id: 'c1', name: 'todo', args: { todos: [] } } }], [{ text: 'Listed.' }], [{ text: 'Again.' }]);
    const sid = await t.newSession();
    await turn(sid, 'one');
    await turn(sid, 'two');
    const assistants = turnBodies()[2].messages.filter((m: any) => m.role === 'assistant');
    expect(assistants.map((m: any) => m.reasoning_content)).toEqual(['List first.', ' ']);
    expect(assistants.every((m: any) => !('reasoning_details' in m))).toBe(true);
  });

  it('any other endpoint gets no reasoning fields back', async () => {
    const { t, model } = await app((url) => `model:\n  default: qwen3-8b\n  provider: custom\n  base_url: ${url}\n`);
    model.enqueue([{ reasoning: 'Hmm.' }, { text: 'One.' }], [{ text: 'Two.' }]);
    const sid = await t.newSession();
    await turn(sid, 'one');
    await turn(sid, 'two');
    const assistant = turnBodies()[1].messages.find((m: any) => m.role === 'assistant');
    expect(Object.keys(assistant).sort()).toEqual(['content', 'role']);
  });
});
