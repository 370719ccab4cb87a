import { mkdir, open } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { AttachmentStore, StoredAttachment } from '../../ports/attachment-store.js';
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
}
