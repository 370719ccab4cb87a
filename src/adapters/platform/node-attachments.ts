import { mkdir, open, readFile, realpath, stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import type { AttachmentBytes, AttachmentStore, StoredAttachment } from '../../ports/attachment-store.js';
import { isSafeSessionId } from '../../shared/session.js';
import { BadRequest, Conflict } from '../../ports/errors.js';

const MAX_NAME = 200;

/** The incumbent's rule: anything but word characters, dot and dash becomes `_`; at most 200 chars. */
export function sanitiseFilename(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  let clean = base.replace(/[^\w.-]/g, '_').replace(/^\.+/, '');
  if (!clean || /^_+$/.test(clean)) clean = 'upload';
  if (clean.length > MAX_NAME) {
    const ext = extname(clean).slice(0, 20);
    clean = clean.slice(0, MAX_NAME - ext.length) + ext;
  }
  return clean;
}

/** Chat uploads under `<stateDir>/attachments/<sid>/`, de-duplicated as `name-1.ext` … `name-999.ext`. */
export class NodeAttachmentStore implements AttachmentStore {
  constructor(readonly stateDir: string) {}

  async save(sessionId: string, filename: string, data: Uint8Array, mime: string): Promise<StoredAttachment> {
    if (!isSafeSessionId(sessionId)) throw new BadRequest('Invalid session id');
    const dir = join(this.stateDir, 'attachments', sessionId);
    await mkdir(dir, { recursive: true });
    const name = sanitiseFilename(filename);
    const ext = extname(name);
    const stem = name.slice(0, name.length - ext.length);
    for (let n = 0; n <= 999; n++) {
      const candidate = n === 0 ? name : `${stem}-${n}${ext}`;
      const path = join(dir, candidate);
      try {
        // 'wx' claims the name atomically, so two uploads of one name cannot collide.
        const handle = await open(path, 'wx');
        try {
          await handle.writeFile(data);
          await handle.sync();
        } finally {
          await handle.close();
        }
        return { filename: candidate, path, size: data.byteLength, mime, is_image: mime.startsWith('image/') };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    }
    throw new Conflict('Too many files with that name');
  }

  async read(sessionId: string, path: string, maxBytes: number): Promise<AttachmentBytes | null> {
    if (!isSafeSessionId(sessionId)) return null;
    try {
      // Both sides resolved (symlinks too): a message naming any other file is never read.
      const dir = await realpath(join(this.stateDir, 'attachments', sessionId));
      const real = await realpath(resolve(dir, path));
      if (!real.startsWith(dir + sep)) return null;
      const info = await stat(real);
      if (!info.isFile()) return null;
      if (info.size <= maxBytes) {
        const bytes = new Uint8Array(await readFile(real));
        return { size: info.size, head: bytes.subarray(0, 16), bytes };
      }
      const handle = await open(real, 'r');
      try {
        const head = new Uint8Array(16);
        const { bytesRead } = await handle.read(head, 0, 16, 0);
        return { size: info.size, head: head.subarray(0, bytesRead), bytes: null };
      } finally {
        await handle.close();
      }
    } catch {
      return null;
    }
  }
}
