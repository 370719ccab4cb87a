export interface StoredAttachment {
  filename: string;
  path: string;
  size: number;
  mime: string;
  is_image: boolean;
}

/** Chat uploads, kept per session (`<state>/attachments/<sid>/` on Node). */
export interface AttachmentStore {
  /** Saves under a sanitised, de-duplicated name. */
  save(sessionId: string, filename: string, data: Uint8Array, mime: string): Promise<StoredAttachment>;
}
