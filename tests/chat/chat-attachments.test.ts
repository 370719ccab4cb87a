import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedAnthropic } from '../fixtures/scripted-anthropic.js';
import type { ScriptedServer } from '../fixtures/scripted-openai.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { makeChatApp, type ChatHarness } from '../helpers/chat.js';
import { readStream, type Frame } from '../helpers/sse.js';

/** A real 1×1 PNG (signature, IHDR, IDAT, IEND). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9]);

async function upload(t: TestApp, sid: string, name: string, data: BlobPart, type = ''): Promise<{ path: string; filename: string }> {
  const form = new FormData();
  form.append('session_id', sid);
  form.append('file', new Blob([data], { type }), name);
  const res = await t.app.request('/api/upload', { method: 'POST', body: form });
  expect(res.status).toBe(200);
  return res.json();
}

/** The last user message of a recorded OpenAI-format request. */
const lastUser = (body: any) => [...body.messages].reverse().find((m: any) => m.role === 'user');
const textOf = (content: any): string => (typeof content === 'string' ? content : content.map((p: any) => p.text ?? '').join('\n'));
const imageParts = (content: any): any[] => (Array.isArray(content) ? content.filter((p: any) => p.type === 'image_url' || p.type === 'image') : []);

describe('attachments reach the model (OpenAI-compatible, scripted server)', () => {
  let h: ChatHarness | null = null;
  afterEach(async () => {
    await h?.close();
    h = null;
  });

  async function turn(sid: string, message: string, attachments: unknown[], extra: Record<string, unknown> = {}): Promise<Frame[]> {
    const r = await h!.start(sid, message, { attachments, ...extra });
    expect(r.status).toBe(200);
    return h!.stream(r.body.stream_id);
  }

  it('sends an image as an image_url data URL part with Hermes path hint; later turns name it by path only; the stored message keeps text + list', async () => {
    h = await makeChatApp({ storage: 'fs' });
    const sid = await h.newSession();
    const shot = await upload(h, sid, 'screenshot-1.png', PNG, 'image/png');
    h.model.enqueue([{ text: 'A single pixel.' }], [{ text: 'Still a pixel.' }]);
    await turn(sid, 'What is this?', [shot.path]);

    const first = lastUser(h.turnRequests()[0]);
    expect(imageParts(first.content)).toEqual([{ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.toString('base64')}` } }]);
    expect(first.content[0]).toEqual({ type: 'text', text: `What is this?\n\n[Image attached at: ${shot.path}]` });

    const stored = (await h.call('GET', `/api/session?session_id=${sid}`)).body.session.messages[0];
    expect(stored.content).toBe('What is this?');
    expect(stored.attachments).toEqual([{ filename: 'screenshot-1.png', path: shot.path, size: PNG.length, mime: 'image/png', is_image: true }]);

    await turn(sid, 'And now?', []);
    const second = h.turnRequests()[1];
    const earlier = second.messages.find((m: any) => m.role === 'user');
    // No bytes for an earlier turn's image: its path stays, so vision_analyze can open it again.
    expect(typeof earlier.content).toBe('string');
    expect(earlier.content).toContain(`[Image attached at: ${shot.path}]`);
    expect(JSON.stringify(second)).not.toContain(PNG.toString('base64'));
  });

  it('agent.image_input_mode: text sends a note (name, size, path) and the user gets a quiet warning', async () => {
    h = await makeChatApp({ extraYaml: 'agent:\n  image_input_mode: text\n' });
    const sid = await h.newSession();
    const shot = await upload(h, sid, 'photo.jpg', JPEG);
    h.model.enqueue([{ text: 'I cannot see it.' }]);
    const frames = await turn(sid, 'Look', [shot.path]);
    const user = lastUser(h.turnRequests()[0]);
    expect(typeof user.content).toBe('string');
    expect(user.content).toContain(`[Image attached: photo.jpg (${JPEG.length} B, image/jpeg) at ${shot.path}. The model in use does not take images`);
    expect(user.content).toContain(`call vision_analyze with image_url: ${shot.path}`);
    const warning = frames.find((f) => f.event === 'warning');
    expect(warning?.data).toEqual({
      type: 'image_input_unsupported',
      message: 'photo.jpg was not sent as an image: agent.image_input_mode is text. The model was told its name, size and path.',
    });
  });

  it('a model known to read text only gets the note', async () => {
    h = await makeChatApp();
    const sid = await h.newSession();
    const shot = await upload(h, sid, 'a.png', PNG);
    h.model.enqueue([{ text: 'ok' }]);
    const frames = await turn(sid, 'See?', [shot.path], { model: 'deepseek-chat' });
    expect(imageParts(lastUser(h.turnRequests()[0]).content)).toEqual([]);
    expect(frames.find((f) => f.event === 'warning')?.data.message).toContain('deepseek-chat does not take image input');
  });

  it('the model catalog decides when its list says what the model takes (OpenRouter architecture.input_modalities)', async () => {
    h = await makeChatApp();
    h.model.setModels([{ id: 'test-model', architecture: { input_modalities: ['text'] } }]);
    expect((await h.call('GET', '/api/models?refresh=1')).status).toBe(200);
    const sid = await h.newSession();
    const shot = await upload(h, sid, 'a.png', PNG);
    h.model.enqueue([{ text: 'ok' }]);
    const frames = await turn(sid, 'See?', [shot.path]);
    expect(imageParts(lastUser(h.turnRequests()[0]).content)).toEqual([]);
    expect(frames.find((f) => f.event === 'warning')?.data.message).toContain('test-model does not take image input');
  });

  it('a file named like an image whose bytes are not one is never sent as an image', async () => {
    h = await makeChatApp();
    const sid = await h.newSession();
    const text = await upload(h, sid, 'fake.png', 'just words, no pixels', 'image/png');
    const binary = await upload(h, sid, 'blob.png', new Uint8Array([0, 1, 2, 3, 0xfe, 0xff, 0]), 'image/png');
    h.model.enqueue([{ text: 'ok' }]);
    await turn(sid, 'Files', [text.path, binary.path]);
    const user = lastUser(h.turnRequests()[0]);
    expect(imageParts(user.content)).toEqual([]);
    expect(user.content).toContain(`--- Attached file: fake.png (21 B, ${text.path}) ---\njust words, no pixels\n--- End of fake.png ---`);
    expect(user.content).toContain(`[Attached file: blob.png (7 B) at ${binary.path}; not text: use your tools to inspect it]`);
    const stored = (await h.call('GET', `/api/session?session_id=${sid}`)).body.session.messages[0];
    expect(stored.attachments.map((a: any) => a.is_image)).toEqual([false, false]);
  });

  it('inlines text files up to 64 KB each and 192 KB per message; the rest are named with their path; other paths are never read', async () => {
    h = await makeChatApp();
    const sid = await h.newSession();
    const big = await upload(h, sid, 'big.log', 'x'.repeat(64 * 1024 + 1));
    const parts = [];
    for (let i = 1; i <= 4; i++) parts.push(await upload(h, sid, `part${i}.txt`, String(i).repeat(60 * 1024)));
    h.model.enqueue([{ text: 'ok' }]);
    await turn(sid, 'Read these', [big.path, ...parts.map((p) => p.path), '/etc/hostname']);
    const content: string = lastUser(h.turnRequests()[0]).content;
    expect(content).toContain(`[Attached file: big.log (64.0 KB) at ${big.path}; too large to include here, read it with your file tools]`);
    expect(content).not.toContain('x'.repeat(100));
    for (const i of [1, 2, 3])
      expect(content).toContain(`--- Attached file: part${i}.txt (60.0 KB, ${parts[i - 1]!.path}) ---\n${String(i).repeat(60 * 1024)}\n`);
    // The fourth would take the message past 192 KB.
    expect(content).toContain(`[Attached file: part4.txt (60.0 KB) at ${parts[3]!.path}; too large to include here`);
    expect(content).not.toContain('4'.repeat(100));
    expect(content).toContain('[Attached file: hostname at /etc/hostname (not readable here; use your file tools if you need it)]');
  });

  it('an attachment alone is a message; a bad attachment list is a 400', async () => {
    h = await makeChatApp();
    const sid = await h.newSession();
    const shot = await upload(h, sid, 'only.png', PNG);
    h.model.enqueue([{ text: 'ok' }]);
    await turn(sid, '', [shot.path]);
    expect(textOf(lastUser(h.turnRequests()[0]).content)).toContain('What do you see in this image?');
    const bad = await h.start(sid, 'x', { attachments: [{ nope: 1 }] });
    expect(bad.status).toBe(400);
    expect(typeof bad.body.error).toBe('string');
  });
});

describe('attachments reach the model (Anthropic Messages API, scripted server)', () => {
  let t: TestApp | null = null;
  let model: ScriptedServer | null = null;
  afterEach(async () => {
    await t?.close();
    await model?.close();
    t = model = null;
  });

  it('sends an image as a base64 image block', async () => {
    model = await startScriptedAnthropic();
    model.setRouter((req) => (JSON.stringify(req.body?.system ?? '').includes('Write a title') ? [{ text: 'A title' }] : undefined));
    t = await makeTestApp({
      configYaml: `model:\n  default: claude-sonnet-4-5\n  provider: anthropic\n  base_url: ${model.url}\n`,
      agentEnv: { ANTHROPIC_API_KEY: 'sk-ant-test' },
    });
    const sid = await t.newSession();
    const shot = await upload(t, sid, 'screen.png', PNG);
    model.enqueue([{ text: 'A pixel.' }]);
    const r = await t.call('POST', '/api/chat/start', { session_id: sid, message: 'What is it?', attachments: [shot.path] });
    expect(r.status).toBe(200);
    const frames = await readStream(await t.app.request(`/api/chat/stream?stream_id=${r.body.stream_id}`));
    expect(frames.at(-1)!.event).toBe('stream_end');
    const body = model.requests[0]!.body;
    const user = body.messages.at(-1);
    expect(user.role).toBe('user');
    expect(user.content.find((b: any) => b.type === 'image')).toMatchObject({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: PNG.toString('base64') },
    });
    expect(user.content.find((b: any) => b.type === 'text').text).toBe(`What is it?\n\n[Image attached at: ${shot.path}]`);
  });
});
