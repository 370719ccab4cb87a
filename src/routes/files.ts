import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { bodyFlag, jsonBody, queryFlag, queryParams } from '../http/validate.js';
import { mimeFor } from '../shared/mime.js';
import { SessionId, requireSession } from './session-common.js';
import { dirSignature } from './dir-signature.js';

/** The incumbent's preview cap (`MAX_FILE_BYTES`). */
export const MAX_FILE_BYTES = 400_000;

const Path = z.string({ error: 'path is required' }).max(4096);
const ListQuery = z.object({ session_id: SessionId, path: Path.optional() });
const FileQuery = z.object({ session_id: SessionId, path: Path });
const RawQuery = FileQuery.extend({ download: queryFlag, inline: queryFlag });
/**
 * The incumbent's `require()`: a field absent, null or empty is "Missing required field(s): a, b"
 * (its clients show the text); the schema then checks types and sizes.
 */
function requiring<S extends z.ZodType>(fields: string[], schema: S) {
  // The cast: the record's output is what the schema reads; only the static input types differ.
  return z
    .record(z.string(), z.unknown())
    .superRefine((body, ctx) => {
      const missing = fields.filter((f) => body[f] === undefined || body[f] === null || body[f] === '');
      if (missing.length) ctx.addIssue({ code: 'custom', message: `Missing required field(s): ${missing.join(', ')}` });
    })
    .pipe(schema as unknown as z.ZodType<z.output<S>, Record<string, unknown>>);
}
const SaveBody = requiring(['session_id', 'path'], z.object({ session_id: SessionId, path: Path, content: z.string() }));
const CreateBody = requiring(['session_id', 'path'], z.object({ session_id: SessionId, path: Path, content: z.string().optional() }));
const PathBody = requiring(['session_id', 'path'], z.object({ session_id: SessionId, path: Path }));
const RenameBody = requiring(['session_id', 'path', 'new_name'], z.object({ session_id: SessionId, path: Path, new_name: z.string().min(1).max(255) }));
const MoveBody = requiring(['session_id', 'path', 'dest_dir'], z.object({ session_id: SessionId, path: Path, dest_dir: Path }));
const DeleteBody = requiring(['session_id', 'path'], z.object({ session_id: SessionId, path: Path, recursive: bodyFlag.optional() }));

/** RFC 6266/5987: an ASCII fallback plus the exact UTF-8 name. */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Browsing and editing files inside a session's workspace. */
export function fileRoutes(deps: AppDeps) {
  const app = new Hono();
  const f = deps.files;
  const rootOf = async (sessionId: string) => (await requireSession(deps, sessionId)).workspace || deps.options.defaultWorkspace;

  app.get('/api/list', async (c) => {
    const q = queryParams(c, ListQuery);
    const root = await rootOf(q.session_id);
    const path = q.path && q.path !== '.' ? q.path : '';
    const entries = await f.list(root, path);
    return c.json({ entries, signature: await dirSignature(entries), path: path || '.', workspace: root, workspace_recovered: false });
  });

  app.get('/api/file', async (c) => {
    const q = queryParams(c, FileQuery);
    return c.json(await f.readText(await rootOf(q.session_id), q.path, MAX_FILE_BYTES));
  });

  app.get('/api/file/raw', async (c) => {
    const q = queryParams(c, RawQuery);
    const file = await f.readRaw(await rootOf(q.session_id), q.path);
    return c.body(file.body, 200, {
      'Content-Type': mimeFor(file.name),
      'Content-Length': String(file.size),
      'Content-Disposition': contentDisposition(q.download ? 'attachment' : 'inline', file.name),
      // A workspace HTML or SVG file must not run as this origin.
      'Content-Security-Policy': 'sandbox',
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-store',
    });
  });

  app.post('/api/file/save', async (c) => {
    const b = await jsonBody(c, SaveBody);
    return c.json({ ok: true, ...(await f.save(await rootOf(b.session_id), b.path, b.content)) });
  });

  app.post('/api/file/create', async (c) => {
    const b = await jsonBody(c, CreateBody);
    return c.json({ ok: true, ...(await f.create(await rootOf(b.session_id), b.path, b.content ?? '')) });
  });

  app.post('/api/file/create-dir', async (c) => {
    const b = await jsonBody(c, PathBody);
    return c.json({ ok: true, ...(await f.createDir(await rootOf(b.session_id), b.path)) });
  });

  app.post('/api/file/rename', async (c) => {
    const b = await jsonBody(c, RenameBody);
    const { path } = await f.rename(await rootOf(b.session_id), b.path, b.new_name);
    // `old_path` / `new_path` are the incumbent's names; `path` is what our tree reads.
    return c.json({ ok: true, path, old_path: b.path, new_path: path });
  });

  app.post('/api/file/move', async (c) => {
    const b = await jsonBody(c, MoveBody);
    const { path } = await f.move(await rootOf(b.session_id), b.path, b.dest_dir);
    return c.json({ ok: true, path, old_path: b.path, new_path: path });
  });

  app.post('/api/file/delete', async (c) => {
    const b = await jsonBody(c, DeleteBody);
    await f.delete(await rootOf(b.session_id), b.path, b.recursive ?? false);
    return c.json({ ok: true, path: b.path });
  });

  return app;
}
