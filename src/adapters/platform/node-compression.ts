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
 * Brotli quality by body size (bench/sidebar.bench.mjs measures them): 5 for answers up to
 * 1 MB (a 100-row page takes well under a millisecond and is within a few per cent of quality 9),
 * 3 for the whole 10,000-row list (4 MB in tens of ms rather than hundreds). gzip at level 6,
 * zlib's default, is already fast at every size.
 */
export function brotliQuality(bytes: number): number {
  return bytes <= 1024 * 1024 ? 5 : 3;
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
