/** A content coding the server may answer with (RFC 9110 §8.4.1). */
export type ContentCoding = 'br' | 'gzip';

/**
 * Compresses whole response bodies. Runtimes differ (node:zlib on Node; Workers' edge compresses
 * on its own), so the core only sees this port.
 */
export interface Compressor {
  /** The codings this runtime can produce, best first. */
  readonly codings: readonly ContentCoding[];
  compress(body: Uint8Array, coding: ContentCoding): Promise<Uint8Array>;
}
