import type { Context } from 'hono';
import { Hono } from 'hono';
import { multipartFile, multipartLimit } from '../http/multipart.js';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { requestHome } from '../http/request-home.js';
import { jsonBody } from '../http/validate.js';
import { AppError, BadRequest, TooLarge } from '../ports/errors.js';
import { AudioProviderError, synthesize, transcribe } from '../voice/openai-audio.js';
import { readVoiceFiles, sttChoice, ttsChoice } from '../voice/voice-config.js';

/** OpenAI's own limit for /audio/transcriptions (and Hermes' MAX_FILE_SIZE). */
export const MAX_TRANSCRIBE_BYTES = 25 * 1024 * 1024;
/** The incumbent's cap on what one read-aloud request may say. */
export const MAX_TTS_CHARS = 5000;

const tooLarge = () => new TooLarge(`File too large (max ${MAX_TRANSCRIBE_BYTES / 1024 / 1024}MB)`);

const TtsBody = z.object({
  text: z
    .string({ error: 'text is required' })
    .transform((t) => t.trim())
    .refine((t) => t.length > 0, 'text is required')
    .refine((t) => t.length <= MAX_TTS_CHARS, `text too long (max ${MAX_TTS_CHARS} characters)`),
  engine: z.string().trim().toLowerCase().max(64).optional(),
  voice: z.string().trim().max(200).optional(),
  // The incumbent's Edge prosody fields: accepted, not used by the OpenAI engine.
  rate: z.union([z.number(), z.string().max(16)]).optional(),
  pitch: z.union([z.number(), z.string().max(16)]).optional(),
});

/** An OpenAI voice name (`alloy`, `nova`…); the incumbent's clients also send Edge names, which mean nothing to OpenAI. */
const OPENAI_VOICE = /^[a-z][a-z0-9_-]{0,39}$/;

/**
 * Speech in and out: `GET /api/transcribe/capability`, `POST /api/transcribe` (multipart `file`
 * → `{ok, transcript}`) and `POST /api/tts` (`{text, engine, voice}` → audio bytes), each against
 * the OpenAI-compatible endpoint the request's profile configures in config.yaml (`stt:`, `tts:`).
 * fetch only: the same on Node and Workers.
 */
export function voiceRoutes(deps: AppDeps) {
  const app = new Hono();
  const voiceFiles = async (c: Context) => {
    const { config } = await requestHome(c, deps);
    const { configYaml, dotenv } = await config.readFiles();
    return readVoiceFiles({ configYaml, dotenv, env: config.processEnv });
  };

  app.get('/api/transcribe/capability', async (c) => {
    const { tree, env } = await voiceFiles(c);
    const stt = sttChoice(tree, env);
    return c.json({ ok: true, available: stt.available, provider: stt.provider, ...(stt.available ? {} : { reason: stt.reason }) });
  });

  app.post('/api/transcribe', multipartLimit(MAX_TRANSCRIBE_BYTES, tooLarge), async (c) => {
    // The incumbent's texts.
    const { file } = await multipartFile(c, MAX_TRANSCRIBE_BYTES, tooLarge);
    if (file.size === 0) throw new BadRequest('The recording is empty');
    const { tree, env } = await voiceFiles(c);
    const stt = sttChoice(tree, env);
    if (!stt.available) throw new AppError(503, stt.reason);
    try {
      const transcript = await transcribe(stt, { bytes: file, name: safeAudioName(file.name) });
      return c.json({ ok: true, transcript });
    } catch (err) {
      if (!(err instanceof AudioProviderError)) throw err;
      deps.logger.error({ msg: 'transcription failed', provider: stt.provider, error: err.message });
      throw new AppError(502, `Transcription failed (${stt.provider}): ${err.message}`);
    }
  });

  app.post('/api/tts', async (c) => {
    const body = await jsonBody(c, TtsBody);
    const { tree, env } = await voiceFiles(c);
    // No engine: OpenAI, the one server engine here (the incumbent's default, Edge, is not offered).
    const engine = body.engine || 'openai';
    if (engine === 'browser') throw new BadRequest('The browser engine speaks in the browser; it has no server endpoint');
    if (engine !== 'openai') throw new AppError(503, `TTS engine "${engine}" is not offered by this server (use openai, or the browser's voice)`);
    const tts = ttsChoice(tree, env);
    if (!tts.available) throw new AppError(503, tts.reason);
    const voice = body.voice && OPENAI_VOICE.test(body.voice) ? body.voice : tts.voice;
    try {
      const audio = await synthesize(tts, { text: body.text, voice });
      return c.body(audio.bytes as Uint8Array<ArrayBuffer>, 200, {
        'content-type': audio.type,
        'content-length': String(audio.bytes.length),
        'cache-control': 'no-store',
      });
    } catch (err) {
      if (!(err instanceof AudioProviderError)) throw err;
      deps.logger.error({ msg: 'tts failed', provider: 'openai', error: err.message });
      // The incumbent's text, with the provider's reason after it.
      throw new AppError(502, `OpenAI TTS generation failed: ${err.message}`);
    }
  });
  return app;
}

/** A name the provider accepts: it reads the format from the extension (`.webm`, `.ogg`…). */
function safeAudioName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base.replace(/[^\w.-]+/g, '_').slice(-100);
  return /\.[a-z0-9]{2,5}$/i.test(cleaned) ? cleaned : `${cleaned || 'recording'}.webm`;
}
