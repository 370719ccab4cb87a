import type { AttachmentStore } from '../ports/attachment-store.js';
import { sniffImage } from '../shared/file-sniff.js';
import { mimeFor } from '../shared/mime.js';

/** What a chat turn names: a stored path, or the upload answer (or part of it). */
export type SentAttachment = string | { path: string; filename?: string | undefined; name?: string | undefined; mime?: string | undefined };

/** One attachment as the user message stores it: the upload answer's fields (the incumbent's shape). */
export interface MessageAttachment {
  filename: string;
  path: string;
  size?: number;
  mime?: string;
  is_image?: boolean;
}

/**
 * The attachment list the user message keeps, for the bubble's thumbnails and chips after a
 * reload. Size and type come from the stored file itself (an image by its first bytes); a path
 * outside the session's uploads is kept by name only and never read.
 */
export async function describeAttachments(store: AttachmentStore, sessionId: string, sent: SentAttachment[]): Promise<MessageAttachment[]> {
  return Promise.all(
    sent.map(async (a) => {
      const given = typeof a === 'string' ? { path: a } : a;
      const filename = given.filename || given.name || given.path.split(/[\\/]/).pop() || given.path;
      const found = store.read ? await store.read(sessionId, given.path, 0) : null;
      if (!found) return { filename, path: given.path };
      const image = sniffImage(found.head);
      return { filename, path: given.path, size: found.size, mime: image ?? (given.mime || mimeFor(filename)), is_image: image !== null };
    }),
  );
}
