import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { startScriptedOpenAI, type ScriptedServer } from '../fixtures/scripted-openai.js';
import type { ScriptedAudio } from '../fixtures/scripted-openai-audio.js';

/**
 * Speech in and out (inventory §1.8: /api/transcribe/capability, /api/transcribe, /api/tts)
 * against a scripted OpenAI-compatible server speaking the real audio wire format: multipart
 * audio in → `{text}`, JSON text in → audio bytes. The endpoint comes from config.yaml's
 * `stt:` / `tts:` and the key from `.env`, as Hermes reads them.
 */
let t: TestApp;
let provider: ScriptedServer & { audio: ScriptedAudio };
beforeAll(async () => {
  provider = await startScriptedOpenAI();
});
afterAll(async () => provider.close());
afterEach(async () => {
  provider.audio.transcriptions.length = 0;
  provider.audio.speeches.length = 0;
  provider.audio.setTranscript('scripted transcript');
  await t?.close();
});

const voiceConfig = () =>
  [
    'stt:',
    '  provider: openai',
    '  language: de',
    '  openai:',
    '    model: gpt-4o-mini-transcribe',
    `    base_url: ${provider.url}`,
    'tts:',
    '  openai:',
    '    model: tts-1',
    '    voice: nova',
    `    base_url: ${provider.url}`,
  ].join('\n');

async function configured(): Promise<TestApp> {
  const app = await makeTestApp({ configYaml: voiceConfig() });
  await writeFile(join(app.hermesHome, '.env'), 'VOICE_TOOLS_OPENAI_KEY=sk-voice-1\n');
  return app;
}

const recording = (bytes = new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 1, 2, 3, 4])) => {
  const form = new FormData();
  form.set('file', new File([bytes], 'dictation.webm', { type: 'audio/webm' }));
  return form;
};

describe('GET /api/transcribe/capability', () => {
  it('answers {ok, available, provider} for a configured OpenAI endpoint', async () => {
    t = await configured();
    const r = await t.call('GET', '/api/transcribe/capability');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, available: true, provider: 'openai' });
    // The microphone stays allowed for this origin (and only this one) so dictation can record.
    expect(r.res.headers.get('permissions-policy')).toContain('microphone=(self)');
  });

  it('is unavailable with a reason when nothing is configured, and when stt.enabled is false', async () => {
    t = await makeTestApp();
    const none = await t.call('GET', '/api/transcribe/capability');
    expect(none.body).toMatchObject({ ok: true, available: false, provider: 'none' });
    expect(none.body.reason).toMatch(/not configured/);
    await t.close();
    t = await makeTestApp({ configYaml: 'stt:\n  enabled: false\n', agentEnv: { OPENAI_API_KEY: 'sk-1' } });
    const off = await t.call('GET', '/api/transcribe/capability');
    expect(off.body).toMatchObject({ available: false, provider: 'none' });
    expect(off.body.reason).toMatch(/stt\.enabled: false/);
  });

  it('groq comes first when its key is set and no provider is named (Hermes order)', async () => {
    t = await makeTestApp({ agentEnv: { GROQ_API_KEY: 'gsk-1', OPENAI_API_KEY: 'sk-1' } });
    expect((await t.call('GET', '/api/transcribe/capability')).body).toEqual({ ok: true, available: true, provider: 'groq' });
  });

  it('names a provider this server cannot run (local faster-whisper) as unavailable', async () => {
    t = await makeTestApp({ configYaml: 'stt:\n  provider: local\n' });
    const r = await t.call('GET', '/api/transcribe/capability');
    expect(r.body).toMatchObject({ ok: true, available: false, provider: 'local' });
  });
});

describe('POST /api/transcribe', () => {
  it('forwards the recording as multipart to /audio/transcriptions and answers {ok, transcript}', async () => {
    t = await configured();
    provider.audio.setTranscript('  Hallo aus dem Mikrofon  ');
    const audio = new Uint8Array([0x1a, 0x45, 0xdf, 0xa3, 9, 8, 7, 6, 5]);
    const r = await t.app.request('/api/transcribe', { method: 'POST', body: recording(audio) });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ ok: true, transcript: 'Hallo aus dem Mikrofon' });
    const sent = provider.audio.transcriptions.at(-1)!;
    expect(sent).toMatchObject({ model: 'gpt-4o-mini-transcribe', language: 'de', responseFormat: 'json' });
    expect(sent.file?.name).toBe('dictation.webm');
    expect(sent.file?.type).toBe('audio/webm');
    expect([...sent.file!.bytes]).toEqual([...audio]);
    expect(sent.headers.authorization).toBe('Bearer sk-voice-1');
  });

  it('is 503 with the clear message when no endpoint is configured; the provider is not called', async () => {
    t = await makeTestApp();
    const r = await t.app.request('/api/transcribe', { method: 'POST', body: recording() });
    expect(r.status).toBe(503);
    expect(((await r.json()) as { error: string }).error).toMatch(/Speech-to-text is not configured.*stt\.provider/);
    expect(provider.audio.transcriptions).toHaveLength(0);
  });

  it('is 400 "No file field in request" without a file, and 400 for a body that is not multipart', async () => {
    t = await configured();
    const empty = new FormData();
    empty.set('other', 'x');
    const r = await t.app.request('/api/transcribe', { method: 'POST', body: empty });
    expect(r.status).toBe(400);
    expect(await r.json()).toEqual({ error: 'No file field in request' });
    const json = await t.call('POST', '/api/transcribe', { file: 'x' });
    expect(json.status).toBe(400);
    expect(json.body.error).toMatch(/multipart/);
  });

  it('refuses audio over 25 MB with 413 before calling the provider', async () => {
    t = await configured();
    const r = await t.app.request('/api/transcribe', { method: 'POST', body: recording(new Uint8Array(25 * 1024 * 1024 + 1)) });
    expect(r.status).toBe(413);
    expect(await r.json()).toEqual({ error: 'File too large (max 25MB)' });
    expect(provider.audio.transcriptions).toHaveLength(0);
  });

  it("is 502 with the provider's own message when it fails", async () => {
    t = await configured();
    provider.audio.setTranscript({ status: 401, body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } } });
    const r = await t.app.request('/api/transcribe', { method: 'POST', body: recording() });
    expect(r.status).toBe(502);
    expect(((await r.json()) as { error: string }).error).toBe('Transcription failed (openai): HTTP 401: Incorrect API key provided');
  });
});

