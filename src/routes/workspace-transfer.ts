import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { BadRequest } from '../ports/errors.js';
import { parseWith, queryParams } from '../http/validate.js';
import { mimeFor } from '../shared/mime.js';
import { contentDisposition } from './files.js';
import { SessionId, requireSession } from './session-common.js';
import { MULTIPART_OVERHEAD, uploadTooLarge } from './upload.js';

const ARCHIVE = /\.(zip|tar|tar\.gz|tgz|tar\.bz2|tbz2|tar\.xz|txz)$/i;
const FolderQuery = z.object({ session_id: SessionId, path: z.string().max(4096).optional() });
const FolderField = z.string().max(4096).optional();

async function readForm(c: { req: { header(n: string): string | undefined; formData(): Promise<FormData> } }): Promise<FormData> {
  if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('multipart/form-data')) {
    throw new BadRequest('Upload must be multipart/form-data with a "file" field');
  }
  try {
    return await c.req.formData();
  } catch {
    throw new BadRequest('Malformed multipart body');
  }
}

function filesOf(form: FormData): File[] {
  return [...form.values()].filter((v): v is File => typeof v !== 'string' && !!v.name);
}

/**
 * The incumbent's bulk file endpoints: `POST /api/workspace/upload` (into a workspace folder;
 * archives are extracted there), `POST /api/upload/extract` (into the session's upload folder)
 * and `GET /api/folder/download` (a folder as a streamed zip).
 */
export function workspaceTransferRoutes(deps: AppDeps) {
  const max = deps.options.maxUploadBytes;
  const limit = bodyLimit({
    maxSize: max + MULTIPART_OVERHEAD,
    onError: () => {
      throw uploadTooLarge(max);
    },
  });
  const rootOf = async (sessionId: string) => (await requireSession(deps, sessionId)).workspace || deps.options.defaultWorkspace;
  const app = new Hono();

  app.post('/api/workspace/upload', limit, async (c) => {
    const form = await readForm(c);
    if (!form.get('session_id')) throw new BadRequest('Missing session_id');
    const sessionId = parseWith(SessionId, form.get('session_id'));
    const dir = parseWith(FolderField, form.get('path') ?? undefined) ?? '';
    const files = filesOf(form);
    if (!files.length) throw new BadRequest('No file field in request');
    if (files.reduce((n, f) => n + f.size, 0) > max) throw uploadTooLarge(max);
    const root = await rootOf(sessionId);
    const results: Record<string, unknown>[] = [];
    for (const file of files) {
      const bytes = new Uint8Array(await file.arrayBuffer());
      // A bare type, as the incumbent's mimetypes.guess_type answers (no charset).
      const mime = mimeFor(file.name).split(';')[0]!;
      if (ARCHIVE.test(file.name)) {
        // As the incumbent: an archive lands extracted, and a failed one leaves nothing behind.
        try {
          const x = await deps.transfer.extractInto(root, dir, file.name, bytes);
          results.push({
            filename: file.name,
            path: x.dest,
            size: bytes.byteLength,
            is_image: false,
            extracted: true,
            extracted_files: x.files,
            extracted_count: x.extracted,
          });
        } catch (err) {
          if (!(err instanceof BadRequest)) throw err;
          results.push({ filename: file.name, path: dir, size: bytes.byteLength, mime, is_image: false, extracted: false, extract_error: err.message });
        }
        continue;
      }
      const saved = await deps.transfer.upload(root, dir, file.name, bytes);
      results.push({ ...saved, mime, is_image: mime.startsWith('image/'), extracted: false });
    }
    return c.json(results.length === 1 ? results[0] : { files: results, count: results.length });
  });

  app.post('/api/upload/extract', limit, async (c) => {
    const form = await readForm(c);
    const file = form.get('file');
    if (!file || typeof file === 'string') throw new BadRequest('No file field in request');
    if (!file.name) throw new BadRequest('No filename in upload');
    if (file.size > max) throw uploadTooLarge(max);
    const sessionId = parseWith(SessionId, form.get('session_id') ?? undefined);
    await requireSession(deps, sessionId);
    const x = await deps.transfer.extractAttachment(sessionId, file.name, new Uint8Array(await file.arrayBuffer()));
    return c.json({ ok: true, ...x });
  });

  app.get('/api/folder/download', async (c) => {
    const q = queryParams(c, FolderQuery);
    const zip = await deps.transfer.zipFolder(await rootOf(q.session_id), q.path && q.path !== '.' ? q.path : '');
    return c.body(zip.body, 200, {
      'Content-Type': 'application/zip',
      'Content-Disposition': contentDisposition('attachment', zip.name),
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
  });

  return app;
}
