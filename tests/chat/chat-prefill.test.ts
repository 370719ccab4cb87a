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
  async function turn(env: Record<string, string>, before?: (t: ChatHarness) => Promise<void>) {
    t = await makeChatApp({ env });
    await before?.(t);
    const sid = await t.newSession();
    t.model.enqueue([{ text: 'answered' }]);
    const frames = await t.stream((await t.start(sid, 'hello')).body.stream_id);
    const done = frames.find((f) => f.event === 'done')!;
    expect(done, 'the turn finished').toBeDefined();
    const [request] = t.turnRequests();
    return { messages: request.messages as { role: string; content: string }[], stored: done.data.session.messages as { role: string; content: string }[] };
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
    const { messages, stored } = await turn({ HERMES_PREFILL_MESSAGES_FILE: file });
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
    const { messages } = await turn({ HERMES_WEBUI_PREFILL_MESSAGES_SCRIPT: path, HERMES_WEBUI_PREFILL_MESSAGES_SCRIPT_TIMEOUT: '0.3' });
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
    const { messages } = await turn({ HERMES_WEBUI_PREFILL_MESSAGES_SCRIPT: path, HERMES_WEBUI_PREFILL_CONTEXT_MAX_CHARS: '100' });
    expect(messages[0]!.content).not.toContain(long);
    expect(messages[0]!.content).toContain('exceeded the WebUI prefill context budget (400 chars > 100 chars)');
    expect(logged('prefill context over budget')[0]).toMatchObject({ chars: 400, max_chars: 100 });
    await t!.close();
    t = undefined;
    const { messages: unbounded } = await turn({ HERMES_WEBUI_PREFILL_MESSAGES_SCRIPT: path, HERMES_WEBUI_PREFILL_CONTEXT_MAX_CHARS: '0' });
    expect(unbounded[0]!.content).toContain(long);
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
