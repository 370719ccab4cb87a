import { Readable, Transform } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { createGunzip } from 'node:zlib';
import Bunzip from 'seek-bzip';
import xz from 'xz-decompress';

/** What a tar's bytes are wrapped in, told by its first bytes (as Python's tarfile does), not by its name. */
export type TarCompression = 'none' | 'gzip' | 'bzip2' | 'xz';

export function tarCompression(bytes: Uint8Array): TarCompression {
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return 'gzip';
  if (bytes[0] === 0x42 && bytes[1] === 0x5a && bytes[2] === 0x68) return 'bzip2';
  if (bytes[0] === 0xfd && bytes[1] === 0x37 && bytes[2] === 0x7a && bytes[3] === 0x58 && bytes[4] === 0x5a && bytes[5] === 0x00) return 'xz';
  return 'none';
}

const CHUNK = 64 * 1024;

/**
 * bzip2, one block at a time (≤ 900 kB in, at most ~46 MB out), so the stream is pulled as the tar
 * parser reads it. seek-bzip decodes a whole buffer at once; its block steps are driven here
 * instead (pinned to 2.0.0 for that), and `cap` is checked byte by byte while a block is written.
 */
function* bunzip2(bytes: Uint8Array, cap: () => never, limit: number): Generator<Uint8Array> {
  let pos = 0;
  const input = Object.assign(new Bunzip.Stream(), {
    readByte() {
      if (pos >= bytes.length) throw new Error('bzip2 data ends early');
      return bytes[pos++]!;
    },
  });
  let ready: Uint8Array[] = [];
  let buf = new Uint8Array(CHUNK);
  let at = 0;
  let total = 0;
  const output = Object.assign(new Bunzip.Stream(), {
    writeByte(b: number) {
      if (++total > limit) cap();
      buf[at++] = b;
      if (at === CHUNK) {
        ready.push(buf);
        buf = new Uint8Array(CHUNK);
        at = 0;
      }
    },
  });
  const bz = new Bunzip(input, output);
  while (pos < bytes.length) {
    if (bz._init_block()) {
      bz._read_bunzip();
      if (at) ready.push(buf.slice(0, at));
      at = 0;
      const out = ready;
      ready = [];
      yield* out;
      continue;
    }
    if (bz.reader.read(32) >>> 0 !== bz.streamCRC) throw new Error('bzip2 stream CRC mismatch');
    // pbzip2 and `cat a.bz2 b.bz2` write several streams back to back: each starts with "BZh".
    if (pos >= bytes.length) break;
    bz._start_bunzip(input, output);
  }
}

/** Counts what comes out of a decompressor and stops it at `limit`: a bomb ends mid-stream, not after. */
function capped(limit: number, cap: () => never): Transform {
  let total = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      total += chunk.byteLength;
      if (total > limit) {
        try {
          cap();
        } catch (err) {
          return done(err as Error);
        }
      }
      done(null, chunk);
    },
  });
}

/**
 * The tar inside `bytes` as a stream, pulled as it is read, never more than `limit` bytes of it
 * (`cap` makes the refusal). Destroy it when done: an unfinished xz stream holds xz-decompress's
 * one decoder, which every other xz extraction in the process waits for.
 */
export function tarStream(bytes: Uint8Array, limit: number, cap: () => never): Readable {
  const kind = tarCompression(bytes);
  if (kind === 'bzip2') return Readable.from(bunzip2(bytes, cap, limit), { objectMode: false });
  const source = () => Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]);
  if (kind === 'none') return source();
  const decoder =
    kind === 'gzip'
      ? source().pipe(createGunzip())
      : Readable.fromWeb(new xz.XzReadableStream(new Blob([bytes as BlobPart]).stream()) as unknown as NodeReadableStream<Uint8Array>);
  const out = capped(limit, cap);
  decoder.on('error', (err) => out.destroy(err));
  out.on('close', () => decoder.destroy());
  return decoder.pipe(out);
}
