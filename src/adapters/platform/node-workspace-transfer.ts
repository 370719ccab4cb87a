import { mkdir, open, realpath, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { BadRequest, Forbidden, NotFound } from '../../ports/errors.js';
import type { Extraction, FolderZip, TransferLimits, UploadedFile, WorkspaceTransfer } from '../../ports/workspace-transfer.js';
import { isSafeSessionId } from '../../shared/session.js';
import { extractArchive } from './node-archive-extract.js';
import { folderZipStream, planFolderZip } from './node-folder-zip.js';
import { sanitiseFilename } from './node-attachments.js';
import { isInside, resolveTarget } from './node-paths.js';

/** Uploads, extraction and folder zips on the local disk, inside the workspace sandbox (node-paths). */
export class NodeWorkspaceTransfer implements WorkspaceTransfer {
  constructor(
    readonly stateDir: string,
    readonly limits: TransferLimits,
  ) {}

  /** The real folder `dir` names (created when missing), proven inside the workspace. */
  async #folder(root: string, dir: string): Promise<string> {
    const r = await resolveTarget(root, dir);
    // resolveTarget proved the deepest existing parent is inside: the folders made here are too.
    await mkdir(r.abs, { recursive: true }).catch(() => {
      throw new BadRequest('Upload target is not a folder');
    });
    const real = await realpath(r.abs);
    if (!isInside(r.root, real)) throw new Forbidden('Upload target escapes workspace');
    if (!(await stat(real)).isDirectory()) throw new BadRequest('Upload target is not a folder');
    return real;
  }

  async upload(root: string, dir: string, filename: string, bytes: Uint8Array): Promise<UploadedFile> {
    const folder = await this.#folder(root, dir);
    const name = sanitiseFilename(filename);
    const ext = extname(name);
    const stem = name.slice(0, name.length - ext.length);
    for (let n = 0; n < 1000; n++) {
      const candidate = n === 0 ? name : `${stem}-${n}${ext}`;
      const path = join(folder, candidate);
      try {
        // 'wx' never follows or replaces whatever is there (a symlink planted under that name included).
        const handle = await open(path, 'wx');
        try {
          await handle.writeFile(bytes);
        } finally {
          await handle.close();
        }
        return { filename: candidate, path, size: bytes.byteLength };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    }
    throw new BadRequest('Too many uploads with the same filename');
  }

  async extractInto(root: string, dir: string, filename: string, bytes: Uint8Array): Promise<Extraction> {
    return extractArchive(await this.#folder(root, dir), basename(filename), bytes, this.#extractLimits());
  }

  async extractAttachment(sessionId: string, filename: string, bytes: Uint8Array): Promise<Extraction> {
    if (!isSafeSessionId(sessionId)) throw new BadRequest('Invalid session id');
    const dir = join(this.stateDir, 'attachments', sessionId);
    await mkdir(dir, { recursive: true });
    return extractArchive(await realpath(dir), basename(filename), bytes, this.#extractLimits());
  }

  async zipFolder(root: string, path: string): Promise<FolderZip> {
    const r = await resolveTarget(root, path);
    const st = await stat(r.abs).catch(() => null);
    if (!st) throw new NotFound('not found');
    if (!st.isDirectory()) throw new BadRequest('path must be a directory; use /api/file/raw for single files');
    const real = await realpath(r.abs);
    if (!isInside(r.root, real)) throw new Forbidden('Path is outside the workspace');
    const files = await planFolderZip(r.root, real, { maxBytes: this.limits.folderZipMaxBytes, maxFiles: this.limits.folderZipMaxFiles });
    return { name: `${r.rel ? basename(real) : basename(r.root) || 'workspace'}.zip`, body: folderZipStream(r.root, files) };
  }

  #extractLimits() {
    return { maxBytes: this.limits.maxExtractedBytes, maxMembers: this.limits.maxArchiveMembers };
  }
}
