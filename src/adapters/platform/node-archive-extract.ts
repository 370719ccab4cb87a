import { randomUUID } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { extract as tarExtract } from 'tar-stream';
import { BadRequest } from '../../ports/errors.js';
import type { Extraction } from '../../ports/workspace-transfer.js';
import { tarStream } from './tar-decompress.js';
import { zipMemberChunks, zipMembers } from './zip-members.js';

const ZIP = /\.zip$/i;
/** The incumbent's list; what a tar is wrapped in is then told by its bytes (tar-decompress.ts). */
const TAR = /\.(tar|tar\.gz|tgz|tar\.bz2|tbz2|tar\.xz|txz)$/i;

export interface ExtractLimits {
  maxBytes: number;
  maxMembers: number;
}

export function isArchiveName(name: string): boolean {
  return ZIP.test(name) || TAR.test(name);
}

/** `a.tar.gz` → `a`, `photos.zip` → `photos`. */
export function archiveStem(name: string): string {
  return name.replace(/\.(zip|tar|tar\.gz|tgz|tar\.bz2|tbz2|tar\.xz|txz)$/i, '') || 'archive';
}

/**
 * A member name as a safe relative path, or a refusal: absolute names, drive letters and any `..`
 * component are refused outright (the incumbent's "Zip-slip blocked"), never "cleaned up".
 */
export function memberPath(name: string, label: 'Zip' | 'Tar'): string {
  const n = name.replace(/\\/g, '/');
  if (n.includes('\0') || n.startsWith('/') || /^[A-Za-z]:/.test(n)) throw new BadRequest(`${label}-slip blocked: ${name}`);
  const parts = n.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.includes('..')) throw new BadRequest(`${label}-slip blocked: ${name}`);
  return parts.join('/');
}

function tooLarge(maxBytes: number): BadRequest {
  return new BadRequest(`Extraction too large (> ${Math.floor(maxBytes / (1024 * 1024))} MB limit). Possible zip bomb.`);
}

function tooMany(maxMembers: number): BadRequest {
  return new BadRequest(`Archive has too many files (> ${maxMembers}). Possible archive bomb.`);
}

/** Writes members into a private folder; nothing in it is a link, so plain paths are safe. */
class Sink {
  files: string[] = [];
  /** Folders already made: ten thousand members in one folder cost one mkdir, not ten thousand. */
  #made = new Set<string>();
  written = 0;
  members = 0;
  constructor(
    readonly dir: string,
    readonly limits: ExtractLimits,
  ) {}

  count() {
    if (++this.members > this.limits.maxMembers) throw tooMany(this.limits.maxMembers);
  }

  async dir_(rel: string) {
    if (rel) await this.#mkdir(join(this.dir, rel));
  }

  async #mkdir(path: string) {
    if (this.#made.has(path)) return;
    try {
      await mkdir(path, { recursive: true });
      this.#made.add(path);
    } catch {
      throw new BadRequest('Archive has conflicting entries (a file where a folder should be)');
    }
  }

  async file(rel: string, chunks: Iterable<Uint8Array> | AsyncIterable<Uint8Array>) {
    const path = join(this.dir, rel);
    await this.#mkdir(join(path, '..'));
    const handle = await open(path, 'w').catch(() => {
      throw new BadRequest('Archive has conflicting entries (a folder where a file should be)');
    });
    try {
      for await (const chunk of chunks) {
        this.written += chunk.byteLength;
        if (this.written > this.limits.maxBytes) throw tooLarge(this.limits.maxBytes);
        await handle.write(chunk);
      }
    } finally {
      await handle.close();
    }
    this.files.push(rel);
  }
}

async function fromZip(bytes: Uint8Array, sink: Sink) {
  const members = zipMembers(bytes, sink.limits.maxMembers);
  // Refuse the whole archive before writing anything when a name or a kind is hostile.
  for (const m of members) {
    memberPath(m.name, 'Zip');
    if (m.kind === 'symlink') throw new BadRequest(`Archive contains a symlink: ${m.name}`);
    if (m.kind === 'other') throw new BadRequest(`Archive contains a special file: ${m.name}`);
  }
  const declared = members.reduce((sum, m) => sum + m.size, 0);
  if (declared > sink.limits.maxBytes) throw tooLarge(sink.limits.maxBytes);
  for (const m of members) {
    sink.count();
    const rel = memberPath(m.name, 'Zip');
    if (m.kind === 'dir') await sink.dir_(rel);
    else if (rel) await sink.file(rel, zipMemberChunks(bytes, m));
  }
}

