import type { AssetSource } from '../../ports/platform.js';

/** The Workers assets binding (`[assets] binding = "ASSETS"` in wrangler.toml). */
export interface AssetsBinding {
  fetch(request: Request): Promise<Response>;
}

/** A content hash in the file name (`app-3f9a1c2b.js`) means the file never changes (as on Node). */
const HASHED = /[.-][A-Za-z0-9_]{8,}\.(?:js|css|woff2?|png|svg|jpg|webp|map)$/;

/**
 * The built public/ through the assets binding, with the same caching rules as the Node
 * adapter: hashed files immutable for a year, everything else revalidated. The binding
 * negotiates compression itself.
 */
export class WorkersAssetSource implements AssetSource {
  constructor(private readonly assets: AssetsBinding) {}

  async fetch(path: string): Promise<Response | null> {
    if (path.includes('\0') || path.includes('..')) return null;
    const res = await this.assets.fetch(new Request(new URL(path, 'https://assets.invalid')));
    if (res.status === 404 || !res.ok) return null;
    // The binding answers /index.html with a redirect to /; the app asks for exact files only.
    if (res.status >= 300) return null;
    const headers = new Headers(res.headers);
    headers.set('Cache-Control', HASHED.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache');
    headers.set('X-Content-Type-Options', 'nosniff');
    return new Response(res.body, { status: 200, headers });
  }
}