describe('the key stays with the configured endpoint', () => {
  it('a redirect from the provider is not followed (502)', async () => {
    t = await configured();
    provider.audio.setTranscript({ status: 307, headers: { location: `${provider.url}/audio/transcriptions?again=1` }, body: 'moved' });
    const r = await t.app.request('/api/transcribe', { method: 'POST', body: recording() });
    expect(r.status).toBe(502);
    expect(((await r.json()) as { error: string }).error).toMatch(/redirect, not followed/);
    expect(provider.audio.transcriptions).toHaveLength(1);
  });
});

describe('POST /api/tts', () => {
  it('sends {model, input, voice} to /audio/speech and answers the audio bytes', async () => {
    t = await configured();
    const r = await t.call('POST', '/api/tts', { text: '  Read this aloud.  ', engine: 'openai', voice: 'en-US-AriaNeural', rate: 1, pitch: 1 });
    expect(r.status).toBe(200);
    expect(r.res.headers.get('content-type')).toBe('audio/mpeg');
    expect(r.res.headers.get('cache-control')).toBe('no-store');
    const bytes = new Uint8Array(await r.res.arrayBuffer());
    expect([...bytes.slice(0, 4)]).toEqual([0xff, 0xfb, 0x90, 0x64]);
    expect(Number(r.res.headers.get('content-length'))).toBe(bytes.length);
    // An Edge voice name (the incumbent's default) means nothing to OpenAI: config.yaml's voice is used.
    expect(provider.audio.speeches.at(-1)).toMatchObject({ model: 'tts-1', input: 'Read this aloud.', voice: 'nova', responseFormat: 'mp3' });
    expect(provider.audio.speeches.at(-1)!.headers.authorization).toBe('Bearer sk-voice-1');
  });

  it('takes an OpenAI voice name from the request', async () => {
    t = await configured();
    const r = await t.call('POST', '/api/tts', { text: 'hi', voice: 'shimmer' });
    expect(r.status).toBe(200);
    expect(provider.audio.speeches.at(-1)).toMatchObject({ voice: 'shimmer', input: 'hi' });
  });

  it('answers the incumbent texts: text is required, text too long (max 5000 characters)', async () => {
    t = await configured();
    const empty = await t.call('POST', '/api/tts', { text: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ error: 'text is required' });
    const long = await t.call('POST', '/api/tts', { text: 'a'.repeat(5001) });
    expect(long.status).toBe(400);
    expect(long.body.error).toMatch(/text too long \(max 5000 characters\)/);
    expect(provider.audio.speeches).toHaveLength(0);
  });

  it('is 503 "OpenAI API key not configured" without a key, and 503 for an engine this server lacks', async () => {
    t = await makeTestApp();
    const r = await t.call('POST', '/api/tts', { text: 'hello', engine: 'openai' });
    expect(r.status).toBe(503);
    expect(r.body).toEqual({ error: 'OpenAI API key not configured' });
    const edge = await t.call('POST', '/api/tts', { text: 'hello', engine: 'edge' });
    expect(edge.status).toBe(503);
    expect(edge.body.error).toMatch(/"edge" is not offered/);
  });

  it('is 502 when the provider fails', async () => {
    t = await configured();
    provider.audio.setSpeech({ status: 500, body: { error: { message: 'The server had an error' } } });
    try {
      const r = await t.call('POST', '/api/tts', { text: 'hello' });
      expect(r.status).toBe(502);
      expect(r.body).toEqual({ error: 'OpenAI TTS generation failed: HTTP 500: The server had an error' });
    } finally {
      provider.audio.setSpeech(new Uint8Array([0xff, 0xfb, 0x90, 0x64, 0, 0]));
    }
  });
});
