import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppDeps } from '../deps.js';
import { BadRequest, NotFound, TooLarge } from '../ports/errors.js';
import { mimeFor } from '../shared/mime.js';
import { parseWith } from '../http/validate.js';
import { SessionId, requireSession } from './session-common.js';

/** Room for the multipart envelope around the file itself. */
export const MULTIPART_OVERHEAD = 64 * 1024;

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
  return new Hono().post(
    '/api/upload',
    bodyLimit({
      maxSize: max + MULTIPART_OVERHEAD,
      onError: () => {
        throw tooLarge();
      },
    }),
    async (c) => {
      if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
        throw new BadRequest('Upload must be multipart/form-data with a "file" field');
      }
      let form: FormData;
      try {
        form = await c.req.formData();
      } catch {
        throw new BadRequest('Malformed multipart body');
      }
      const file = form.get('file');
      // The incumbent's texts and order: the file first, then the session (none given is 404 too).
      if (!file || typeof file === 'string') throw new BadRequest('No file field in request');
      if (!file.name) throw new BadRequest('No filename in upload');
      if (file.size > max) throw tooLarge();
      const given = form.get('session_id');
      if (typeof given !== 'string' || !given) throw new NotFound('Session not found');
      // A malformed id stays a 400 before any lookup (the incumbent looks it up and answers 404).
      const sessionId = parseWith(SessionId, given);
      await requireSession(deps, sessionId);
      const mime = file.type && file.type !== 'application/octet-stream' ? file.type : mimeFor(file.name);
      const saved = await deps.attachments.save(sessionId, file.name, new Uint8Array(await file.arrayBuffer()), mime);
      return c.json(saved);
    },
  );
}