type TarVisit = (rel: string, entry: AsyncIterable<Uint8Array> & { resume(): unknown }, type: string) => Promise<void>;

/**
 * Room for a tar's own bytes around its members (a 512-byte header, padding, long-name and pax
 * headers): the decompressed stream may not run past the byte limit by more than this.
 */
const TAR_OVERHEAD_PER_MEMBER = 2048;
const TAR_OVERHEAD = 1024 * 1024;

/** Walks a tar (plain, gzip, bzip2 or xz) member by member, refusing hostile names and kinds as they come. */
async function walkTar(bytes: Uint8Array, limits: ExtractLimits, visit: TarVisit) {
  const room = limits.maxBytes + limits.maxMembers * TAR_OVERHEAD_PER_MEMBER + TAR_OVERHEAD;
  const input = tarStream(bytes, room, () => {
    throw tooLarge(limits.maxBytes);
  });
  const parser = tarExtract();
  input.on('error', (err) => parser.destroy(err));
  input.pipe(parser);
  try {
    for await (const entry of parser) {
      const { name, type } = entry.header;
      const rel = memberPath(name, 'Tar');
      if (type === 'symlink' || type === 'link') throw new BadRequest(`Archive contains a ${type === 'link' ? 'hard link' : 'symlink'}: ${name}`);
      if (type !== 'directory' && type !== 'file' && type !== 'contiguous-file') throw new BadRequest(`Archive contains a special file: ${name}`);
      await visit(rel, entry as AsyncIterable<Uint8Array> & { resume(): unknown }, type);
    }
  } catch (err) {
    if (err instanceof BadRequest) throw err;
    throw new BadRequest(`Not a valid tar archive: ${(err as Error).message}`);
  } finally {
    parser.destroy();
    input.destroy();
  }
}

async function fromTar(bytes: Uint8Array, sink: Sink) {
  // First pass reads headers only (a tar's sizes are true: its bytes follow them), so a hostile
  // member, too many members or too many bytes is refused before anything is written.
  let members = 0;
  let declared = 0;
  await walkTar(bytes, sink.limits, async (_rel, entry) => {
    if (++members > sink.limits.maxMembers) throw tooMany(sink.limits.maxMembers);
    declared += (entry as unknown as { header: { size: number } }).header.size ?? 0;
    if (declared > sink.limits.maxBytes) throw tooLarge(sink.limits.maxBytes);
    entry.resume();
  });
  await walkTar(bytes, sink.limits, async (rel, entry, type) => {
    sink.count();
    if (type === 'directory') {
      await sink.dir_(rel);
      entry.resume();
    } else if (rel) await sink.file(rel, entry);
    else entry.resume();
  });
}

/**
 * Extracts an archive into a new folder `<parent>/<stem>` (or `<stem>_1` …), all or nothing: it is
 * written to a hidden sibling first and renamed into place only when every member passed.
 * `parent` must already be a proven-safe real directory.
 */
export async function extractArchive(parent: string, filename: string, bytes: Uint8Array, limits: ExtractLimits): Promise<Extraction> {
  const zip = ZIP.test(filename);
  if (!zip && !TAR.test(filename)) throw new BadRequest(`Unsupported archive format: ${filename}`);
  const temp = join(parent, `.hermes-extract-${randomUUID()}`);
  await mkdir(temp);
  const sink = new Sink(temp, limits);
  try {
    await (zip ? fromZip(bytes, sink) : fromTar(bytes, sink));
    const stem = archiveStem(filename);
    for (let n = 0; n < 1000; n++) {
      const name = n === 0 ? stem : `${stem}_${n}`;
      const dest = join(parent, name);
      try {
        // Claiming the name with mkdir, then renaming onto the empty folder, never replaces anything.
        await mkdir(dest);
      } catch {
        continue;
      }
      await rename(temp, dest);
      return { dest, files: sink.files.map((f) => `${name}/${f}`), extracted: sink.files.length };
    }
    throw new BadRequest('Could not allocate a unique extraction directory');
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}
