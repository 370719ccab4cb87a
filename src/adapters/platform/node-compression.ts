import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Compressor, ContentCoding } from '../../ports/compression.js';

const brotliAsync = promisify(zlib.brotliCompress);
const gzipAsync = promisify(zlib.gzip);

/**
 * Bodies up to this size are compressed on the event loop (well under a millisecond); larger
 * ones on libuv's pool, so one big list does not stall every other request.
 */
const SYNC_MAX_BYTES = 64 * 1024;

/**
 * Brotli quality by body size, measured on the list's own JSON (bench/sidebar.bench.mjs): up to
 * 1 MB quality 5 (the 100-row first page, 48 KB, to 3.7 KB in about a millisecond; quality 9 is
 * 20 times slower for 1 % less); above that quality 4 (the unpaged 10,000-row list, 4.3 MB, to
 * 300 KB in about 100 ms, done once per list revision and cached; quality 5 takes twice as long
 * for 7 % less, and qualities 1–3 come out larger than gzip). gzip at level 6, zlib's default.
 */
export function brotliQuality(bytes: number): number {
  return bytes <= 1024 * 1024 ? 5 : 4;
}

/** node:zlib behind the Compressor port. */
export class NodeCompressor implements Compressor {
  readonly codings: readonly ContentCoding[] = ['br', 'gzip'];

  async compress(body: Uint8Array, coding: ContentCoding): Promise<Uint8Array> {
    if (coding === 'br') {
      const options: zlib.BrotliOptions = {
        params: {
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_QUALITY]: brotliQuality(body.byteLength),
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength,
        },
      };
      return body.byteLength <= SYNC_MAX_BYTES ? zlib.brotliCompressSync(body, options) : brotliAsync(body, options);
    }
    return body.byteLength <= SYNC_MAX_BYTES ? zlib.gzipSync(body) : gzipAsync(body);
  }
}
