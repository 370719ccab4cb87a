import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { bodyFlag, jsonBody, queryFlag, queryParams, requiring } from '../http/validate.js';
import { mimeFor } from '../shared/mime.js';
import { SessionId, requireSession } from './session-common.js';
import { dirSignature } from './dir-signature.js';
import { BadRequest, NotFound } from '../ports/errors.js';

/** The incumbent's preview cap (`MAX_FILE_BYTES`). */
export const MAX_FILE_BYTES = 400_000;

const Path = z.string({ error: 'path is required' }).max(4096);
const ListQuery = z.object({ session_id: SessionId, path: Path.optional() });
const RawQuery = ListQuery.extend({ download: queryFlag, inline: queryFlag });
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
    // The incumbent's order: the session (400 when not given, 404 when gone), then the path.
    const q = queryParams(c, ListQuery);
    const root = await rootOf(q.session_id);
    if (!q.path) throw new BadRequest('path is required');
    return c.json(await f.readText(root, q.path, MAX_FILE_BYTES));
  });

  app.get('/api/file/raw', async (c) => {
    const q = queryParams(c, RawQuery);
    const root = await rootOf(q.session_id);
    // The incumbent answers 404 "not found" for no path, no such file and a folder alike; its
    // viewer only checks the status. A path leading out stays 403, one too long 400 (deliberate).
    if (!q.path) throw new NotFound('not found');
    const file = await f.readRaw(root, q.path).catch((err: unknown) => {
      throw err instanceof NotFound || (err instanceof BadRequest && err.message === 'Not a file') ? new NotFound('not found') : err;
    });
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
