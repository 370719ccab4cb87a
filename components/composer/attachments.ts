import type { ReactiveControllerHost } from 'lit';
import { upload, type WorkspaceUploaded } from '../api/uploads.js';

/** The archives the server extracts (the incumbent's list). */
const ARCHIVE = /\.(zip|tar|tar\.gz|tgz|tar\.bz2|tbz2|tar\.xz|txz)$/i;

export function isArchive(name: string): boolean {
  return ARCHIVE.test(name);
}

/** An archive's offer to be extracted into the workspace, and how that went. */
export interface Extraction {
  state: 'running' | 'done' | 'error';
  /** Files written, and the folder (relative to the workspace) they went into. */
  count?: number;
  folder?: string;
  error?: string;
}

export interface Attachment {
  key: number;
  name: string;
  size: number;
  status: 'uploading' | 'done' | 'error';
  /** 0..1 while uploading. */
  progress: number;
  error?: string;
  /** Where the server stored it: what a chat turn's `attachments` names. */
  path?: string;
  /** An archive keeps its file and session, so it can be extracted into the workspace on request. */
  file?: File;
  sessionId?: string;
  extraction?: Extraction;
}

let nextKey = 1;

/**
 * The composer's attachments. Each file uploads as soon as it is added (into the open session),
 * so its chip shows real progress while the user is still typing; a send then names the stored
 * paths. The upload function is a field so tests can replace it.
 */
export class AttachmentList {
  items: Attachment[] = [];
  upload = upload;
  /** Replaceable in tests; by default POST /api/workspace/upload into the workspace root. */
  extractFile?: (sessionId: string, file: File) => Promise<WorkspaceUploaded>;

  constructor(private readonly host: ReactiveControllerHost) {}

  add(sessionId: string, files: File[]): void {
    for (const file of files) {
      const item: Attachment = { key: nextKey++, name: file.name, size: file.size, status: 'uploading', progress: 0 };
      if (isArchive(file.name)) Object.assign(item, { file, sessionId });
      this.items = [...this.items, item];
      this.upload(sessionId, file, (p) => {
        item.progress = p;
        this.host.requestUpdate();
      }).then(
        (stored) => {
          item.status = 'done';
          item.progress = 1;
          item.path = stored.path;
          item.name = stored.filename || item.name;
          this.host.requestUpdate();
        },
        (err: Error) => {
          item.status = 'error';
          item.error = err.message;
          this.host.requestUpdate();
        },
      );
    }
    this.host.requestUpdate();
  }

  /**
   * Extracts an attached archive into `<workspace>/<stem>/`; once extracted, the chip stands for
   * that folder. Loaded on first use: few chats extract anything (extract-archive.ts).
   */
  async extract(key: number): Promise<void> {
    const item = this.items.find((i) => i.key === key);
    if (!item?.file || !item.sessionId || item.extraction?.state === 'running' || item.extraction?.state === 'done') return;
    item.extraction = { state: 'running' };
    this.host.requestUpdate();
    const { extractAttachment } = await import('./extract-archive.js');
    item.extraction = await extractAttachment(item, this.extractFile);
    this.host.requestUpdate();
  }

  /** Puts already-stored files back (after /undo). */
  restore(paths: string[]): void {
    const items = paths.map((path): Attachment => ({ key: nextKey++, name: path.split(/[\\/]/).pop() ?? path, size: 0, status: 'done', progress: 1, path }));
    this.items = [...this.items, ...items];
    this.host.requestUpdate();
  }

  /** A removed upload still finishes on the server; its result is simply not sent. */
  remove(key: number): void {
    this.items = this.items.filter((i) => i.key !== key);
    this.host.requestUpdate();
  }

  clear(): void {
    this.items = [];
    this.host.requestUpdate();
  }

  get uploading(): boolean {
    return this.items.some((i) => i.status === 'uploading');
  }

  /** Stored paths, ready to send (failed uploads are left out). */
  get paths(): string[] {
    return this.items.filter((i) => i.status === 'done' && i.path).map((i) => i.path!);
  }
}
