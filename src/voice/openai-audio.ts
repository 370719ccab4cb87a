import type { AudioEndpoint } from './voice-config.js';

/**
 * The two OpenAI audio calls, over fetch only (so Workers can make them too): multipart audio to
 * `/audio/transcriptions` → text, JSON text to `/audio/speech` → audio bytes. Redirects are
 * refused so the bearer key never follows one to another host.
 */

/** The provider answered with an error or something that is not what was asked for. */
export class AudioProviderError extends Error {}

/** Audio a speech answer may be: 5,000 characters are a few MB of MP3; more is not an answer. */
const MAX_SPEECH_BYTES = 32 * 1024 * 1024;

/** The provider's own error text (OpenAI's `{error: {message}}`), kept short. */
async function providerMessage(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  let message = text;
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const m = typeof body.error === 'string' ? body.error : (body.error?.message ?? body.message);
    if (typeof m === 'string') message = m;
  } catch {
    // not JSON: the text itself
  }
  return `HTTP ${res.status}${message ? `: ${message.slice(0, 300)}` : ''}`;
}

async function call(url: string, init: RequestInit, timeoutMs: number): Promise<Response> {
  let res: Response;
  try {
    // `manual`, not `error`: Workers refuse `error`; a redirect is turned down below either way.
    res = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    const reason = (err as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : (err as Error).message;
    throw new AudioProviderError(`could not reach ${new URL(url).host} (${reason})`);
  }
  if ((res.status >= 300 && res.status < 400) || res.type === 'opaqueredirect') {
    await res.body?.cancel();
    throw new AudioProviderError(`HTTP ${res.status}: a redirect, not followed`);
  }
  return res;
}

export async function transcribe(
  endpoint: AudioEndpoint & { language: string | null },
  audio: { bytes: Blob; name: string },
  timeoutMs = 120_000,
): Promise<string> {
  const form = new FormData();
  form.set('file', audio.bytes, audio.name);
  form.set('model', endpoint.model);
  form.set('response_format', 'json');
  if (endpoint.language) form.set('language', endpoint.language);
  const res = await call(
    `${endpoint.baseUrl}/audio/transcriptions`,
    { method: 'POST', headers: { authorization: `Bearer ${endpoint.apiKey}` }, body: form },
    timeoutMs,
  );
  if (!res.ok) throw new AudioProviderError(await providerMessage(res));
  const body = (await res.json().catch(() => null)) as { text?: unknown } | null;
  if (typeof body?.text !== 'string') throw new AudioProviderError('the answer has no "text"');
  return body.text.trim();
}

export async function synthesize(
  endpoint: AudioEndpoint,
  input: { text: string; voice: string },
  timeoutMs = 60_000,
): Promise<{ bytes: Uint8Array; type: string }> {
  const res = await call(
    `${endpoint.baseUrl}/audio/speech`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${endpoint.apiKey}`, 'content-type': 'application/json', accept: 'audio/mpeg' },
      body: JSON.stringify({ model: endpoint.model, input: input.text, voice: input.voice, response_format: 'mp3' }),
    },
    timeoutMs,
  );
  if (!res.ok) throw new AudioProviderError(await providerMessage(res));
  const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (!type.startsWith('audio/')) throw new AudioProviderError(`the answer is ${type || 'untyped'}, not audio`);
  if (Number(res.headers.get('content-length') ?? 0) > MAX_SPEECH_BYTES) throw new AudioProviderError('the audio is too large');
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (bytes.length > MAX_SPEECH_BYTES) throw new AudioProviderError('the audio is too large');
  if (bytes.length === 0) throw new AudioProviderError('the answer has no audio');
  return { bytes, type };
}
