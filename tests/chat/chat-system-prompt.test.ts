import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startScriptedOpenAI } from '../fixtures/scripted-openai.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { isTitleRequest, TITLE } from '../helpers/chat.js';
import { readStream } from '../helpers/sse.js';

async function turn(t: TestApp, sid: string, message: string) {
  const r = await t.call('POST', '/api/chat/start', { session_id: sid, message });
  expect(r.status).toBe(200);
  const res = await t.app.request(`/api/chat/stream?stream_id=${r.body.stream_id}`);
  const frames = await readStream(res);
  expect(frames.at(-1)!.event).toBe('stream_end');
}

describe('chat: the system prompt is built once per session and stored', () => {
  it('is byte-identical across turns (memory edited in between) and across a server restart', async () => {
    const model = await startScriptedOpenAI();
    model.setRouter((req) => (isTitleRequest(req) ? [{ text: TITLE }] : undefined));
    model.setFallback(() => [{ text: 'ok' }]);
    const dir = await mkdtemp(join(tmpdir(), 'hermes-prompt-'));
    const configYaml = `model:\n  default: test-model\n  provider: custom\n  base_url: ${model.url}\n`;
    let first: TestApp | null = null;
    let second: TestApp | null = null;
    try {
      first = await makeTestApp({ storage: 'fs', dir, configYaml });
      await mkdir(join(first.hermesHome, 'memories'), { recursive: true });
      await writeFile(join(first.hermesHome, 'memories', 'MEMORY.md'), 'The user likes tea.');
      const sid = await first.newSession();
      await turn(first, sid, 'one');
      // A memory written during the session shows in the next session, not in this prompt.
      await writeFile(join(first.hermesHome, 'memories', 'MEMORY.md'), 'The user likes coffee now.');
      await turn(first, sid, 'two');
      await first.close();
      first = null;

      second = await makeTestApp({ storage: 'fs', dir, configYaml });
      await turn(second, sid, 'three');

      const prompts = model.requests.filter((r) => !isTitleRequest(r)).map((r) => r.body.messages[0]);
      expect(prompts).toHaveLength(3);
      expect(prompts[0].role).toBe('system');
      expect(prompts[0].content).toContain('The user likes tea.');
      expect(prompts[1].content).toBe(prompts[0].content);
      expect(prompts[2].content).toBe(prompts[0].content);

      // Stored with the session on disk; left out of what the page is sent.
      const onDisk = JSON.parse(await readFile(join(second.stateDir, 'sessions', `${sid}.json`), 'utf8'));
      expect(onDisk.builtin_system_prompt).toMatchObject({ text: prompts[0].content, model: 'test-model', provider: 'custom' });
      const shown = (await second.call('GET', `/api/session?session_id=${sid}`)).body.session;
      expect(shown).not.toHaveProperty('builtin_system_prompt');
      expect(shown.messages.map((m: any) => m.content)).toEqual(['one', 'ok', 'two', 'ok', 'three', 'ok']);

      // Another session gets a prompt of its own, with the memory as it is now.
      const other = await second.newSession();
      await turn(second, other, 'new');
      const last = model.requests.filter((r) => !isTitleRequest(r)).at(-1)!.body.messages[0].content;
      expect(last).toContain('The user likes coffee now.');
    } finally {
      await first?.close();
      await second?.close();
      await model.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
