import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { events, makeGatewayApp, names, text, type GatewayHarness } from './harness.js';

/** Browser-turn prefill on gateway-backed turns: sent to Hermes' API server the way the incumbent sends it. */
describe('gateway runtime: browser-turn prefill', () => {
  let h: GatewayHarness | undefined;
  let dir = '';
  afterEach(async () => {
    await h?.close();
    h = undefined;
    if (dir) await rm(dir, { recursive: true, force: true });
    dir = '';
  });

  async function script(name: string, body: string) {
    dir ||= await mkdtemp(join(tmpdir(), 'hermes-gw-prefill-'));
    const path = join(dir, name);
    await writeFile(path, `#!/bin/sh\n${body}\n`);
    await chmod(path, 0o755);
    return path;
  }

  const NOTES = `printf '{"messages":[{"role":"system","content":"Team notes."},{"role":"user","content":"Who is on call?"},{"role":"assistant","content":"Ada is."}]}'`;

  it('runs API: system text goes as `instructions`, the exchange ahead of the conversation; context_status comes first', async () => {
    const path = await script('notes.sh', NOTES);
    h = await makeGatewayApp({ env: { HERMES_WEBUI_PREFILL_MESSAGES_SCRIPT: path } });
    h.gw.enqueue({ steps: [{ delta: 'one' }, { done: {} }] }, { steps: [{ delta: 'two' }, { done: {} }] });
    const { sessionId, frames } = await h.turn('first');
    expect(text(frames)).toBe('one');
    expect(events(frames, 'context_status')).toEqual([
      { session_id: sessionId, prefill: { status: 'loaded', source: 'script', label: 'notes.sh', message_count: 3 } },
    ]);
    expect(names(frames).indexOf('context_status')).toBeLessThan(names(frames).indexOf('token'));
    const exchange = [
      { role: 'user', content: 'Who is on call?' },
      { role: 'assistant', content: 'Ada is.' },
    ];
    expect(h.gw.runBodies[0]).toEqual({
      input: 'first',
      session_id: sessionId,
      model: 'hermes-agent',
      instructions: '# Context provided for this chat\n\nTeam notes.',
      conversation_history: exchange,
    });
    // The next turn gets it again (read fresh), ahead of what was said so far; the transcript never holds it.
    const second = await h.turn('second', { sessionId });
    expect(h.gw.runBodies[1].conversation_history).toEqual([...exchange, { role: 'user', content: 'first' }, { role: 'assistant', content: 'one' }]);
    expect(second.session.messages.map((m: { content: string }) => m.content)).toEqual(['first', 'one', 'second', 'two']);
  });

  it('chat completions: a system message first, then the exchange, the conversation and the new message', async () => {
    const path = await script('notes.sh', NOTES);
    h = await makeGatewayApp({ gateway: { runs: false }, env: { HERMES_WEBUI_PREFILL_MESSAGES_SCRIPT: path } });
    h.gw.enqueue({ steps: [{ delta: 'answered' }] });
    const { frames } = await h.turn('hello');
    expect(text(frames)).toBe('answered');
    expect(h.gw.chats[0]!.body.messages).toEqual([
      { role: 'system', content: '# Context provided for this chat\n\nTeam notes.' },
      { role: 'user', content: 'Who is on call?' },
      { role: 'assistant', content: 'Ada is.' },
      { role: 'user', content: 'hello' },
    ]);
  });

  it('config.yaml keys apply when no variable is set (a relative file beside config.yaml)', async () => {
    h = await makeGatewayApp({ configYaml: 'prefill_messages_file: notes.json\n' });
    await writeFile(join(h.hermesHome, 'notes.json'), JSON.stringify([{ role: 'system', content: 'From the file.' }]));
    h.gw.enqueue({ steps: [{ delta: 'ok' }, { done: {} }] });
    const { frames } = await h.turn('hi');
    expect(events(frames, 'context_status')[0].prefill).toEqual({ status: 'loaded', source: 'file', label: 'notes.json', message_count: 1 });
    expect(h.gw.runBodies[0].instructions).toBe('# Context provided for this chat\n\nFrom the file.');
    expect(h.gw.runBodies[0].conversation_history).toEqual([]);
  });

  it('a slow script is killed at its timeout: the turn goes on without context, and says so', async () => {
    const path = await script('slow.sh', 'sleep 60\necho never');
    h = await makeGatewayApp({ env: { HERMES_WEBUI_PREFILL_MESSAGES_SCRIPT: path, HERMES_WEBUI_PREFILL_MESSAGES_SCRIPT_TIMEOUT: '0.3' } });
    h.gw.enqueue({ steps: [{ delta: 'still here' }, { done: {} }] });
    const { frames } = await h.turn('hi');
    expect(text(frames)).toBe('still here');
    expect(events(frames, 'context_status')[0].prefill).toEqual({
      status: 'error',
      source: 'script',
      label: 'slow.sh',
      message_count: 0,
      error: 'prefill script timed out',
    });
    expect(h.gw.runBodies[0]).not.toHaveProperty('instructions');
  });

  it('a failing or chatty script: the turn goes on, nothing of it is sent', async () => {
    const failing = await script('fail.sh', 'echo "notes server down" >&2\nexit 2');
    const chatty = await script('huge.sh', 'yes prefill | head -c 1000000');
    for (const path of [failing, chatty]) {
      h = await makeGatewayApp({ gateway: { runs: false }, env: { HERMES_WEBUI_PREFILL_MESSAGES_SCRIPT: path } });
      h.gw.enqueue({ steps: [{ delta: 'fine' }] });
      const { frames } = await h.turn('hi');
      expect(text(frames)).toBe('fine');
      expect(events(frames, 'context_status')[0].prefill.status).toBe('error');
      expect(h.gw.chats[0]!.body.messages).toEqual([{ role: 'user', content: 'hi' }]);
      await h.close();
      h = undefined;
    }
  });
});
