import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppDeps } from '../deps.js';
import { BadRequest, TooLarge } from '../ports/errors.js';
import { mimeFor } from '../shared/mime.js';
import { parseWith } from '../http/validate.js';
import { SessionId, requireSession } from './session-common.js';

/** Room for the multipart envelope around the file itself. */
export const MULTIPART_OVERHEAD = 64 * 1024;

/** A limit under 1 MB (HERMES_WEBUI_MAX_UPLOAD_MB may be fractional) is stated in KB, never "0 MB". */
export function uploadTooLarge(max: number): TooLarge {
  const limit = max >= 1024 * 1024 ? `${Math.round((max / 1024 / 1024) * 10) / 10} MB` : `${Math.max(1, Math.round(max / 1024))} KB`;
  return new TooLarge(`File too large (limit ${limit})`);
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
      const sessionId = parseWith(SessionId, form.get('session_id') ?? undefined);
      const file = form.get('file');
      // The incumbent's text: its clients show it as it is.
      if (!file || typeof file === 'string') throw new BadRequest('No file field in request');
      if (file.size > max) throw tooLarge();
      await requireSession(deps, sessionId);
      const mime = file.type && file.type !== 'application/octet-stream' ? file.type : mimeFor(file.name);
      const saved = await deps.attachments.save(sessionId, file.name || 'upload', new Uint8Array(await file.arrayBuffer()), mime);
      return c.json(saved);
    },
  );
}
