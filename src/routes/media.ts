import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from '../deps.js';
import { parseByteRange } from '../http/byte-range.js';
import { queryFlag, queryParams } from '../http/validate.js';
import { NotAvailable } from '../ports/errors.js';
import { mediaKind } from '../shared/media-kind.js';
import { mimeFor } from '../shared/mime.js';
import { SessionId, requireSession } from './session-common.js';

const MediaQuery = z.object({
  path: z.string({ error: 'path parameter required' }).trim().min(1, 'path parameter required').max(4096),
  session_id: SessionId,
  inline: queryFlag,
  download: queryFlag,
  // The incumbent's snapshot digest: accepted, and the live file is served (no snapshot store here).
  snap: z.string().max(128).optional(),
});

export const MEDIA_UNAVAILABLE = 'Media files are not available on this deployment: it has no file system (Cloudflare Workers).';

/** RFC 6266/5987: an ASCII fallback plus the exact UTF-8 name. */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  const exact = encodeURIComponent(name).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

/**
 * `GET /api/media?path=&session_id=&inline=`: a file an answer points at (`MEDIA:` lines, links to
 * workspace files), from the session's allowed roots only, with byte ranges for players.
 */
export function mediaRoutes(deps: AppDeps) {
  return new Hono().get('/api/media', async (c) => {
    const q = queryParams(c, MediaQuery);
    const session = await requireSession(deps, q.session_id);
    if (!deps.media) throw new NotAvailable(MEDIA_UNAVAILABLE);
    const file = await deps.media.open({ path: q.path, workspace: session.workspace || deps.options.defaultWorkspace, sessionId: q.session_id });
    const kind = mediaKind(file.name);
    const mime = mimeFor(file.name);
    // Raster images show in place anyway; players, PDFs and pages only when asked (the incumbent's rule).
    const inline = !q.download && (kind === 'image' || (q.inline === true && kind !== 'file'));
    const etag = `W/"${file.size.toString(36)}-${Math.floor(file.mtimeMs).toString(36)}"`;
    const headers: Record<string, string> = {
      'Content-Type': mime,
      'Accept-Ranges': 'bytes',
      'Content-Disposition': contentDisposition(inline ? 'inline' : 'attachment', file.name),
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': kind === 'html' ? 'no-store' : 'private, no-cache',
      ETag: etag,
    };
    if (kind === 'pdf') {
      // The browser's PDF viewer does not run in a sandboxed document; the transcript may frame it.
      headers['Content-Security-Policy'] = "frame-ancestors 'self'";
      headers['X-Frame-Options'] = 'SAMEORIGIN';
    } else {
      // An answer's HTML or SVG (or anything opened from it) must never run as this origin.
      headers['Content-Security-Policy'] = 'sandbox';
    }
    const ifNoneMatch = c.req.header('If-None-Match');
    if (ifNoneMatch?.split(',').some((t) => t.trim() === etag || t.trim() === '*')) return c.body(null, 304, headers);
    const range = parseByteRange(c.req.header('Range'), file.size);
    if (range === 'unsatisfiable') {
      return c.body(null, 416, { ...headers, 'Content-Range': `bytes */${file.size}`, 'Content-Length': '0' });
    }
    const { start, end } = range ?? { start: 0, end: file.size - 1 };
    const length = file.size === 0 ? 0 : end - start + 1;
    if (range) headers['Content-Range'] = `bytes ${start}-${end}/${file.size}`;
    headers['Content-Length'] = String(length);
    const status = range ? 206 : 200;
    // HEAD (Hono answers it with this handler) and empty files open no stream.
    if (c.req.method === 'HEAD' || length === 0) return c.body(null, status, headers);
    return c.body(file.read(start, end), status, headers);
  });
}
