import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { hermesDirs, readBlockError } from '../../agent/tools/file-guards.js';
import { BadRequest, Forbidden, NotFound } from '../../ports/errors.js';
import type { MediaFile, MediaFiles, MediaRequest, MediaRoot } from '../../ports/media-files.js';
import { isSafeSessionId } from '../../shared/session.js';
import { checkNameLengths, isInside, resolveTarget } from './node-paths.js';

/**
 * Where Hermes Agent saves what it makes (hermes_constants.get_hermes_dir: the `cache/<kind>`
 * layout, or the older top-level folder an existing install still uses): generated images, TTS
 * audio, videos, documents, browser screenshots and vision inputs.
 */
export const HERMES_MEDIA_DIRS = [
  'cache/images',
  'cache/audio',
  'cache/videos',
  'cache/documents',
  'cache/screenshots',
  'cache/vision',
  'image_cache',
  'audio_cache',
  'video_cache',
  'document_cache',
  'browser_screenshots',
  'temp_vision_images',
];

/** Hermes' own state and credentials: never media, even when a workspace contains the home. */
const HERMES_PRIVATE = [
  'config.yaml',
  'auth.json',
  'auth.lock',
  'state.db',
  'state.db-wal',
  'state.db-shm',
  'sessions',
  'memories',
  'mcp-tokens',
  'pairing',
  'vault',
  'browser-profile',
  'kanban.db',
];

export const NOT_ALLOWED = 'Path not in allowed location';

const code = (err: unknown) => (err as NodeJS.ErrnoException)?.code;

async function realOrNull(path: string): Promise<string | null> {
  try {
    return await realpath(path);
  } catch {
    return null;
  }
}

interface Root {
  kind: MediaRoot;
  dir: string;
}

/**
 * `/api/media` on the local disk. Relative paths are looked up in the workspace, then the session's
 * uploads; absolute ones must lie in a root both as written (after `..` is folded) and once every
 * symlink is followed. The workspace goes through the same guard as the file routes.
 */
export class NodeMediaFiles implements MediaFiles {
  readonly #homeDir: string;

  constructor(readonly options: { stateDir: string; hermesHome: string; homeDir?: string; extraRoots?: readonly string[] }) {
    this.#homeDir = options.homeDir ?? homedir();
  }

  async open(req: MediaRequest): Promise<MediaFile> {
    if (!isSafeSessionId(req.sessionId)) throw new BadRequest('Invalid session id');
    const raw = req.path.trim();
    if (!raw || raw.includes('\0')) throw new BadRequest('Invalid path');
    checkNameLengths(raw);
    const path = raw === '~' || raw.startsWith('~/') ? join(this.#homeDir, raw.slice(1)) : raw;
    const roots: Root[] = [
      { kind: 'workspace', dir: req.workspace },
      { kind: 'attachments', dir: join(this.options.stateDir, 'attachments', req.sessionId) },
      ...HERMES_MEDIA_DIRS.map((d): Root => ({ kind: 'hermes', dir: join(this.options.hermesHome, d) })),
      ...(this.options.extraRoots ?? []).map((dir): Root => ({ kind: 'extra', dir })),
    ];
    if (!isAbsolute(path)) {
      // A relative path names a workspace file, or one of this session's uploads.
      for (const root of roots.slice(0, 2)) {
        const found = await this.#within(root, path, raw, true);
        if (found) return found;
      }
      throw new NotFound('File not found');
    }
    const abs = resolve(path);
    for (const root of roots) {
      const real = await realOrNull(root.dir);
      if (!real) continue;
      const base = isInside(root.dir, abs) ? root.dir : isInside(real, abs) ? real : null;
      if (base === null) continue;
      const found = await this.#within(root, relative(base, abs), raw, false);
      if (found) return found;
    }
    throw new Forbidden(NOT_ALLOWED);
  }

  /** The file at `rel` under `root`, proved inside it; null when `optional` and it is not there. */
  async #within(root: Root, rel: string, raw: string, optional: boolean): Promise<MediaFile | null> {
    const rootReal = await realOrNull(root.dir);
    if (!rootReal) {
      if (optional) return null;
      throw new NotFound('File not found');
    }
    const r = await resolveTarget(rootReal, rel);
    const real = await realOrNull(r.abs);
    if (!real) {
      if (optional) return null;
      throw new NotFound('File not found');
    }
    if (!isInside(rootReal, real)) throw new Forbidden(NOT_ALLOWED);
    await this.#refusePrivate(raw, r.abs, real);
    let st: Awaited<ReturnType<typeof stat>>;
    try {
      st = await stat(real);
    } catch (err) {
      if (code(err) === 'ENOENT' && optional) return null;
      throw new NotFound('File not found');
    }
    if (!st.isFile()) throw new NotFound('File not found');
    return {
      name: basename(real),
      size: st.size,
      mtimeMs: st.mtimeMs,
      root: root.kind,
      read: (start, end) => Readable.toWeb(createReadStream(real, { start, end })) as unknown as ReadableStream<Uint8Array>,
    };
  }

  /** Hermes' read denylist (credential stores, keys) and its private state stay out of reach. */
  async #refusePrivate(raw: string, abs: string, real: string): Promise<void> {
    if (readBlockError(raw, abs, { homeDir: this.#homeDir, hermesHome: this.options.hermesHome }, real)) throw new Forbidden(NOT_ALLOWED);
    const realHome = await realOrNull(this.options.hermesHome);
    const homes = [...hermesDirs(this.options.hermesHome), ...(realHome ? hermesDirs(realHome) : [])];
    for (const p of [abs, real]) {
      if (homes.some((h) => HERMES_PRIVATE.some((name) => isInside(join(h, name), p)))) throw new Forbidden(NOT_ALLOWED);
    }
  }
}
