import { msg, str } from '@lit/localize';
import { ApiError, CSRF_HEADER, apiUrl, csrfFor, embedToken, request } from './client.js';

/** GET /api/transcribe/capability: whether the server can turn a recording into text. */
export interface TranscribeCapability {
  ok: boolean;
  available: boolean;
  provider: string;
  reason?: string;
}

export function transcribeCapability(): Promise<TranscribeCapability> {
  return request<TranscribeCapability>('GET', '/api/transcribe/capability');
}

/** POST /api/transcribe: the recording as multipart `file`, the transcript back. */
export async function transcribe(audio: Blob, name: string): Promise<string> {
  const form = new FormData();
  form.set('file', audio, name);
  const answer = await request<{ ok: boolean; transcript: string }>('POST', '/api/transcribe', undefined, { body: form });
  return answer.transcript ?? '';
}

/** POST /api/tts: the server's voice for `text`, as audio (JSON errors become ApiError). */
export async function speech(body: { text: string; engine: string; voice?: string }, signal?: AbortSignal): Promise<Blob> {
  const pending = csrfFor(0);
  const token = pending instanceof Promise ? await pending : pending;
  const bearer = embedToken();
  const res = await fetch(apiUrl('/api/tts'), {
    method: 'POST',
    credentials: 'same-origin',
    headers: {
      'Content-Type': 'application/json',
      ...(token ? { [CSRF_HEADER]: token } : {}),
      ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
    },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  if (res.ok) return res.blob();
  const data = (await res.json().catch(() => ({}))) as { error?: unknown };
  throw new ApiError(res.status, typeof data.error === 'string' ? data.error : msg(str`Read aloud failed (${res.status})`), data);
}
