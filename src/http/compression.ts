import type { Context, MiddlewareHandler } from 'hono';
import type { Compressor, ContentCoding } from '../ports/compression.js';

/** Below this a compressed body saves less than a packet and costs a compressor call. */
export const MIN_COMPRESS_BYTES = 1024;
/** Compressed answers kept per URL + ETag + coding, so an unchanged list is compressed once. */
const CACHE_ENTRIES = 32;
const CACHE_BYTES = 16 * 1024 * 1024;

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

/**
 * A route whose body changes under one ETag (`GET /api/sessions` adds the server's clock to its
 * cached rows) names the variant here; it joins the cache key and never leaves the server.
 */
export const BODY_VARIANT_HEADER = 'X-Hermes-Body-Variant';

/**
 * The coding to answer with for an Accept-Encoding header: brotli when accepted, else gzip,
 * else none. `q=0` refuses a coding; `*` stands for any coding not named.
 */
export function negotiateCoding(acceptEncoding: string | undefined, offered: readonly ContentCoding[]): ContentCoding | null {
  if (!acceptEncoding) return null;
  const q = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam === undefined ? 1 : Number(qParam.slice(2));
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const wildcard = q.get('*');
  for (const coding of offered) {
    const value = q.get(coding) ?? (coding === 'gzip' ? q.get('x-gzip') : undefined) ?? wildcard ?? 0;
    if (value > 0) return coding;
  }
  return null;
}

/**
 * Compresses JSON answers above MIN_COMPRESS_BYTES by the request's Accept-Encoding. Left alone:
 * other types (SSE streams, files, the shell), bodies that already carry a Content-Encoding
 * (the build's precompressed assets), HEAD, bodiless statuses and `Cache-Control: no-transform`.
 * Every JSON answer says `Vary: Accept-Encoding`. A weak ETag stays as it is (the compressed and
 * plain bodies are the same representation, so If-None-Match keeps working); a strong one is made
 * weak, since the bytes now differ.
 */
export function compression(compressor: Compressor | undefined): MiddlewareHandler {
  const cache = new CompressedCache();
  return async (c, next) => {
    await next();
    const variant = c.res.headers.get(BODY_VARIANT_HEADER);
    if (variant !== null) c.res.headers.delete(BODY_VARIANT_HEADER);
    if (!compressor || c.req.method === 'HEAD') return;
    const res = c.res;
    // A 304 names the Vary its 200 would have carried.
    if (res.status === 304 || JSON_TYPE.test(res.headers.get('Content-Type') ?? '')) addVary(res.headers);
    if (!JSON_TYPE.test(res.headers.get('Content-Type') ?? '')) return;
    if (!res.body || res.status < 200 || res.status === 204 || res.status === 206 || res.headers.has('Content-Encoding')) return;
    if (/\bno-transform\b/i.test(res.headers.get('Cache-Control') ?? '')) return;
    const coding = negotiateCoding(c.req.header('Accept-Encoding'), compressor.codings);
    if (!coding) return;
    const declared = Number(res.headers.get('Content-Length') ?? NaN);
    if (declared < MIN_COMPRESS_BYTES) return;

    const etag = res.headers.get('ETag');
    const key = etag ? `${c.req.url}\n${etag}\n${variant ?? ''}\n${coding}` : null;
    let packed = key ? cache.get(key) : undefined;
    if (packed) {
      void res.body.cancel();
    } else {
      const plain = new Uint8Array(await res.arrayBuffer());
      if (plain.byteLength < MIN_COMPRESS_BYTES) {
        replace(c, new Response(plain, res));
        return;
      }
      packed = await compressor.compress(plain, coding);
      if (key) cache.set(key, packed);
    }
    const headers = new Headers(res.headers);
    headers.set('Content-Encoding', coding);
    headers.set('Content-Length', String(packed.byteLength));
    if (etag && !etag.startsWith('W/')) headers.set('ETag', `W/${etag}`);
    replace(c, new Response(packed as Uint8Array<ArrayBuffer>, { status: res.status, headers }));
  };
}

/**
 * Puts `res` in place of the current answer as it is. (Assigning over an existing answer makes
 * Hono rebuild the new one around its body stream, which costs the Node adapter its fast path
 * for a body held in memory.)
 */
function replace(c: Context, res: Response): void {
  c.res = undefined;
  c.res = res;
}

function addVary(headers: Headers): void {
  const vary = headers.get('Vary');
  if (!vary) headers.set('Vary', 'Accept-Encoding');
  else if (!/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(vary)) headers.set('Vary', `${vary}, Accept-Encoding`);
}

/** A small LRU of compressed bodies, bounded by entries and bytes. */
class CompressedCache {
  #entries = new Map<string, Uint8Array>();
  #bytes = 0;

  get(key: string): Uint8Array | undefined {
    const hit = this.#entries.get(key);
    if (hit) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, body: Uint8Array): void {
    if (body.byteLength > CACHE_BYTES / 4) return;
    const old = this.#entries.get(key);
    if (old) {
      this.#entries.delete(key);
      this.#bytes -= old.byteLength;
    }
    this.#entries.set(key, body);
    this.#bytes += body.byteLength;
    while (this.#entries.size > CACHE_ENTRIES || this.#bytes > CACHE_BYTES) {
      const [oldest, value] = this.#entries.entries().next().value!;
      this.#entries.delete(oldest);
      this.#bytes -= value.byteLength;
    }
  }
}
