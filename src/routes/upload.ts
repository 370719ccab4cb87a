import { Hono } from 'hono';
import { multipartFile, multipartLimit } from '../http/multipart.js';
import type { AppDeps } from '../deps.js';
import { NotFound, TooLarge } from '../ports/errors.js';
import { mimeFor } from '../shared/mime.js';
import { parseWith } from '../http/validate.js';
import { SessionId, requireSession } from './session-common.js';

/** Room for the multipart envelope around the file itself. */
export { MULTIPART_OVERHEAD } from '../http/multipart.js';

/**
 * The incumbent's text, `File too large (max 20MB)`; a limit under 1 MB (HERMES_WEBUI_MAX_UPLOAD_MB
 * may be fractional) is stated in KB, never "0MB".
 */
export function uploadTooLarge(max: number): TooLarge {
  const limit = max >= 1024 * 1024 ? `${Math.round((max / 1024 / 1024) * 10) / 10}MB` : `${Math.max(1, Math.round(max / 1024))}KB`;
  return new TooLarge(`File too large (max ${limit})`);
}

/** `POST /api/upload`: a chat attachment (multipart `file` + `session_id`). */
export function uploadRoutes(deps: AppDeps) {
  const max = deps.options.maxUploadBytes;
  const tooLarge = () => uploadTooLarge(max);
  return new Hono().post('/api/upload', multipartLimit(max, tooLarge), async (c) => {
    // The incumbent's order: the file first, then the session (none given is 404 too).
    const { form, file } = await multipartFile(c, max, tooLarge);
    const given = form.get('session_id');
    if (typeof given !== 'string' || !given) throw new NotFound('Session not found');
    // A malformed id stays a 400 before any lookup (the incumbent looks it up and answers 404).
    const sessionId = parseWith(SessionId, given);
    await requireSession(deps, sessionId);
    const mime = file.type && file.type !== 'application/octet-stream' ? file.type : mimeFor(file.name);
    const saved = await deps.attachments.save(sessionId, file.name, new Uint8Array(await file.arrayBuffer()), mime);
    return c.json(saved);
  });
}
