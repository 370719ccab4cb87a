import { Inflate } from 'fflate';
import { BadRequest } from '../../ports/errors.js';

/** One entry of a zip's central directory: what it claims to be, and where its bytes are. */
export interface ZipMember {
  name: string;
  kind: 'file' | 'dir' | 'symlink' | 'other';
  method: number;
  compressedSize: number;
  /** Declared size: a hint for an early refusal only, never trusted as the limit. */
  size: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const ZIP64_EXTRA = 0x0001;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const S_IFMT = 0o170000;

function bad(): never {
  throw new BadRequest('Not a valid zip archive');
}

/**
 * The members of a zip, read from its central directory — the only place that says which entries
 * are symlinks or devices (Unix mode in the external attributes), which the streaming readers skip.
 */
export function zipMembers(bytes: Uint8Array, maxMembers: number): ZipMember[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === EOCD) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) bad();
  let count = view.getUint16(eocd + 10, true);
  let offset = view.getUint32(eocd + 16, true);
  // ZIP64 (`zip -fz`, streamed writers, > 65,535 entries): the true numbers sit in a record before the EOCD.
  if (eocd >= 20 && view.getUint32(eocd - 20, true) === ZIP64_LOCATOR) {
    const at = big(view, eocd - 20 + 8);
    if (at + 56 > bytes.length || view.getUint32(at, true) !== ZIP64_EOCD) bad();
    count = big(view, at + 32);
    offset = big(view, at + 48);
  } else if (count === 0xffff || offset === 0xffffffff) bad();
  if (count > maxMembers) throw new BadRequest(`Archive has too many files (> ${maxMembers}). Possible archive bomb.`);
  const decoder = new TextDecoder();
  const members: ZipMember[] = [];
  let p = offset;
  for (let n = 0; n < count; n++) {
    if (p + 46 > bytes.length || view.getUint32(p, true) !== CENTRAL) bad();
    const madeBy = view.getUint16(p + 4, true) >> 8;
    const flags = view.getUint16(p + 8, true);
    const method = view.getUint16(p + 10, true);
    let compressedSize = view.getUint32(p + 20, true);
    let size = view.getUint32(p + 24, true);
    const nameLen = view.getUint16(p + 28, true);
    const extraLen = view.getUint16(p + 30, true);
    const commentLen = view.getUint16(p + 32, true);
    const external = view.getUint32(p + 38, true);
    let localOffset = view.getUint32(p + 42, true);
    if (p + 46 + nameLen + extraLen > bytes.length) bad();
    const name = decoder.decode(bytes.subarray(p + 46, p + 46 + nameLen));
    if (flags & 1) throw new BadRequest(`Encrypted zip entries are not supported: ${name}`);
    if (size === 0xffffffff || compressedSize === 0xffffffff || localOffset === 0xffffffff) {
      // The ZIP64 extra field holds, in this order, only the values whose 32-bit field is all ones.
      const extra = zip64Extra(view, p + 46 + nameLen, extraLen);
      if (!extra) bad();
      let q = extra.start;
      const next = () => {
        if (q + 8 > extra.end) bad();
        const v = big(view, q);
        q += 8;
        return v;
      };
      if (size === 0xffffffff) size = next();
      if (compressedSize === 0xffffffff) compressedSize = next();
      if (localOffset === 0xffffffff) localOffset = next();
    }
    const mode = madeBy === 3 ? external >>> 16 : 0;
    const type = mode & S_IFMT;
    let kind: ZipMember['kind'] = 'file';
    if (type === 0o120000) kind = 'symlink';
    else if (name.endsWith('/') || type === 0o040000 || (madeBy === 0 && external & 0x10)) kind = 'dir';
    else if (type !== 0 && type !== 0o100000) kind = 'other';
    members.push({ name, kind, method, compressedSize, size, localOffset });
    p += 46 + nameLen + extraLen + commentLen;
  }
  return members;
}

/** A 64-bit little-endian number; past 2^53 no real upload can reach, so it is simply refused. */
function big(view: DataView, at: number): number {
  if (at + 8 > view.byteLength) bad();
  const v = view.getBigUint64(at, true);
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) bad();
  return Number(v);
}

function zip64Extra(view: DataView, start: number, length: number): { start: number; end: number } | null {
  for (let q = start; q + 4 <= start + length; ) {
    const id = view.getUint16(q, true);
    const len = view.getUint16(q + 2, true);
    if (id === ZIP64_EXTRA) return { start: q + 4, end: Math.min(q + 4 + len, start + length) };
    q += 4 + len;
  }
  return null;
}

const STEP = 16 * 1024;

/** A member's bytes in pieces; a deflate bomb yields at most ~16 MB per piece, so a byte cap can stop it early. */
export function* zipMemberChunks(bytes: Uint8Array, m: ZipMember): Generator<Uint8Array> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = m.localOffset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== LOCAL) bad();
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const end = start + m.compressedSize;
  if (end > bytes.length) bad();
  const data = bytes.subarray(start, end);
  if (m.method === 0) {
    for (let i = 0; i < data.length; i += STEP * 4) yield data.subarray(i, i + STEP * 4);
    return;
  }
  if (m.method !== 8) throw new BadRequest(`Unsupported zip compression method ${m.method}: ${m.name}`);
  let out: Uint8Array[] = [];
  const inflate = new Inflate((chunk) => {
    out.push(chunk);
  });
  for (let i = 0; i < data.length || i === 0; i += STEP) {
    try {
      inflate.push(data.subarray(i, i + STEP), i + STEP >= data.length);
    } catch {
      throw new BadRequest(`Corrupt zip entry: ${m.name}`);
    }
    const ready = out;
    out = [];
    yield* ready;
  }
}
