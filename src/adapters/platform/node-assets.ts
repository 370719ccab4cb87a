import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import type { AssetSource } from '../../ports/platform.js';
import { mimeFor } from '../../shared/mime.js';

/** A content hash in the file name (`app-3f9a1c2b.js`) means the file never changes. */
const HASHED = /[.-][A-Za-z0-9_]{8,}\.(?:js|css|woff2?|png|svg|jpg|webp|map)$/;

/** Serves files from a directory (the built public/), with types and cache headers. */
export class NodeAssetSource implements AssetSource {
  readonly root: string;
  constructor(root: string) {
    this.root = resolve(root);
  }

  async fetch(path: string, acceptEncoding = ''): Promise<Response | null> {
    let decoded: string;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      return null;
    }
    if (decoded.includes('\0')) return null;
    const abs = resolve(this.root, '.' + decoded);
    if (abs !== this.root && !abs.startsWith(this.root + sep)) return null;
    const st = await stat(abs).catch(() => null);
    if (!st?.isFile()) return null;
    // The build writes .br and .gz beside large text assets; send the best one the browser takes.
    let file = abs;
    let size = st.size;
    let encoding: string | null = null;
    for (const [enc, ext] of [
      ['br', '.br'],
      ['gzip', '.gz'],
    ] as const) {
      if (!new RegExp(`\\b${enc}\\b`).test(acceptEncoding)) continue;
      const packed = await stat(abs + ext).catch(() => null);
      if (packed?.isFile()) {
        file = abs + ext;
        size = packed.size;
        encoding = enc;
        break;
      }
    }
    const headers = new Headers({
      'Content-Type': mimeFor(abs),
      'Content-Length': String(size),
      Vary: 'Accept-Encoding',
      'Last-Modified': st.mtime.toUTCString(),
      'Cache-Control': HASHED.test(abs) ? 'public, max-age=31536000, immutable' : 'no-cache',
      'X-Content-Type-Options': 'nosniff',
    });
    if (encoding) headers.set('Content-Encoding', encoding);
    const body = Readable.toWeb(createReadStream(file)) as unknown as ReadableStream<Uint8Array>;
    return new Response(body, { headers });
  }
}
