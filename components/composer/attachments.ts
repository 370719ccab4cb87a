import type { ReactiveControllerHost } from 'lit';
import { upload } from '../api/uploads.js';

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

  constructor(private readonly host: ReactiveControllerHost) {}

  add(sessionId: string, files: File[]): void {
    for (const file of files) {
      const item: Attachment = { key: nextKey++, name: file.name, size: file.size, status: 'uploading', progress: 0 };
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
