import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { startScriptedOpenAI, type ScriptedServer } from '../fixtures/scripted-openai.js';

/** The incumbent's browser-turn prefill (HERMES_WEBUI_PREFILL_*), as the scripted model receives it. */
describe('chat: browser-turn prefill context', () => {
  let t: ChatHarness | undefined;
  let dir: string;
  afterEach(async () => {
    await t?.close();
    t = undefined;
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  async function scratch() {
    dir = await mkdtemp(join(tmpdir(), 'hermes-prefill-'));
    return dir;
  }
  async function script(name: string, body: string) {
    const path = join(dir, name);
    await writeFile(path, `#!/bin/sh\n${body}\n`);
    await chmod(path, 0o755);
    return path;
  }
  /** One turn; the messages the model received. */
  async function turn(env: Record<string, string>, before?: (t: ChatHarness) => Promise<void>, extraYaml?: string) {
    t = await makeChatApp({ env, ...(extraYaml ? { extraYaml } : {}) });
    await before?.(t);
    const sid = await t.newSession();
    t.model.enqueue([{ text: 'answered' }]);
    const frames = await t.stream((await t.start(sid, 'hello')).body.stream_id);
    const done = frames.find((f) => f.event === 'done')!;
    expect(done, 'the turn finished').toBeDefined();
    const [request] = t.turnRequests();
    const status = frames.filter((f) => f.event === 'context_status');
    expect(status, 'one context_status per turn').toHaveLength(1);
    expect(frames.findIndex((f) => f.event === 'context_status')).toBeLessThan(frames.findIndex((f) => f.event === 'token'));
    return {
      messages: request.messages as { role: string; content: string }[],
      stored: done.data.session.messages as { role: string; content: string }[],
      sid,
      prefill: status[0]!.data.prefill as Record<string, unknown>,
    };
  }
  const logged = (msg: string) => t!.logger.lines.filter((l) => l.msg === msg);

  it('a JSON file: its messages sit between the system prompt and the conversation, and are never stored', async () => {
    await scratch();
    const file = join(dir, 'prefill.json');
    await writeFile(
      file,
      JSON.stringify([
        { role: 'user', content: 'Who maintains the runbook?' },
        { role: 'assistant', content: 'Ada maintains it.' },
        { role: 'tool', content: 'ignored: not a prefill role' },
        { role: 'user', content: '   ' },
      ]),
    );
    const { messages, stored, prefill } = await turn({ HERMES_PREFILL_MESSAGES_FILE: file });
    // The browser hears where the context came from, never its text.
    expect(prefill).toEqual({ status: 'loaded', source: 'file', label: 'prefill.json', message_count: 2 });
    expect(messages[0]!.role).toBe('system');
    expect(messages.slice(1)).toEqual([
      { role: 'user', content: 'Who maintains the runbook?' },
      { role: 'assistant', content: 'Ada maintains it.' },
      { role: 'user', content: 'hello' },
    ]);
    expect(stored.map((m) => m.content)).toEqual(['hello', 'answered']);
  });

  it('a relative file name resolves beside config.yaml, read fresh each turn; a bad file is logged and ignored', async () => {
    await scratch();
    const { messages } = await turn({ HERMES_WEBUI_PREFILL_MESSAGES_FILE: 'rel.json' }, (app) =>
      writeFile(join(app.hermesHome, 'rel.json'), JSON.stringify([{ role: 'assistant', content: 'Beside config.yaml.' }])),
    );
    expect(messages[1]).toEqual({ role: 'assistant', content: 'Beside config.yaml.' });
    await t!.close();
    const missing = await turn({ HERMES_WEBUI_PREFILL_MESSAGES_FILE: 'missing.json' });
    expect(missing.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(logged('prefill context unavailable')[0]).toMatchObject({ source: 'file', error: 'prefill file not found' });
    await t!.close();
    const broken = join(dir, 'broken.json');
    await writeFile(broken, '{not json');
    const bad = await turn({ HERMES_WEBUI_PREFILL_MESSAGES_FILE: broken });
    expect(bad.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(logged('prefill context unavailable')[0]).toMatchObject({ source: 'file', error: expect.stringMatching(/JSON/) });
  });

  it('plain-text script output joins the system prompt (never two user turns in a row)', async () => {
    await scratch();
    const path = await script('recall.sh', 'echo "Open issue: the nightly backup fails on Sundays."');
    const { messages } = await turn({ HERMES_WEBUI_PREFILL_MESSAGES_SCRIPT: path });
    expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(messages[0]!.content).toContain('# Context provided for this chat\n\nOpen issue: the nightly backup fails on Sundays.');
  });

  it('JSON script output ({messages}): system items join the prompt, the exchange precedes the conversation; arguments are passed', async () => {
    await scratch();
    const path = await script(
      'notes.sh',
      `printf '{"messages":[{"role":"system","content":"Notes from %s."},{"role":"user","content":"q"},{"role":"assistant","content":"a"}]}' "$1"`,
    );
    const { messages } = await turn({ HERMES_WEBUI_PREFILL_MESSAGES_SCRIPT: `sh '${path}' "the wiki"` });
    expect(messages[0]!.content).toContain('Notes from the wiki.');
    expect(messages.slice(1)).toEqual([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'a' },
      { role: 'user', content: 'hello' },
    ]);
  });

  it('a slow script is killed at its timeout and the turn goes on without it', async () => {
    await scratch();
    const path = await script('slow.sh', 'sleep 60\necho never');
    const { messages, prefill } = await turn({ HERMES_WEBUI_PREFILL_MESSAGES_SCRIPT: path, HERMES_WEBUI_PREFILL_MESSAGES_SCRIPT_TIMEOUT: '0.3' });
    expect(prefill).toEqual({ status: 'error', source: 'script', label: 'slow.sh', message_count: 0, error: 'prefill script timed out' });
    expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(messages[0]!.content).not.toContain('never');
    expect(logged('prefill context unavailable')[0]).toMatchObject({ source: 'script', error: 'prefill script timed out' });
  });

  it('a failing script falls back to the file; its error is logged with secrets masked', async () => {
    await scratch();
    const path = await script('fail.sh', 'echo "token=abc123supersecret could not reach notes" >&2\nexit 3');
    const file = join(dir, 'fallback.json');
    await writeFile(file, JSON.stringify([{ role: 'assistant', content: 'Static notes.' }]));
    const { messages } = await turn({ HERMES_WEBUI_PREFILL_MESSAGES_SCRIPT: path, HERMES_PREFILL_MESSAGES_FILE: file });
    expect(messages.slice(1, 2)).toEqual([{ role: 'assistant', content: 'Static notes.' }]);
    await t!.close();
    t = undefined;
    const { messages: alone } = await turn({ HERMES_WEBUI_PREFILL_MESSAGES_SCRIPT: path });
    expect(alone.map((m) => m.role)).toEqual(['system', 'user']);
    const [line] = logged('prefill context unavailable');
    expect(line).toMatchObject({ source: 'script' });
    expect(String(line!.error)).toContain('could not reach notes');
    expect(String(line!.error)).not.toContain('abc123supersecret');
  });

  it('output past 256 KiB is refused (reading stops there) and the turn goes on', async () => {
    await scratch();
    const path = await script('huge.sh', 'yes prefill | head -c 1000000');
    const { messages } = await turn({ HERMES_WEBUI_PREFILL_MESSAGES_SCRIPT: path, HERMES_WEBUI_PREFILL_CONTEXT_MAX_CHARS: '0' });
    expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(messages[0]!.content).not.toContain('prefill\nprefill');
    expect(logged('prefill context unavailable')[0]).toMatchObject({ error: 'prefill script output exceeded 262144 bytes' });
  });

  it('over the character budget only a short note is sent; 0 turns the budget off', async () => {
    await scratch();
    const long = 'x'.repeat(400);
    const path = await script('long.sh', `echo "${long}"`);
    const { messages, prefill } = await turn({ HERMES_WEBUI_PREFILL_MESSAGES_SCRIPT: path, HERMES_WEBUI_PREFILL_CONTEXT_MAX_CHARS: '100' });
    expect(prefill).toEqual({
      status: 'loaded',
      source: 'budget_compacted',
      label: 'long.sh',
      message_count: 1,
      compacted: true,
      original_source: 'script',
      original_char_count: 400,
      max_chars: 100,
    });
    expect(messages[0]!.content).not.toContain(long);
    expect(messages[0]!.content).toContain('exceeded the WebUI prefill context budget (400 chars > 100 chars)');
    expect(logged('prefill context over budget')[0]).toMatchObject({ chars: 400, max_chars: 100 });
    await t!.close();
    t = undefined;
    const { messages: unbounded } = await turn({ HERMES_WEBUI_PREFILL_MESSAGES_SCRIPT: path, HERMES_WEBUI_PREFILL_CONTEXT_MAX_CHARS: '0' });
    expect(unbounded[0]!.content).toContain(long);
  });

  it('nothing configured: context_status says so and the model gets no context', async () => {
    const { messages, prefill, sid } = await turn({});
    expect(prefill).toEqual({ status: 'not_configured', source: 'none', label: '', message_count: 0 });
    expect(sid).toBeTruthy();
    expect(messages.map((m) => m.role)).toEqual(['system', 'user']);
  });

  it("config.yaml's keys apply when no variable is set: a script as an argv list, its timeout, the budget", async () => {
    await scratch();
    const path = await script('recall.sh', 'echo "Recalled for $1."');
    const yaml = `webui_prefill_messages_script: [sh, ${JSON.stringify(path)}, the team]\nwebui_prefill_context_max_chars: 15\n`;
    const budgeted = await turn({}, undefined, yaml);
    expect(budgeted.prefill).toMatchObject({ status: 'loaded', source: 'budget_compacted', label: 'sh', original_char_count: 22, max_chars: 15 });
    await t!.close();
    t = undefined;
    const loose = await turn({}, undefined, yaml.replace('15', '0'));
    expect(loose.messages[0]!.content).toContain('Recalled for the team.');
    expect(loose.prefill).toEqual({ status: 'loaded', source: 'script', label: 'sh', message_count: 1 });
    await t!.close();
    t = undefined;
    const slow = await script('slow.sh', 'sleep 60');
    const timedOut = await turn({}, undefined, `webui_prefill_messages_script: ${slow}\nwebui_prefill_messages_script_timeout: 0.3\n`);
    expect(timedOut.prefill).toMatchObject({ status: 'error', error: 'prefill script timed out' });
  });

  it('each variable wins over its config.yaml key; prefill_messages_file resolves beside config.yaml', async () => {
    await scratch();
    const fromEnv = await script('env.sh', 'echo "From the environment."');
    const fromYaml = await script('yaml.sh', 'echo "From config.yaml, too long for its budget."');
    const yaml = `webui_prefill_messages_script: ${fromYaml}\nwebui_prefill_context_max_chars: 5\nprefill_messages_file: notes.json\n`;
    const { messages, prefill } = await turn({ HERMES_WEBUI_PREFILL_MESSAGES_SCRIPT: fromEnv, HERMES_WEBUI_PREFILL_CONTEXT_MAX_CHARS: '0' }, undefined, yaml);
    expect(prefill).toEqual({ status: 'loaded', source: 'script', label: 'env.sh', message_count: 1 });
    expect(messages[0]!.content).toContain('From the environment.');
    await t!.close();
    t = undefined;
    // The script fails: config.yaml's file (relative to config.yaml's folder) stands in.
    const failing = await script('fail.sh', 'exit 1');
    const fallback = await turn(
      { HERMES_WEBUI_PREFILL_MESSAGES_SCRIPT: failing },
      (app) => writeFile(join(app.hermesHome, 'notes.json'), JSON.stringify([{ role: 'assistant', content: 'Static.' }])),
      'prefill_messages_file: notes.json\n',
    );
    expect(fallback.prefill).toEqual({ status: 'loaded', source: 'file_fallback', label: 'notes.json', message_count: 1 });
    expect(fallback.messages[1]).toEqual({ role: 'assistant', content: 'Static.' });
  });
});

/** HERMES_CONFIG_PATH: the default profile's config.yaml lives elsewhere, read and written there. */
describe('HERMES_CONFIG_PATH', () => {
  let t: TestApp | undefined;
  let model: ScriptedServer | undefined;
  let dir: string;
  afterEach(async () => {
    await t?.close();
    await model?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('turns read it, /api/default-model writes it in Hermes format, $HERMES_HOME/config.yaml is left alone', async () => {
    dir = await mkdtemp(join(tmpdir(), 'hermes-cfgpath-'));
    model = await startScriptedOpenAI();
    const configPath = join(dir, 'etc', 'config.yaml');
    await mkdir(join(dir, 'etc'));
    await writeFile(configPath, `# operator config\nmodel:\n  default: elsewhere-model # pinned\n  provider: custom\n  base_url: ${model.url}\n`);
    t = await makeTestApp({
      configYaml: 'model:\n  default: wrong-model\n  provider: custom\n  base_url: http://127.0.0.1:9/v1\n',
      env: { HERMES_CONFIG_PATH: configPath },
    });
    expect((await t.call('GET', '/api/models')).body.default_model).toBe('elsewhere-model');
    const sid = await t.newSession();
    model.enqueue([{ text: 'from the override' }]);
    const started = await t.call('POST', '/api/chat/start', { session_id: sid, message: 'hi' });
    const res = await t.app.request(`/api/chat/stream?stream_id=${started.body.stream_id}`);
    expect(await res.text()).toContain('from the override');
    expect(model.requests.some((r) => r.body.model === 'elsewhere-model')).toBe(true);

    expect((await t.call('POST', '/api/default-model', { model: 'chosen-model' })).status).toBe(200);
    const written = await readFile(configPath, 'utf8');
    expect(written).toContain('# operator config');
    expect(written).toContain('default: chosen-model');
    expect(written).toContain(`base_url: ${model.url}`);
    expect(await readFile(join(t.hermesHome, 'config.yaml'), 'utf8')).toContain('default: wrong-model');
  });
});
